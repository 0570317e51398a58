package gen

import (
	"fmt"
	"strings"
	"time"
)

// Fillers are the small units of routine work between the steps of a story:
// re-running the suite, reading code around the change, checking history.
// None of them opens an item.

// fillTo plays fillers until the run reaches turn, stopping at most one turn
// short of it.
func (e *emitter) fillTo(turn int) {
	if e.turn > turn {
		panic(fmt.Sprintf("%s: the story is at turn %d, past its mark %d", e.name, e.turn, turn))
	}
	for e.turn < turn-9 {
		e.filler()
	}
	for e.turn < turn-1 {
		e.quick()
	}
}

// filler plays one unit of routine work (2 to 8 turns).
func (e *emitter) filler() {
	switch n := e.rng.IntN(40); {
	case n < 8:
		e.browse()
	case n < 12:
		e.suiteRun()
	case n < 17:
		e.grepAround()
	case n < 22:
		e.pkgTests()
	case n < 27:
		e.singleTest()
	case n < 29:
		e.race()
	case n < 31:
		e.lint()
	case n < 33 && len(e.w.commits) > 0 && e.lastLog != len(e.w.commits):
		e.gitLog()
		e.lastLog = len(e.w.commits)
	case n < 35 && len(e.w.commits) > 0 && e.lastLog != len(e.w.commits):
		e.bash("git show --stat HEAD", e.showStat(), false, time.Second)
		e.lastLog = len(e.w.commits)
	case n < 37 && e.fresh("go build ./... && go vet ./..."):
		e.bash("go build ./... && go vet ./...", "", false, 9*time.Second)
	default:
		if mod, _ := e.w.dirty(); len(mod) > 0 && len(e.diff(mod)) < 5000 {
			e.bash("git diff", e.diff(mod), false, time.Second)
			return
		}
		e.browse()
	}
}

// quick plays a two-turn unit, to land on a planted turn.
func (e *emitter) quick() {
	switch e.rng.IntN(4) {
	case 0:
		e.grep(e.pick(e.symbols()), "internal")
	case 1:
		e.pkgTests()
	case 2:
		if !e.fresh("go build ./...") {
			e.read(e.pick(e.readable()))
			return
		}
		e.bash("go build ./...", "", false, 7*time.Second)
	default:
		e.read(e.pick(e.readable()))
	}
}

// singleTest re-runs one test function with -count=1.
func (e *emitter) singleTest() {
	var names, pkgs []string
	for _, f := range e.w.sorted() {
		if !strings.HasSuffix(f.path, "_test.go") {
			continue
		}
		for _, l := range strings.Split(f.content(), "\n") {
			if name, ok := strings.CutPrefix(l, "func Test"); ok {
				name, _, _ = strings.Cut(name, "(")
				names = append(names, "Test"+name)
				pkgs = append(pkgs, f.path[:strings.LastIndex(f.path, "/")])
			}
		}
	}
	i := e.rng.IntN(len(names))
	cmd := fmt.Sprintf("go test -count=1 ./%s/ -run '^%s$' -v", pkgs[i], names[i])
	if !e.fresh(cmd) {
		e.browse()
		return
	}
	e.bash(cmd, e.testOK(pkgs[i], names[i]), false, e.cmdTime(cmd))
}

// fresh reports whether cmd differs from the last command the agent ran;
// routine work does not run the same command twice in a row.
func (e *emitter) fresh(cmd string) bool {
	for i := len(e.calls) - 1; i >= 0; i-- {
		if e.calls[i].name == "bash" {
			return e.calls[i].target != cmd
		}
	}
	return true
}

func (e *emitter) pick(list []string) string { return list[e.rng.IntN(len(list))] }

// readable lists the files worth reading: the service's code, not the
// generated client (read on purpose elsewhere).
func (e *emitter) readable() []string {
	var out []string
	for _, f := range e.w.sorted() {
		if !f.gen && (strings.HasSuffix(f.path, ".go") || strings.HasSuffix(f.path, ".sql")) {
			out = append(out, f.path)
		}
	}
	return out
}

var browseNotes = []string{
	"Nothing in %s conflicts with the current change.",
	"%s is consistent with the rest of the package.",
	"Checked %s: error wrapping and naming match the other files.",
	"%s has no other callers to adjust.",
	"Read %s again to confirm the current state of the code.",
	"%s matches the conventions of internal/customers.",
	"No surprises in %s.",
}

// browse reads one or two files around the change and notes what it saw.
func (e *emitter) browse() {
	files := e.readable()
	n := 1 + e.rng.IntN(2)
	var read []string
	for i := 0; i < n; i++ {
		p := e.pick(files)
		e.read(p)
		read = append(read, p)
	}
	if e.rng.IntN(3) > 0 {
		e.say(fmt.Sprintf(e.pick(browseNotes), read[len(read)-1]))
	}
}

var suiteNotes = []string{
	"All packages pass.",
	"The full suite is green.",
	"Everything passes, including the store tests against the container.",
	"Green across the module.",
}

func (e *emitter) suiteRun() {
	if !e.fresh("go test ./...") {
		e.browse()
		return
	}
	e.bash("go test ./...", e.suite(), false, time.Duration(30+e.rng.IntN(60))*time.Second)
	e.action("`go test ./...` passes in every package")
	if e.rng.IntN(2) == 0 {
		e.say(e.pick(suiteNotes))
	}
}

// pkgTests runs the tests of one package that has some.
func (e *emitter) pkgTests() {
	pkgs, tests := e.w.packages()
	var with []string
	for _, p := range pkgs {
		if tests[p] {
			with = append(with, p)
		}
	}
	p := e.pick(with)
	cmd := "go test ./" + p + "/..."
	if !e.fresh(cmd) {
		e.read(e.pick(e.readable()))
		return
	}
	e.bash(cmd, e.okOutput(cmd, nil), false, e.cmdTime(cmd))
}

func (e *emitter) race() {
	if !e.fresh("go test -race ./internal/...") {
		e.browse()
		return
	}
	var b strings.Builder
	pkgs, tests := e.w.packages()
	for _, p := range pkgs {
		if strings.HasPrefix(p, "internal/") && tests[p] {
			fmt.Fprintf(&b, "ok  \t%s/%s\t%.3fs\n", Module, p, 1.5+float64(e.rng.IntN(9000))/1000)
		}
	}
	e.bash("go test -race ./internal/...", b.String(), false, 90*time.Second)
	e.say("No races reported.")
}

func (e *emitter) lint() {
	if !e.fresh("golangci-lint run ./...") {
		e.browse()
		return
	}
	e.bash("golangci-lint run ./...", "", false, 25*time.Second)
	e.say("golangci-lint reports nothing.")
}

// defaultSymbols are what the agent looks up, in the order they come to exist.
var defaultSymbols = []string{"customers.NewStore", "writeError", "writeJSON", "pgtest.New", "ErrNotFound", "sql.ErrNoRows",
	"orders.NewStore", "ListByCustomer", "Validate()", "DefaultLimit", "newOrdersHandler", "ErrConflict", "ListPage", "DecodeCursor",
	"storeTimeout", "OrdersCreated"}

// symbols returns the grep symbols that exist by now.
func (e *emitter) symbols() []string {
	var present []string
	for _, s := range e.grepSymbols {
		if _, n := e.w.grep(s, "internal", 1); n > 0 {
			present = append(present, s)
		}
	}
	return present
}

func (e *emitter) grepAround() {
	sym := e.pick(e.symbols())
	n := e.grep(sym, "internal")
	if e.rng.IntN(2) == 0 {
		e.say(fmt.Sprintf("%d matches for %s under internal/.", n, sym))
	}
}

func (e *emitter) gitLog() {
	var b strings.Builder
	for i := len(e.w.commits) - 1; i >= 0 && i >= len(e.w.commits)-8; i-- {
		fmt.Fprintf(&b, "%s %s\n", e.w.commits[i].sha, e.w.commits[i].msg)
	}
	e.bash("git log --oneline -8", b.String(), false, time.Second)
}

func (e *emitter) showStat() string {
	c := e.w.commits[len(e.w.commits)-1]
	return fmt.Sprintf("commit %s\nAuthor: demo-agent <agent@acme.dev>\nDate:   %s\n\n    %s\n\n %d files changed, %d insertions(+), %d deletions(-)\n",
		c.full, e.clock.Format("Mon Jan 2 15:04:05 2006 -0700"), c.msg, 1+e.rng.IntN(4), 5+e.rng.IntN(80), e.rng.IntN(20))
}
