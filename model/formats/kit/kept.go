package kit

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/loupe-dev/loupe/model"
)

// Kept returns what a compaction carried into the new context verbatim, as
// Compaction.Kept wants it: the refs given (in order, without repeats), then
// the id of every tool call among events whose call and results (those in
// events) all have a kept ref, so that a call is never called kept while its
// result was lost.
func Kept(events []model.Event, refs []string) []string {
	if len(refs) == 0 {
		return nil
	}
	keep := make(map[string]bool, len(refs))
	var out []string
	for _, r := range refs {
		if r != "" && !keep[r] {
			keep[r] = true
			out = append(out, r)
		}
	}
	ok := map[string]bool{}
	var order []string
	for _, e := range events {
		var id string
		switch ev := e.(type) {
		case *model.ToolCall:
			id = ev.ID
		case *model.ToolResult:
			id = ev.ID
		default:
			continue
		}
		kept := keep[e.Header().Ref]
		if prev, known := ok[id]; known {
			ok[id] = prev && kept
			continue
		}
		if _, isCall := e.(*model.ToolCall); !isCall {
			continue // a result whose call is not here says nothing
		}
		ok[id] = kept
		order = append(order, id)
	}
	for _, id := range order {
		if ok[id] && !keep[id] {
			keep[id] = true
			out = append(out, id)
		}
	}
	return out
}

var (
	exitCodeRE    = regexp.MustCompile(`(?m)^(?:Exit code|exit code|Exit Code):\s*(-?\d+)\s*$`)
	processExitRE = regexp.MustCompile(`(?m)^Process exited with code (-?\d+)\s*$`)
)

// ExitCodeScan is how much of the start of an output ExitCode reads.
const ExitCodeScan = 4096

// ExitCode finds an exit status reported in a tool's output text ("Exit code:
// 1", "Process exited with code 2"), as shells and exec tools print it. It
// reads the first ExitCodeScan bytes only.
func ExitCode(text string) (int, bool) {
	head := text
	if len(head) > ExitCodeScan {
		head = head[:ExitCodeScan]
	}
	for _, re := range []*regexp.Regexp{exitCodeRE, processExitRE} {
		if m := re.FindStringSubmatch(head); m != nil {
			n, err := strconv.Atoi(m[1])
			return n, err == nil
		}
	}
	return 0, false
}

// FirstLine returns s up to its first newline, trimmed and cut to max bytes.
func FirstLine(s string, max int) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if len(s) > max {
		n := max
		for n > 0 && s[n]&0xC0 == 0x80 {
			n--
		}
		s = s[:n] + "…"
	}
	return s
}
