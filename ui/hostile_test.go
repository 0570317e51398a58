package ui

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/loupe-dev/loupe/verify"
)

// payloads are escape sequences and hidden characters from the terminal
// threat table (research/tui.md §5.1). Every one carries the word PWNED so a
// test can tell whether it survived as a live sequence.
var payloads = []string{
	"\x1b]52;c;UFdORUQ=\x07",                  // OSC 52 clipboard write
	"\x1b]0;PWNED title\x07",                  // window title
	"\x1b]8;;https://PWNED.example\x1b\\link", // hyperlink
	"\x1b[2J\x1b[H PWNED",                     // erase, home
	"\x1b[6n PWNED",                           // cursor position query
	"\x1bc PWNED",                             // reset
	"\x1bPtmux;\x1b\x1b]52;c;PWNED\x07\x1b\\", // tmux passthrough
	"\x1b_Gf=100;PWNED\x1b\\",                 // kitty graphics APC
	"\x1b^PWNED\x1b\\",                        // PM
	"\u009b2J PWNED",                          // C1 CSI (UTF-8)
	"\x9b2J PWNED",                            // raw C1 byte
	"\u009d0;PWNED\u009c",                     // C1 OSC
	"SAFE\rPWNED\b\b\a",                       // CR, BS, BEL
	"\u202ePWNED\u202c \u2066x\u2069",         // bidi
	"PW\u200bNE\u200dD\ufeff",                 // zero width
	"\U000E0050\U000E0057\U000E004E PWNED",    // tag smuggling
	"\x1b]52;c;UFdORUQ=",                      // unterminated OSC
	"\x00\x7f PWNED",                          // NUL, DEL
}

func hostile(i int) string { return "h" + payloads[i%len(payloads)] + "t" }

// hostileJSONL is a transcript with a payload in every string field.
func hostileJSONL(t testing.TB) string {
	var sb strings.Builder
	w := func(v map[string]any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		sb.Write(b)
		sb.WriteByte('\n')
	}
	w(map[string]any{"type": "meta", "format": "loupe/v1", "run": hostile(0), "agent": hostile(1), "source": hostile(2)})
	turn := 1
	for i := range payloads {
		w(map[string]any{"type": "message", "turn": turn, "role": "user", "text": "never " + hostile(i) + "\nline two " + hostile(i+1)})
		w(map[string]any{"type": "tool_call", "turn": turn + 1, "id": "call_" + hostile(i), "name": hostile(i + 2), "input": map[string]any{"command": hostile(i + 3)}})
		w(map[string]any{"type": "tool_result", "turn": turn + 2, "id": "call_" + hostile(i), "is_error": i%2 == 0, "text": hostile(i + 4)})
		w(map[string]any{"type": "plan", "turn": turn + 3, "items": []map[string]any{{"id": hostile(i), "text": hostile(i + 5), "status": "pending"}}})
		w(map[string]any{"type": "commitment", "turn": turn + 3, "id": hostile(i + 6), "text": hostile(i + 7), "status": "open"})
		w(map[string]any{"type": hostile(i + 8), "turn": turn + 3, "x": hostile(i + 9)})
		turn += 4
		if i%6 == 5 {
			summary := "## Pending Tasks\n- " + hostile(i) + "\n- never " + hostile(i+1) + "\n" + hostile(i+2)
			w(map[string]any{"type": "compaction", "turn": turn, "seq": i/6 + 1, "trigger": hostile(i + 3), "summary": summary,
				"self_report": map[string]any{"retained": []string{hostile(i + 4)}, "claim": hostile(i + 5)}})
			turn++
		}
	}
	sb.WriteString("{\"type\":\"message\",\"turn\":999,\"role\":\"assistant\",\"text\":\"raw bytes \x1b]52;c;PWNED\x07 \x9b2J\"}\n")
	return sb.String()
}

// hostileResult decorates the verifier's result with payloads in every
// string the inspector shows, whatever the verifier extracted.
func hostileResult(t testing.TB) *verify.Result {
	tr := loadFixture(t, hostileJSONL(t))
	res := verify.Run(tr, verify.Options{})
	res.Path, res.Source = hostile(3), hostile(4)
	k := 0
	next := func() string { k++; return hostile(k) }
	for ci, cr := range res.Compactions {
		c := tr.Compaction(cr.Seq)
		cr.Trigger = next()
		cr.Verdict = verify.Violate
		cr.Reasons = append(cr.Reasons, next(), next())
		cr.UnsourcedClaims = append(cr.UnsourcedClaims, next())
		cr.Consumers = append(cr.Consumers, verify.ConsumerResult{Name: next(), Requires: []verify.Kind{verify.Kind(next())}, Why: []string{next()}})
		cr.Warnings = append(cr.Warnings, verify.Warning{Seq: cr.Seq, Msg: next()})
		for j, s := range []verify.Status{verify.Dropped, verify.Weak, verify.Flipped, verify.Retained} {
			it := &verify.Item{ID: next(), Kind: verify.Kinds[j%len(verify.Kinds)], Key: next(), Text: next(), Turn: 1,
				Event: j * 3, Origin: next(), ClosedBy: next()}
			ir := verify.ItemResult{Item: it, Status: s, Why: next(), SelfReport: verify.Overclaim}
			if s != verify.Dropped && len(c.Summary) > 10 {
				ir.Evidence = &verify.Evidence{Span: verify.Span{Start: 3, End: len(c.Summary) - 2}, Text: next(), Section: next()}
			}
			cr.Items = append(cr.Items, ir)
		}
		cr.Sections = append(cr.Sections, verify.Section{Span: verify.Span{Start: 0, End: len(c.Summary)}, Heading: next(), Polarity: verify.Pending})
		res.Findings = append(res.Findings, verify.RunFinding{Kind: verify.FalseCompletion, Turn: 5, Event: 4, Item: next(),
			ItemID: cr.Items[0].ID, LostAt: cr.Seq, OriginTurn: 1, Text: next(), Why: next()})
		res.Lineage = append(res.Lineage, &verify.Lineage{Item: cr.Items[0].Item, Steps: []verify.LineageStep{{Seq: cr.Seq, Status: verify.Dropped}}, FirstLoss: cr.Seq})
		_ = ci
	}
	return res
}

var ourSGR = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// checkFrame fails when a frame holds anything but our own SGR, printable
// text and newlines, or when a payload shows as hidden text.
func checkFrame(t *testing.T, where, frame string) {
	t.Helper()
	plain := ourSGR.ReplaceAllString(frame, "")
	if !utf8.ValidString(plain) {
		t.Fatalf("%s: frame is not valid UTF-8", where)
	}
	for i, r := range plain {
		bad := false
		switch {
		case r == '\n':
		case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
			bad = true
		case r == 0x200d: // kept only inside emoji sequences; there are none here
			bad = true
		case unicode.Is(unicode.Cf, r), r >= 0xe0000 && r <= 0xe0fff:
			bad = true
		}
		if bad {
			lo := max(0, i-40)
			t.Fatalf("%s: control or hidden rune %U reached the frame near %q", where, r, plain[lo:min(len(plain), i+40)])
		}
	}
}

func TestHostileTextNeverReachesTheTerminal(t *testing.T) {
	res := hostileResult(t)
	for _, size := range [][2]int{{160, 45}, {80, 24}} {
		clip := t.TempDir()
		m := New(Options{Title: hostile(5) + ".jsonl", Result: res, ClipDir: clip})
		m.statusTTL = time.Millisecond
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		frames := 0
		check := func(what string) {
			v := m.View()
			checkFrame(t, what, v.Content)
			checkFrame(t, what+" (title)", v.WindowTitle)
			frames++
		}
		check("start")
		for _, keys := range [][]string{
			{"tab"}, {"tab"}, {"tab"}, {"j"}, {"j"}, {"G"}, {"]"}, {"]"}, {"["},
			{"1", "G"}, {"g", "ctrl+d"}, {"2", "G"}, {"3"},
			{"f"}, {"j"}, {"enter"}, {"esc"},
			{"l"}, {"j"}, {"esc"},
			{"d"}, {"G"}, {"esc"},
			{"?"}, {"G"}, {"esc"},
			{"/"}, {"h"}, {"enter"}, {"n"}, {"esc"},
		} {
			press(m, keys...)
			check(strings.Join(keys, " "))
		}
		// The clipboard gets sanitized text too.
		copied := 0
		for _, focus := range []string{"1", "2", "3"} {
			press(m, focus)
			_, cmd := m.Update(keyMsg("y"))
			for _, msg := range collect(cmd) {
				if s := clipboardText(msg); s != "" {
					checkFrame(t, "clipboard", strings.ReplaceAll(s, "\t", " "))
					copied++
				}
			}
		}
		if copied == 0 {
			t.Fatal("y copied nothing")
		}
		// So does the file y saves beside it.
		saved, err := os.ReadFile(filepath.Join(clip, "clipboard.txt"))
		if err != nil {
			t.Fatal(err)
		}
		checkFrame(t, "saved copy", strings.ReplaceAll(string(saved), "\t", " "))
	}

	// The screens before the result.
	m := New(Options{Title: hostile(6), Sessions: []Session{{Name: hostile(7), Detail: hostile(8)}, {Name: hostile(9), Detail: hostile(10)}}})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	checkFrame(t, "picker", m.View().Content)
	m.st, m.err = stateError, errors.New(hostile(11))
	checkFrame(t, "error", m.View().Content)
	m.st, m.progress = stateLoading, Progress{Phase: hostile(12)}
	checkFrame(t, "loading", m.View().Content)
}

// collect runs cmd and returns the messages it produces at once.
func collect(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	select {
	case msg := <-ch:
		if b, ok := msg.(tea.BatchMsg); ok {
			var out []tea.Msg
			for _, c := range b {
				out = append(out, collect(c)...)
			}
			return out
		}
		return []tea.Msg{msg}
	case <-time.After(100 * time.Millisecond):
		return nil
	}
}

// clipboardText is the text of bubbletea's (unexported) set-clipboard
// message, or "".
func clipboardText(msg tea.Msg) string {
	v := reflect.ValueOf(msg)
	if v.Kind() == reflect.String && v.Type().Name() == "setClipboardMsg" {
		return v.String()
	}
	return ""
}

// safeBuffer is a bytes.Buffer the renderer and the test can share.
type safeBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *safeBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *safeBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestHostileThroughTheRenderer runs the real program and scans the bytes
// it writes: the only sequences allowed are the renderer's own, and no
// payload may ride inside any of them.
func TestHostileThroughTheRenderer(t *testing.T) {
	res := hostileResult(t)
	var out safeBuffer
	p := tea.NewProgram(New(Options{Title: hostile(13), Result: res}),
		tea.WithInput(strings.NewReader("")), tea.WithOutput(&out),
		tea.WithWindowSize(120, 40), tea.WithEnvironment([]string{"TERM=xterm-256color"}), tea.WithoutSignals())
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	for _, k := range []string{"tab", "G", "tab", "G", "f", "enter", "d", "esc", "?"} {
		time.Sleep(30 * time.Millisecond)
		p.Send(keyMsg(k))
	}
	time.Sleep(100 * time.Millisecond)
	p.Quit()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		p.Kill()
		t.Fatal("program did not quit")
	}
	data := out.String()
	if !strings.Contains(data, "Preservation set") {
		t.Fatalf("renderer output has no frame: %q", data[:min(len(data), 400)])
	}
	var state byte
	parser := ansi.NewParser()
	for s := data; len(s) > 0; {
		seq, width, n, newState := ansi.DecodeSequence(s, state, parser)
		if n == 0 {
			break
		}
		state = newState
		s = s[n:]
		if width > 0 || len(seq) == 0 {
			if r, _ := utf8.DecodeRuneInString(seq); unicode.Is(unicode.Cf, r) && r != 0x200d {
				t.Fatalf("hidden rune %U written", r)
			}
			continue
		}
		if title, ok := strings.CutPrefix(seq, "\x1b]2;loupe — "); ok {
			// Our window title: the file name, sanitized, inert.
			checkFrame(t, "window title", strings.TrimSuffix(strings.TrimSuffix(title, "\a"), "\x1b\\"))
			continue
		}
		if strings.Contains(seq, "PWNED") || strings.Contains(seq, "UFdORUQ") {
			t.Fatalf("a payload rode out inside a sequence: %q", seq)
		}
		switch {
		case ansi.HasOscPrefix(seq):
			if !strings.HasPrefix(seq, "\x1b]11;") && seq != "\x1b]2;\a" { // the background query; the title reset
				t.Fatalf("unexpected OSC %q", seq)
			}
		case ansi.HasApcPrefix(seq), ansi.HasPmPrefix(seq), ansi.HasSosPrefix(seq):
			t.Fatalf("unexpected APC/PM/SOS %q", seq)
		case len(seq) == 1 && (seq[0] == 0x07 || seq[0] == 0x08):
			t.Fatalf("BEL or BS written")
		}
	}
}
