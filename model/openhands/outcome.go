package openhands

import (
	"regexp"
	"strconv"

	"github.com/valyala/fastjson"

	"github.com/loupe-dev/loupe/model/formats/kit"
)

// One rule decides whether an observation reports a failed call, for V0 and
// V1 alike, so that the same run gives the same events in both formats. The
// formats keep the evidence in different places (V0: the "error"
// observation, success:false, extras.metadata.exit_code; V1: is_error,
// exit_code, metadata.exit_code), and a V1 observation may record no exit
// code at all. In order:
//  1. the format flags an error: failed;
//  2. an exit code is recorded: failed when it is not zero (-1 is
//     OpenHands' "still running after the soft timeout", not a code);
//  3. the text reports an exit code ("executed with exit code 1",
//     "[Command finished with exit code 1]", "Exit code: 1"): the same;
//  4. otherwise, for a command's output (a file's contents can hold any
//     line), its own failure lines decide (a test runner's FAIL, a
//     traceback, a compiler's error:).

var (
	textExitRE = regexp.MustCompile(`(?i)(?:executed|finished|completed) with exit code (-?\d+)`)
	failLineRE = regexp.MustCompile(`(?m)^(?:--- FAIL: |FAIL\s|FAILED |ERROR: |Traceback \(most recent call last\):|npm ERR! |error(?:\[E\d+\])?: |make(?:\[\d+\])?: \*\*\* |=+ .*\b\d+ failed\b)`)
)

// commandObservations are the observations of running a command: V0
// observation types and V1 observation kinds.
var commandObservations = map[string]bool{
	"run": true, "run_ipython": true,
	"TerminalObservation": true, "ExecuteBashObservation": true, "CmdOutputObservation": true, "IPythonRunCellObservation": true,
}

// exitCode returns the first exit code recorded at one of paths of v.
func exitCode(v *fastjson.Value, paths ...[]string) (int, bool) {
	for _, p := range paths {
		x := v.Get(p...)
		if x == nil || x.Type() != fastjson.TypeNumber {
			continue
		}
		if n, err := x.Int(); err == nil && n != -1 {
			return n, true
		}
	}
	return 0, false
}

// failed applies the rule to an observation: flagged by its format, its
// recorded exit code (when ok), whether it is a command's output, and its
// texts (the output, and V0's message).
func failed(flagged bool, code int, ok, command bool, texts ...string) bool {
	switch {
	case flagged:
		return true
	case ok:
		return code != 0
	}
	for _, t := range texts {
		if m := textExitRE.FindStringSubmatch(t); m != nil {
			n, _ := strconv.Atoi(m[1])
			return n != 0 && n != -1
		}
		if n, ok := kit.ExitCode(t); ok {
			return n != 0
		}
	}
	if !command {
		return false
	}
	for _, t := range texts {
		head := t
		if len(head) > 64<<10 {
			head = head[:64<<10]
		}
		if failLineRE.MatchString(head) {
			return true
		}
	}
	return false
}
