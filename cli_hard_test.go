package main

// The hard edges of the command line: inputs that used to pass silently
// (a pipe read as empty, a directory verified in part, a file in which
// nothing parses), hang (a named pipe), run out of memory (a decompression
// bomb) or reach the terminal unsanitized (a file name with an escape
// sequence). Every input is made here.

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
)

const (
	claudeSession = "model/claudecode/testdata/real/258c7280-ae70-4798-800f-63464d01a85d.jsonl"
	claudeProject = "model/claudecode/testdata/real"
	codexRollout  = "model/codex/testdata/synthetic/rollout-2025-10-01T08-00-00-0199aaaa-1111-7222-8333-444444444444.jsonl"
	ohConv        = "model/openhands/testdata/v0/sid-synthetic"
)

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func put(t *testing.T, path string, data []byte) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// runWithin runs the command line and fails the test if it has not
// returned after a while: a named pipe used to hang it for ever.
func runWithin(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	done := make(chan result, 1)
	go func() {
		var out, errOut bytes.Buffer
		code := run(args, strings.NewReader(stdin), &out, &errOut)
		done <- result{code, out.String(), errOut.String()}
	}()
	select {
	case r := <-done:
		return r
	case <-time.After(2 * time.Minute): // generous: -race on a loaded machine is slow
		t.Fatalf("loupe %s did not return: it hangs", strings.Join(args, " "))
		return result{}
	}
}

func (r result) stdoutHas(t *testing.T, want ...string) {
	t.Helper()
	for _, s := range want {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("stdout does not say %q:\n%s", s, r.stdout)
		}
	}
}

// TestPipesAreReadOnce: a pipe given by name (process substitution,
// /dev/stdin) was sniffed, then opened again and read as empty: "0
// compactions", exit 0. Detection now reads the stream it then imports.
func TestPipesAreReadOnce(t *testing.T) {
	pipe := func(data []byte) string {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close() })
		go func() { w.Write(data); w.Close() }()
		return fmt.Sprintf("/dev/fd/%d", r.Fd()) // what <(cat run.jsonl) gives
	}
	run := readFile(t, violateRun)
	r := runWithin(t, "", "verify", pipe(run))
	r.expect(t, exitViolation)
	r.stdoutHas(t, "1 compaction · 1 violate")

	// Detection works on the stream: a Claude Code session, gzipped.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(readFile(t, claudeSession))
	zw.Close()
	r = runWithin(t, "", "verify", pipe(gz.Bytes()))
	r.expect(t, exitOK)
	r.stdoutHas(t, "claude-code 2.1.39 · ", " · 1 compaction · ")

	// convert writes every event, not only the meta line.
	r = runWithin(t, "", "convert", pipe(run))
	r.expect(t, exitOK)
	if got, want := strings.Count(r.stdout, "\n"), strings.Count(string(run), "\n"); got != want {
		t.Errorf("convert of a pipe wrote %d lines, want %d", got, want)
	}

	// Standard input is detected too.
	r = runWithin(t, string(readFile(t, codexRollout)), "verify", "-")
	r.expect(t, exitOK)
	r.stdoutHas(t, "- · codex 0.46.0")

	// A directory format cannot come through a pipe: said, not guessed.
	runWithin(t, string(run), "verify", "--from", "openhands", "-").
		expect(t, exitBadInput, "-: openhands stores a session as a directory and cannot be read from a stream")
}

// TestNamedPipes: a FIFO given by name is read once, as a stream; one met
// in a directory is named as skipped instead of blocking the walk.
func TestNamedPipes(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "run.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	data := readFile(t, violateRun)
	go func() {
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			f.Write(data)
			f.Close()
		}
	}()
	r := runWithin(t, "", "verify", fifo)
	r.expect(t, exitViolation)
	r.stdoutHas(t, "1 compaction · 1 violate")

	// Nobody writes to it now: a walk must not open it.
	put(t, filepath.Join(dir, "good.jsonl"), readFile(t, degradeRun))
	r = runWithin(t, "", "verify", dir)
	r.expect(t, exitOK, "loupe: skipped "+fifo+": a named pipe, not a regular file (not read)")
	r.stdoutHas(t, "good.jsonl")

	// Nor in a Claude Code project, whose detection samples its files.
	proj := t.TempDir()
	put(t, filepath.Join(proj, "a.jsonl"), readFile(t, claudeSession))
	if err := syscall.Mkfifo(filepath.Join(proj, "b.jsonl"), 0o600); err != nil {
		t.Fatal(err)
	}
	runWithin(t, "", "verify", proj).expect(t, exitOK, "b.jsonl: a named pipe")
	runWithin(t, "", proj).expect(t, exitOK)
}

// TestVerifyDirectoryVerifiesEverything: every transcript under a
// directory is verified, whatever else is in it; what is skipped is named;
// what cannot be read makes the run exit 2.
func TestVerifyDirectoryVerifiesEverything(t *testing.T) {
	t.Run("a Claude Code file among other transcripts", func(t *testing.T) {
		// It used to make the whole directory a Claude Code project: the
		// loupe runs beside it (one violates) were never verified.
		dir := t.TempDir()
		put(t, filepath.Join(dir, "claude.jsonl"), readFile(t, claudeSession))
		put(t, filepath.Join(dir, "a.jsonl"), readFile(t, violateRun))
		put(t, filepath.Join(dir, "b.jsonl"), readFile(t, degradeRun))
		r := runWithin(t, "", "verify", dir)
		r.expect(t, exitViolation)
		r.stdoutHas(t, "3 files", "claude.jsonl · claude-code", "a.jsonl ·", "b.jsonl ·")
	})
	t.Run("every session of a Claude Code project", func(t *testing.T) {
		r := runWithin(t, "", "verify", claudeProject)
		r.expect(t, exitOK)
		r.stdoutHas(t, "3 files", "258c7280", "4d5611e5", "8463c716")
		if strings.Contains(r.stdout, "opened the newest session") {
			t.Errorf("only the newest session was verified:\n%s", r.stdout)
		}
	})
	t.Run("OpenHands conversations at any depth", func(t *testing.T) {
		dir := t.TempDir()
		for _, sub := range []string{"a/sessions/sid-1", "b/c/d/sid-2"} {
			if err := os.CopyFS(filepath.Join(dir, sub), os.DirFS(ohConv)); err != nil {
				t.Fatal(err)
			}
		}
		r := runWithin(t, "", "verify", dir)
		r.expect(t, exitOK)
		r.stdoutHas(t, "2 files", "sid-1 · openhands v0", "sid-2 · openhands v0")
	})
	t.Run("unreadable files are named and fail the run", func(t *testing.T) {
		dir := t.TempDir()
		put(t, filepath.Join(dir, "good.jsonl"), readFile(t, degradeRun))
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(readFile(t, degradeRun))
		zw.Close()
		b := gz.Bytes()
		b[len(b)-8] ^= 0xff // the CRC
		crc := put(t, filepath.Join(dir, "crc.jsonl.gz"), b)
		dangling := filepath.Join(dir, "gone.jsonl")
		if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err != nil {
			t.Fatal(err)
		}
		notes := put(t, filepath.Join(dir, "notes.txt"), []byte("not a transcript\n"))
		empty := put(t, filepath.Join(dir, "empty.jsonl"), nil)
		r := runWithin(t, "", "verify", dir)
		r.expect(t, exitBadInput,
			"loupe: skipped "+crc+": cannot be read: gzip: invalid checksum",
			"loupe: skipped "+dangling+": cannot be read: a symbolic link that cannot be followed",
			"loupe: skipped "+notes+": not a transcript format loupe reads",
			"loupe: skipped "+empty+": empty file")
		r.stdoutHas(t, "good.jsonl")
		if os.Geteuid() != 0 { // root reads anything
			noperm := put(t, filepath.Join(t.TempDir(), "noperm.jsonl"), readFile(t, degradeRun))
			os.Chmod(noperm, 0)
			runWithin(t, "", "verify", filepath.Dir(noperm)).expect(t, exitBadInput, "skipped "+noperm+": cannot be read:", "permission denied")
		}
	})
	t.Run("the picker still lists every session", func(t *testing.T) {
		dir := t.TempDir()
		put(t, filepath.Join(dir, "claude.jsonl"), readFile(t, claudeSession))
		put(t, filepath.Join(dir, "a.jsonl"), readFile(t, violateRun))
		r := runWithin(t, "", dir) // not a terminal: the picker's sessions as a text report
		r.expect(t, exitViolation)
		r.stdoutHas(t, "2 files", "claude-code 2.1.39")
	})
}

// TestNothingReadIsBadInput: a file forced into a format it is not in, or an
// empty one, used to verify as "0 turns, 0 compactions", exit 0.
func TestNothingReadIsBadInput(t *testing.T) {
	runWithin(t, "", "verify", "--from", "codex", claudeSession).
		expect(t, exitBadInput, claudeSession+": nothing in it reads as codex (none of its 1863 records is a codex record)", "Without --from")
	runWithin(t, "", "convert", "--from", "gemini-cli", violateRun).
		expect(t, exitBadInput, violateRun+": nothing in it reads as gemini-cli")
	empty := put(t, filepath.Join(t.TempDir(), "empty.jsonl"), []byte("\n  \n"))
	for _, args := range [][]string{{"verify", empty}, {"convert", empty}, {empty}, {"verify", "--from", "codex", empty}} {
		runWithin(t, "", args...).expect(t, exitBadInput, empty+": empty file")
	}
	runWithin(t, "", "verify", "-").expect(t, exitBadInput, "-: empty file")
	// Every line broken, read with --lenient: nothing was verified either.
	broken := put(t, filepath.Join(t.TempDir(), "broken.jsonl"), []byte("{\"type\":\"message\",\"turn\":\n{\"type\":\"plan\"\n"))
	runWithin(t, "", "verify", "--lenient", broken).
		expect(t, exitBadInput, broken+": nothing in it reads as loupe (every one of its 2 records has an error; the first: "+broken+":1:")
}

// TestParseErrorsExit2: the inspector's text report and convert exited 0 on
// lines that do not parse; the README says 2.
func TestParseErrorsExit2(t *testing.T) {
	lines := strings.SplitAfter(string(readFile(t, degradeRun)), "\n")
	broken := put(t, filepath.Join(t.TempDir(), "broken.jsonl"),
		[]byte(strings.Join(lines[:2], "")+"{\"type\":\"message\",\"turn\":\n"+strings.Join(lines[2:], "")))
	r := runWithin(t, "", broken)
	r.expect(t, exitBadInput, broken+":3:")
	r.stdoutHas(t, "1 compaction ·") // the report is still printed
	r = runWithin(t, "", "convert", broken)
	r.expect(t, exitBadInput, broken+":3:")
	if !strings.Contains(r.stdout, "{\"type\":\"message\",\"turn\":\n") || !strings.Contains(r.stdout, `"type":"compaction"`) {
		t.Errorf("convert did not write the file, its broken line kept:\n%s", r.stdout)
	}
}

// bomb is gzip or zstd data that decompresses to prefix, n MiB of 'a' and
// suffix: members and frames concatenate, so the bomb costs one compressed
// MiB.
func bomb(t *testing.T, zstdFormat bool, prefix string, n int, suffix string) []byte {
	mib := bytes.Repeat([]byte("a"), 1<<20)
	if zstdFormat {
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression))
		if err != nil {
			t.Fatal(err)
		}
		defer enc.Close()
		out, one := enc.EncodeAll([]byte(prefix), nil), enc.EncodeAll(mib, nil)
		for range n {
			out = append(out, one...)
		}
		return enc.EncodeAll([]byte(suffix), out)
	}
	member := func(b []byte) []byte {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(b)
		zw.Close()
		return buf.Bytes()
	}
	out, one := member([]byte(prefix)), member(mib)
	for range n {
		out = append(out, one...)
	}
	return append(out, member([]byte(suffix))...)
}

// TestMemoryLimits: a 10 MB gzip of one 10 GiB string, or a few hundred
// kilobytes of zstd, ran the process out of memory; now they fail with the
// file, the line and the knob. So does a line over the line limit.
func TestMemoryLimits(t *testing.T) {
	dir := t.TempDir()
	prefix := `{"type":"meta","format":"loupe/v1"}` + "\n" + `{"type":"message","turn":1,"role":"user","text":"`
	gz := put(t, filepath.Join(dir, "bomb.jsonl.gz"), bomb(t, false, prefix, 10<<10, `"}`+"\n"))
	zst := put(t, filepath.Join(dir, "bomb.jsonl.zst"), bomb(t, true, prefix, 10<<10, `"}`+"\n"))
	for _, p := range []string{gz, zst} {
		runWithin(t, "", "verify", p).expect(t, exitBadInput, p+": line 2: decompressed data grows to more than 250 times its compressed size", "LOUPE_MAX_RATIO")
	}
	// With the ratio raised, the line limit is the next guard.
	t.Setenv("LOUPE_MAX_RATIO", "1000000")
	t.Setenv("LOUPE_MAX_LINE", "80MiB")
	runWithin(t, "", "verify", gz).expect(t, exitBadInput, gz+": line 2: the line is longer than 80 MiB")
	t.Setenv("LOUPE_MAX_RATIO", "many")
	runWithin(t, "", "verify", gz).expect(t, exitBadInput, `LOUPE_MAX_RATIO: "many" is not a positive whole number`)
	t.Setenv("LOUPE_MAX_RATIO", "")

	long := put(t, filepath.Join(dir, "long.jsonl"), []byte(prefix+strings.Repeat("a", 3<<20)+"\"}\n"))
	runWithin(t, "", "verify", "--max-line", "2MiB", long).
		expect(t, exitBadInput, long+": line 2: the line is longer than 2 MiB, the limit on one line (raise it with --max-line or LOUPE_MAX_LINE)")
	t.Setenv("LOUPE_MAX_LINE", "1M")
	runWithin(t, "", "convert", long).expect(t, exitBadInput, long+": line 2: the line is longer than 1 MiB")
	runWithin(t, "", "verify", "--max-line", "4MiB", long).expect(t, exitOK) // the flag wins
	t.Setenv("LOUPE_MAX_LINE", "lots")
	runWithin(t, "", "verify", long).expect(t, exitBadInput, `LOUPE_MAX_LINE: bad size "lots"`)
}

// TestStderrIsSanitized: file names and transcript text reach standard
// error only made inert (an OSC sequence in a file name set the title).
func TestStderrIsSanitized(t *testing.T) {
	dir := t.TempDir()
	osc := "\x1b]0;PWNED\x07"
	put(t, filepath.Join(dir, "notes"+osc+"\nloupe: forged.txt"), []byte("notes\n"))
	broken := put(t, filepath.Join(dir, "run"+osc+".jsonl"), []byte(`{"type":"message","turn":1,"role":"user","text":"hi"}`+"\n"+`{"type":"message","turn":2,"role":"\u009b31m"}`+"\n"))
	for _, args := range [][]string{
		{"verify", dir},
		{"verify", broken},
		{"convert", broken},
		{broken},
		{"verify", filepath.Join(dir, "missing"+osc)},
		{"--bogus" + osc},
		{"verify", "--from", "x" + osc, broken},
	} {
		r := runWithin(t, "", args...)
		if r.code != exitBadInput {
			t.Errorf("%q: exit %d, want 2", args, r.code)
		}
		if strings.ContainsAny(r.stderr, "\x1b\x07\u009b") {
			t.Errorf("%q: raw control characters on stderr: %q", args, r.stderr)
		}
		if !strings.Contains(r.stderr, "␛]0;PWNED␇") && !strings.Contains(r.stderr, "⟨U+009B⟩") {
			t.Errorf("%q: the name is not shown, made visible: %q", args, r.stderr)
		}
		for _, line := range strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n") {
			if strings.HasPrefix(line, "loupe: forged") {
				t.Errorf("%q: a file name forged a line: %q", args, r.stderr)
			}
		}
	}
}

// TestErrorsNameTheFile: a broken compressed file said "loupe: gzip:
// invalid checksum", with no file.
func TestErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(readFile(t, degradeRun))
	zw.Close()
	b := gz.Bytes()
	crc := put(t, filepath.Join(dir, "crc.jsonl.gz"), append(append([]byte{}, b[:len(b)-8]...), 0, 0, 0, 0, 0, 0, 0, 0))
	truncated := put(t, filepath.Join(dir, "cut.jsonl.gz"), b[:len(b)/2])
	badZstd := put(t, filepath.Join(dir, "bad.jsonl.zst"), []byte{0x28, 0xb5, 0x2f, 0xfd, 0xff, 0xff, 0xff})
	for p, msg := range map[string]string{crc: "gzip: invalid checksum", truncated: "unexpected EOF", badZstd: "zstd"} {
		for _, cmd := range []string{"verify", "convert"} {
			runWithin(t, "", cmd, p).expect(t, exitBadInput, "loupe: "+p+": ", msg)
		}
	}
}

// TestIntegerLimits: a turn or seq at the int64 limit wrapped when counted
// on from (the next compaction without a seq became -9223372036854775808).
func TestIntegerLimits(t *testing.T) {
	p := put(t, filepath.Join(t.TempDir(), "big.jsonl"), []byte(strings.Join([]string{
		`{"type":"meta","format":"loupe/v1"}`,
		`{"type":"message","turn":1,"role":"user","text":"hi"}`,
		`{"type":"compaction","turn":2,"seq":9223372036854775807,"summary":"x"}`,
		`{"type":"compaction","turn":3,"summary":"y"}`,
		`{"type":"message","turn":99999999999999999999,"role":"user","text":"hi"}`,
	}, "\n")+"\n"))
	r := runWithin(t, "", "verify", p)
	r.expect(t, exitBadInput,
		p+`:3: compaction: "seq" is 9223372036854775807, out of range (0 to 9007199254740991)`,
		p+`:5: message: "turn" is 99999999999999999999, out of range (0 to 9007199254740991)`)
	r = runWithin(t, "", "convert", p)
	r.expect(t, exitBadInput)
	if strings.Contains(r.stdout, "-9223372036854775808") {
		t.Errorf("a seq wrapped:\n%s", r.stdout)
	}
}

// TestHugeForgottenRangeCLI: a 130-byte OpenHands condensation naming ids
// 0..2^63-1 cost a gigabyte per event; it verifies like any other.
func TestHugeForgottenRangeCLI(t *testing.T) {
	conv := filepath.Join(t.TempDir(), "sid")
	if err := os.CopyFS(conv, os.DirFS(ohConv)); err != nil {
		t.Fatal(err)
	}
	put(t, filepath.Join(conv, "events", "6.json"), []byte(`{"id":6,"source":"agent","action":"condensation","args":{"forgotten_events_start_id":0,"forgotten_events_end_id":9223372036854775807}}`))
	r := runWithin(t, "", "verify", conv)
	r.expect(t, exitViolation)
	r.stdoutHas(t, "2 compactions", "compaction 2: the condenser forgot 5 events without a summary")
}
