package shapes

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// replaySession is the id of the replayed session; its file is named after it.
const replaySession = "0b8e7c1a-5d2f-4e3b-9a6c-1f2e3d4c5b6a"

var (
	tsRe      = regexp.MustCompile(`"timestamp":"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)"`)
	nullRoot  = []byte(`"parentUuid":null`)
	uuidField = regexp.MustCompile(`"uuid":"([0-9a-f-]{36})"`)
)

// claudeCode replays real Claude Code sessions (Options.Sessions) one after
// another as a single session until the file has the size asked for: each
// copy gets its own uuids, tool-use, message and request ids and later
// timestamps, and its first line hangs off the previous copy's last, so the
// file is one long conversation with a compaction (compact_boundary and
// summary) per copy. It goes through the Claude Code importer, then verify.
func claudeCode(w io.Writer, size int64, opt Options) error {
	files, err := sessionFiles(opt.Sessions)
	if err != nil {
		return err
	}
	srcs := make([]ccSource, len(files))
	for i, f := range files {
		if srcs[i], err = readSource(f); err != nil {
			return err
		}
	}
	out := &countWriter{w: w}
	var parent string
	offset := time.Duration(0)
	for k := 0; out.n < size; k++ {
		s := srcs[(k+int(opt.Seed))%len(srcs)]
		b, last := s.copy(k, parent, offset)
		if _, err := out.Write(b); err != nil {
			return err
		}
		parent = last
		offset += s.span + 10*time.Minute
	}
	return nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// sessionFiles lists the session files of path (a file, or a directory of
// *.jsonl), in name order.
func sessionFiles(path string) ([]string, error) {
	if path == "" {
		path = DefaultSessions
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("claude-code sessions: %w (run from the module root, or pass -sessions)", err)
	}
	if !st.IsDir() {
		return []string{path}, nil
	}
	files, err := filepath.Glob(filepath.Join(path, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("claude-code sessions: no *.jsonl in %s", path)
	}
	sort.Strings(files)
	return files, nil
}

// ccSource is one session to replay.
type ccSource struct {
	data    []byte
	session string        // its session id (the file name)
	start   time.Time     // its first timestamp
	span    time.Duration // from its first timestamp to its last
}

func readSource(path string) (ccSource, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return ccSource{}, err
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, '\n')
	}
	s := ccSource{data: data, session: strings.TrimSuffix(filepath.Base(path), ".jsonl")}
	var first, last time.Time
	for _, m := range tsRe.FindAllSubmatch(data, -1) {
		t, err := time.Parse(time.RFC3339Nano, string(m[1]))
		if err != nil {
			continue
		}
		if first.IsZero() || t.Before(first) {
			first = t
		}
		if t.After(last) {
			last = t
		}
	}
	if first.IsZero() {
		return ccSource{}, fmt.Errorf("%s: no timestamps: not a Claude Code session", path)
	}
	s.start, s.span = first, last.Sub(first)
	return s, nil
}

// copy returns copy k of the session, hung off parent, shifted by offset
// from the first source's start, and the uuid of its last line.
func (s ccSource) copy(k int, parent string, offset time.Duration) ([]byte, string) {
	b := rewriteIDs(s.data, func(out, u []byte) []byte {
		if string(u) == s.session {
			return append(out, replaySession...)
		}
		return append(out, remapUUID(k, u)...)
	}, fmt.Sprintf("R%d", k))
	base := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC).Add(offset)
	b = tsRe.ReplaceAllFunc(b, func(m []byte) []byte {
		t, err := time.Parse(time.RFC3339Nano, string(m[len(`"timestamp":"`):len(m)-1]))
		if err != nil {
			return m
		}
		return []byte(`"timestamp":"` + base.Add(t.Sub(s.start)).Format("2006-01-02T15:04:05.000Z") + `"`)
	})
	if parent != "" {
		if i := bytes.Index(b, nullRoot); i >= 0 {
			b = append(b[:i:i], append([]byte(`"parentUuid":"`+parent+`"`), b[i+len(nullRoot):]...)...)
		}
	}
	var last string
	if ms := uuidField.FindAllSubmatch(b, -1); len(ms) > 0 {
		last = string(ms[len(ms)-1][1])
	}
	return b, last
}

// remapUUID gives uuid u of copy k a new uuid, the same every time.
func remapUUID(k int, u []byte) string {
	h1, h2 := fnv.New64a(), fnv.New64()
	fmt.Fprintf(h1, "%d/%s", k, u)
	fmt.Fprintf(h2, "%s/%d", u, k)
	x := fmt.Sprintf("%016x%016x", h1.Sum64(), h2.Sum64())
	return x[:8] + "-" + x[8:12] + "-4" + x[13:16] + "-8" + x[17:20] + "-" + x[20:32]
}

// rewriteIDs copies b with every uuid replaced by what uuid appends and
// every API id (toolu_…, msg_…, req_…) followed by suffix. (A regular
// expression without a literal prefix made this the slow part of
// generating.)
func rewriteIDs(b []byte, uuid func(out, u []byte) []byte, suffix string) []byte {
	out := make([]byte, 0, len(b)+len(b)/16)
	for i := 0; i < len(b); {
		c := b[i]
		if i > 0 && isAlnum(b[i-1]) || !isHex(c) && c != 'm' && c != 'r' && c != 's' && c != 't' {
			out = append(out, c)
			i++
			continue
		}
		if isUUID(b[i:]) && (i+36 == len(b) || !isAlnum(b[i+36])) {
			out = uuid(out, b[i:i+36])
			i += 36
			continue
		}
		if n := apiID(b[i:]); n > 0 {
			out = append(append(out, b[i:i+n]...), suffix...)
			i += n
			continue
		}
		out = append(out, c)
		i++
	}
	return out
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' }
func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

// isUUID reports whether b starts with a lower-case 8-4-4-4-12 uuid.
func isUUID(b []byte) bool {
	if len(b) < 36 {
		return false
	}
	for j := 0; j < 36; j++ {
		switch j {
		case 8, 13, 18, 23:
			if b[j] != '-' {
				return false
			}
		default:
			if !isHex(b[j]) {
				return false
			}
		}
	}
	return true
}

// apiID returns the length of the Anthropic API id b starts with, or 0.
func apiID(b []byte) int {
	for _, p := range []string{"toolu_", "srvtoolu_", "msg_", "req_"} {
		if bytes.HasPrefix(b, []byte(p)) {
			n := len(p)
			for n < len(b) && isAlnum(b[n]) && b[n] != '_' {
				n++
			}
			if n > len(p) {
				return n
			}
		}
	}
	return 0
}
