package verify

// The open errors, indexed by what can resolve them. A successful call used
// to be compared with every open error, and long runs keep hundreds of
// them open (a failure nobody re-runs stays the last word on its command):
// the sweep grew with successes × open errors. Each failure is filed under
// the keys a resolving call must share with it (failure.resolvedBy's
// cases), a success looks up its own keys, and resolvedBy decides on the
// few candidates, in the order the errors opened. The index only narrows:
// a key is filed wherever resolvedBy could say yes, so the result is the
// same as asking every open error.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/loupe-dev/loupe/verify/lang"
)

// failureIndex files open failures under the keys of the calls that can
// resolve them. Lists keep closed failures until a lookup meets them.
type failureIndex struct {
	seq int // creation order of the failures
	// Failed shell commands (resolvedBy's first case), by what a
	// resolving command must share with the failed one:
	//   anyRun: the program alone (a usage error, a git step that a
	//     commit, continue or reset ends);
	//   byPos: program and first positional ("go" "test"), for the
	//     failures that any run with those resolves (no second
	//     positional, or a missing target), and byPosLast with the last
	//     positional too, which a narrower run must name (every one after
	//     the first, for the same or a covering run; the last is the most
	//     specific: "-run=TestX" of "go test ./pkg -run TestX");
	//   bySub: program and subcommand, then the last segment of the
	//     first test or file the failure names ("re-ran what failed");
	//   missing: the program is not installed (any other command);
	//   wrapped: by the failed command's first argument, a program the
	//     failed one wraps ("rtk bun run test": "bun").
	anyRun    map[string][]*failure
	wrapped   map[string][]*failure
	byPos     map[string][]*failure
	byPosLast map[string]map[string][]*failure
	bySub     map[string]map[string][]*failure
	missing   []*failure
	// Failed calls that were not shell commands: by command verb (a skill
	// done by hand), by the last segment of the edited file, by tool.
	byVerb map[string][]*failure
	byFile map[string][]*failure
	byTool map[string][]*failure
}

func (x *failureIndex) init() {
	x.anyRun, x.byPos, x.byPosLast, x.bySub = map[string][]*failure{}, map[string][]*failure{}, map[string]map[string][]*failure{}, map[string]map[string][]*failure{}
	x.byVerb, x.byFile, x.byTool = map[string][]*failure{}, map[string][]*failure{}, map[string][]*failure{}
	x.wrapped = map[string][]*failure{}
}

// posKey is a command's program and first positional (or none).
func posKey(program string, pos []string) string {
	if len(pos) == 0 {
		return program + "\x00\x01"
	}
	return program + "\x00" + argKey(pos[0])
}

// argKey is what two arguments that sameArg joins share: the argument, or
// for a path its last segment.
func argKey(a string) string {
	if strings.Contains(a, "/") {
		return "\x02" + lastSegment(a)
	}
	return lang.ScriptTask(a)
}

// lastKey is the key of a failure's last positional in byPosLast: argKey,
// but for a path of two segments or more its last two ("shard3/..." of
// "./checkout/shard3/..."): a suite's packages often share their last
// segment ("...", "main.go"), and each success would otherwise look at
// every failure of the suite.
func lastKey(a string) string {
	if !strings.Contains(a, "/") {
		return lang.ScriptTask(a)
	}
	segs := lang.PathSegments(a)
	if n := len(segs); n >= 2 {
		return "\x02" + segs[n-2] + "/" + segs[n-1]
	}
	return "\x02" + segs[0]
}

// takeLast takes the failures of by whose last positional a successful
// run's positional p may name (sameArg): the same argument, or a path
// that is a suffix of p's segments or has them as its suffix.
func takeLast(by map[string][]*failure, p string, take func(map[string][]*failure, string)) {
	if !strings.Contains(p, "/") {
		take(by, lang.ScriptTask(p)) // filed as lastKey files it
		return
	}
	segs := lang.PathSegments(p)
	last := segs[len(segs)-1]
	take(by, "\x02"+last) // a one-segment failure path
	if n := len(segs); n >= 2 {
		take(by, "\x02"+segs[n-2]+"/"+last)
		return
	}
	// p has one segment: any failure path ending with it.
	for k := range by {
		if strings.HasSuffix(k, "/"+last) && strings.HasPrefix(k, "\x02") {
			take(by, k)
		}
	}
}

func subKey(c lang.Command) string { return c.Program + "\x00" + c.Sub() }

// lastSegment is the last path segment, which two paths that samePath
// joins always share.
func lastSegment(p string) string {
	segs := lang.PathSegments(p)
	return segs[len(segs)-1]
}

// gitEnded are the git steps a later commit, continue, abort or reset (or,
// for push, a later push) ends: see gitResolves.
var gitEnded = lang.WordSet("merge", "rebase", "cherry-pick", "pull", "revert", "am", "stash", "push")

// add files a new open failure.
func (x *failureIndex) add(f *failure) {
	x.seq++
	f.seq = x.seq
	put := func(m map[string][]*failure, k string) { m[k] = append(m[k], f) }
	put2 := func(m map[string]map[string][]*failure, k1, k2 string) {
		if m[k1] == nil {
			m[k1] = map[string][]*failure{}
		}
		m[k1][k2] = append(m[k1][k2], f)
	}
	if f.command != "" {
		prog := f.key.Program
		pos := f.key.Positionals()
		switch {
		case f.usage || prog == "git" && gitEnded[f.key.Sub()]:
			put(x.anyRun, prog)
		case len(pos) < 2 || f.notFound:
			put(x.byPos, posKey(prog, pos))
		default:
			put2(x.byPosLast, posKey(prog, pos), lastKey(pos[len(pos)-1]))
		}
		if len(f.subjs) > 0 {
			put2(x.bySub, subKey(f.key), f.subjLast[0])
		}
		if f.missingProgram {
			x.missing = append(x.missing, f)
		}
		if args := lang.PlainArgs(f.key.Args); len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			put(x.wrapped, args[0])
		}
		return
	}
	for _, v := range f.verbs {
		put(x.byVerb, v)
	}
	if f.category == toolEdit && f.path != "" {
		put(x.byFile, lastSegment(f.path))
	}
	if f.tool != "" {
		put(x.byTool, f.tool)
	}
}

// candidates returns the open failures a successful call could resolve, in
// the order they opened: every failure for which resolvedBy(ok) can be
// non-empty is among them.
func (x *failureIndex) candidates(ok *callInfo) []*failure {
	var out []*failure
	take := func(m map[string][]*failure, k string) {
		if fs := m[k]; len(fs) > 0 {
			if fs = openFailures(fs, &out); len(fs) == 0 {
				delete(m, k)
			} else {
				m[k] = fs
			}
		}
	}
	if ok.command != "" {
		for _, c := range ok.cmds {
			x.commandCandidates(c, ok.command, take)
		}
		if ok.category == toolExec && len(x.missing) > 0 {
			x.missing = openFailures(x.missing, &out)
		}
		if len(x.byVerb) > 0 {
			terms := ok.termSet()
			for v := range x.byVerb {
				if terms[v] {
					take(x.byVerb, v)
				}
			}
		}
	} else {
		if ok.category == toolEdit {
			take(x.byFile, lastSegment(ok.path))
		}
		take(x.byTool, ok.name)
	}
	if len(out) > 1 {
		slices.SortFunc(out, func(a, b *failure) int { return a.seq - b.seq })
		out = slices.Compact(out)
	}
	return out
}

// commandCandidates looks up the failed shell commands one command c of a
// successful line could resolve (commandResolves, and a re-run of what
// failed).
func (x *failureIndex) commandCandidates(c lang.Command, line string, take func(map[string][]*failure, string)) {
	take(x.anyRun, c.Program)
	take(x.wrapped, c.Program)
	pos := c.Positionals()
	k := posKey(c.Program, pos)
	take(x.byPos, k)
	if by := x.byPosLast[k]; by != nil {
		// A run with no narrowing filter over the whole suite or a
		// wildcard covers every target; otherwise it must name the
		// failure's last positional (coversTargets, or the same
		// positionals).
		if len(pos) > 0 && wideRun(c.Args, pos) {
			for p1 := range by {
				take(by, p1)
			}
		} else if len(pos) > 1 {
			for _, p := range pos[1:] {
				takeLast(by, p, take)
			}
		}
		if len(by) == 0 {
			delete(x.byPosLast, k)
		}
	}
	if by := x.bySub[subKey(c)]; by != nil {
		// subjectsIn: the line names the last segment of every subject,
		// the first one among them.
		for last := range by {
			if strings.Contains(line, last) {
				take(by, last)
			}
		}
		if len(by) == 0 {
			delete(x.bySub, subKey(c))
		}
	}
}

// wideRun reports whether a command's positionals cover every target of
// its subcommand (see coversTargets): no narrowing filter, and no target
// or a wildcard.
func wideRun(args, pos []string) bool {
	for _, f := range args {
		switch f {
		case "-run", "-k", "--grep", "-t", "--testNamePattern", "-g", "--filter", "-m", "--only":
			return false
		}
	}
	if len(pos) == 1 {
		return true
	}
	for _, x := range pos[1:] {
		if x == "./..." || x == "..." || x == "." || x == "all" || x == "--all" {
			return true
		}
	}
	return false
}

// openFailures appends the open failures of fs to out, and returns fs
// without the closed ones (a failure never reopens).
func openFailures(fs []*failure, out *[]*failure) []*failure {
	live := fs[:0]
	for _, f := range fs {
		if f.item.Open {
			live = append(live, f)
			*out = append(*out, f)
		}
	}
	clear(fs[len(live):])
	return live
}

// indexCheck, when a test sets it, is told of every lookup of an index that
// missed an item the exhaustive scan it replaces would have found.
var indexCheck func(what string)

// checkCandidates compares the candidates with every open failure that a
// successful call resolves.
func (e *errorTracker) checkCandidates(cands []*failure, ok *callInfo) {
	in := map[*failure]bool{}
	for _, f := range cands {
		in[f] = true
	}
	for f := range openOf[*failure](e.l) {
		if f.item.Open && !in[f] && f.resolvedBy(ok) != "" {
			indexCheck(fmt.Sprintf("failure index: %s (%s) is resolved by %q but not a candidate", f.item.ID, f.command, ok.command))
		}
	}
}
