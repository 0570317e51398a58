package main

import (
	"io"
	"sort"
	"sync"

	"github.com/loupe-dev/loupe/model/claudecode"
	"github.com/loupe-dev/loupe/verify/report"
)

// verifyAll checks the inputs with up to jobs workers and hands each
// outcome to done on the calling goroutine: in the inputs' order when
// ordered is set, else as each is done. At most a few outcomes per worker
// wait for done (a slow file ahead of them in order holds the others
// back), so that a result line is written, and its run let go, soon after
// the file is verified.
func verifyAll(inputs []input, jobs int, ordered bool, check func(input) checked, done func(i int, c checked)) {
	type outcome struct {
		i int
		c checked
	}
	window := make(chan struct{}, 4*jobs) // outcomes not yet handed to done
	next := make(chan int)
	out := make(chan outcome, jobs)
	var wg sync.WaitGroup
	for w := 0; w < min(jobs, len(inputs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out <- outcome{i, check(inputs[i])}
			}
		}()
	}
	go func() {
		for i := range inputs {
			window <- struct{}{}
			next <- i
		}
		close(next)
		wg.Wait()
		close(out)
	}()
	waiting := map[int]checked{}
	at := 0 // the next input in order
	for o := range out {
		if !ordered {
			done(o.i, o.c)
			<-window
			continue
		}
		waiting[o.i] = o.c
		for {
			c, ok := waiting[at]
			if !ok {
				break
			}
			delete(waiting, at)
			done(at, c)
			<-window
			at++
		}
	}
}

// verifyLines is verify --format jsonl: a result line per file, written
// as each file is verified (report.JSONLine), the files the listing could
// not read first. Nothing but counts is kept of a run once its line is
// written.
func verifyLines(e *env, rep *report.Report, inputs []input, check fileCheck, jobs int, ordered bool) (int, error) {
	var werr error
	bad := len(rep.Unverified) > 0
	for _, u := range rep.Unverified {
		if werr == nil {
			werr = rep.JSONLineUnverified(e.stdout, u)
		}
	}
	violate, runs, has := false, 0, false
	fields := map[string]bool{}
	verifyAll(inputs, jobs, ordered, func(in input) checked { return check.run(e, in) }, func(i int, c checked) {
		if c.failed != nil {
			bad = true
			if werr == nil {
				werr = rep.JSONLineUnverified(e.stdout, *c.failed)
			}
			return
		}
		runs++
		if c.res.Violations() > 0 {
			violate = true
		}
		if rep.GroupBy != "" {
			for k := range report.TallyOf(c.res).Fields {
				fields[k] = true
				has = has || k == rep.GroupBy
			}
		}
		if werr == nil {
			werr = rep.JSONLine(e.stdout, c.res)
		}
	})
	if werr != nil {
		return exitBadInput, werr
	}
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, k)
	}
	sort.Strings(names)
	warnGroupBy(e, rep.GroupBy, runs, has, names)
	switch {
	case bad:
		return exitBadInput, nil
	case violate:
		return exitViolation, nil
	}
	return exitOK, nil
}

// subagentParents maps each Claude Code sub-agent's file among the inputs
// to its session's file, when that is among them too: the report puts the
// sub-agent under its session. A file given by path (its format not yet
// known) is matched by the layout alone.
func subagentParents(inputs []input) map[string]string {
	sessions := map[string]string{}
	for _, in := range inputs {
		if in.from == "claude-code" || in.from == "" {
			sessions[claudecode.SessionStem(in.path)] = in.path
		}
	}
	out := map[string]string{}
	for _, in := range inputs {
		if in.from != "claude-code" && in.from != "" {
			continue
		}
		if stem, ok := claudecode.SubagentSession(in.path); ok {
			if parent := sessions[stem]; parent != "" {
				out[in.path] = parent
			}
		}
	}
	return out
}

// lockedStderr is e with a standard error that workers can write to at
// once, a line at a time.
func (e *env) lockedStderr() *env {
	if _, ok := e.stderr.(*lockedWriter); ok {
		return e
	}
	c := *e
	c.stderr = &lockedWriter{w: e.stderr}
	return &c
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
