package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/charmbracelet/x/term"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/model/formats"
	"github.com/loupe-dev/loupe/sampledata"
	"github.com/loupe-dev/loupe/ui"
	"github.com/loupe-dev/loupe/verify"
	"github.com/loupe-dev/loupe/verify/report"
)

// inspect opens the inspector on a transcript: the built-in migration run
// when args is empty, a file, a directory (a picker when it holds several
// sessions) or "-" for standard input. When standard output is not a
// terminal the TUI never starts: the text report is printed instead, with
// the exit status of `loupe verify`.
func inspect(e *env, args []string) (int, error) {
	fset := newFlagSet(e, "loupe", "loupe [--from RUNTIME] [FILE|DIR|-]",
		"Opens the inspector on a transcript (the built-in migration run without FILE).\nWhen standard output is not a terminal, prints the text report instead.")
	from := fset.String("from", "", "read FILE as this runtime's format instead of detecting it")
	latest := fset.Bool("latest", false, "open the most recent session of the runtimes loupe knows")
	follow := fset.Bool("follow", true, "watch FILE while it is open and verify what is appended, for a live run (--follow=false reads it once)")
	var cons consumerFlags
	fset.Var(&cons, "consumer", "declare a consumer and the item kinds it requires, NAME=KIND,KIND (repeatable)")
	addLimitFlags(fset)
	files, err := parseArgs(fset, args)
	if err != nil {
		return flagExit(err)
	}
	if len(files) > 1 {
		return exitBadInput, usagef("the inspector opens one FILE, got %d", len(files))
	}
	vopt := verify.Options{Consumers: cons}

	var (
		title    string
		file     string // the file the run is read from, for $EDITOR
		load     ui.LoadFunc
		sessions []ui.Session
		// skippedBad: something in the directory could not be read (named
		// on standard error); the text report then exits 2.
		skippedBad bool
	)
	switch {
	case *latest:
		if len(files) > 0 {
			return exitBadInput, usagef("--latest opens the newest session; it takes no FILE")
		}
		path, err := formats.Latest()
		if err != nil {
			return exitBadInput, err
		}
		title, file = path, path
		load = fileLoader(path, *from, vopt)
	case len(files) == 0:
		title = sampledata.Default + " (built-in sample)"
		load = sampleLoader(sampledata.Default, title, vopt)
	case files[0] == "-":
		title = "standard input"
		load = streamLoader(e.stdin, *from, vopt)
	default:
		path := files[0]
		title = path
		st, err := formats.Stat(path)
		if err != nil {
			return exitBadInput, err
		}
		if st.IsDir() {
			if sessions, skippedBad, err = dirSessions(e, path, *from, vopt); err != nil {
				return exitBadInput, err
			}
			if len(sessions) == 1 {
				title, file, load, sessions = sessions[0].Name, sessions[0].Path, sessions[0].Load, nil
			}
		} else {
			if st.Mode().IsRegular() {
				// Not a pipe: it can be read only once, and opening one
				// to look at it blocks until something writes to it.
				file = formats.File(path) // an opencode db#session: the db
			}
			load = fileLoader(path, *from, vopt)
		}
	}

	out, isTerm := terminal(e.stdout)
	if !isTerm {
		code, err := textReport(e, title, load, sessions)
		if skippedBad && err == nil {
			code = exitBadInput
		}
		return code, err
	}
	opt := ui.Options{
		Title:        title,
		Load:         load,
		Sessions:     sessions,
		NoColor:      os.Getenv("NO_COLOR") != "",
		Pager:        ui.PagerFromEnv(os.Getenv("PAGER")),
		File:         file,
		Follow:       *follow,
		Editor:       ui.EditorFromEnv(os.Getenv("VISUAL"), os.Getenv("EDITOR")),
		Tmux:         os.Getenv("TMUX") != "",
		Reinjections: reinjections(file),
	}
	if err := ui.Run(context.Background(), opt, nil, out); err != nil {
		// The inspector's "could not open" screen, or the terminal failing.
		return exitBadInput, err
	}
	return exitOK, nil
}

// terminal returns w as a file when it is a terminal.
func terminal(w io.Writer) (*os.File, bool) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		return nil, false
	}
	return f, true
}

// textReport is the inspector's answer when standard output is not a
// terminal: the same text report as `loupe verify`, and its exit status,
// except that lines that do not parse are reported and exit 2 rather than
// refuse the file (the inspector shows them as raw events).
func textReport(e *env, title string, load ui.LoadFunc, sessions []ui.Session) (int, error) {
	loads := []ui.LoadFunc{load}
	if len(sessions) > 0 {
		loads = loads[:0]
		for _, s := range sessions {
			loads = append(loads, s.Load)
		}
	}
	var results []*verify.Result
	bad := false
	for _, l := range loads {
		res, err := l(func(ui.Progress) {})
		if err != nil {
			e.warnErr(err)
			bad = true
			continue
		}
		for _, p := range res.Transcript.Problems {
			e.warn("%s: %v", p.Severity, p)
		}
		if len(res.Transcript.Problems.Errors()) > 0 {
			bad = true
		}
		results = append(results, res)
	}
	if err := (&report.Report{Results: results}).Text(e.stdout, textOptions(e, false)); err != nil {
		return exitBadInput, err
	}
	switch {
	case bad:
		return exitBadInput, nil
	case anyViolation(results):
		return exitViolation, nil
	}
	return exitOK, nil
}

// reading adapts the reader's progress callback to the inspector's.
func reading(report func(ui.Progress)) func(read, total int64) {
	return func(read, total int64) {
		report(ui.Progress{Phase: "reading", Read: read, Total: total})
	}
}

// verified verifies a transcript once it is read, saying so first: the
// inspector shows the transcript meanwhile (Progress.Unverified), then
// each compaction's verdict as soon as the stream has it
// (Progress.Verified, issue 20), then the whole run's result.
func verified(t *model.Transcript, err error, report func(ui.Progress), opt verify.Options) (*verify.Result, error) {
	if err != nil {
		return nil, err
	}
	what := fmt.Sprintf("verifying %d compactions", len(t.Compactions))
	if len(t.Compactions) == 1 {
		what = "verifying 1 compaction"
	}
	report(ui.Progress{Phase: what, Unverified: verify.Unverified(t)})
	var copies settler
	s := verify.NewStream(t, opt, func(cr *verify.CompactionResult) {
		report(ui.Progress{Phase: what, Verified: []*verify.CompactionResult{copies.settled(cr)}})
	})
	for _, e := range t.Events {
		s.Push(e)
	}
	return s.Finish(), nil
}

func sampleLoader(name, title string, opt verify.Options) ui.LoadFunc {
	return func(report func(ui.Progress)) (*verify.Result, error) {
		r, err := sampledata.Open(name)
		if err != nil {
			return nil, err
		}
		defer r.Close()
		t, err := model.Read(r, model.ReadOptions{Name: title, Progress: reading(report)})
		return verified(t, err, report, opt)
	}
}

func streamLoader(in io.Reader, from string, opt verify.Options) ui.LoadFunc {
	return func(report func(ui.Progress)) (*verify.Result, error) {
		return streamVerified(func(each func(*model.Transcript, model.Event)) (*model.Transcript, error) {
			return formats.OpenReaderEach(in, "-", formats.Options{From: from, Read: model.ReadOptions{Progress: reading(report)}}, each)
		}, report, opt, -1)
	}
}

func fileLoader(path, from string, opt verify.Options) ui.LoadFunc {
	var opened atomic.Bool
	return func(report func(ui.Progress)) (*verify.Result, error) {
		// Only the first load shows the file's beginning first: a reload
		// of a followed file keeps the whole run on screen meanwhile.
		ahead := -1 // while reading, the verifier goes as far as what is on screen
		if opened.CompareAndSwap(false, true) {
			if p := prefixOf(path, from); p != nil {
				report(ui.Progress{Phase: "reading", Unverified: verify.Unverified(p), Partial: true})
				ahead = aheadOf(p)
			}
		}
		return streamVerified(func(each func(*model.Transcript, model.Event)) (*model.Transcript, error) {
			return formats.OpenEach(path, formats.Options{From: from, Read: model.ReadOptions{Progress: reading(report)}}, each)
		}, report, opt, ahead)
	}
}

// dirSessions lists the sessions a directory holds, newest first, for the
// picker. What could not be read is named on standard error (before the
// inspector takes the screen, so it is there when it quits); bad reports
// that there was some.
func dirSessions(e *env, dir, from string, opt verify.Options) (_ []ui.Session, bad bool, _ error) {
	infos, err := formats.Sessions(dir)
	if err != nil {
		e.warnErr(err)
		bad = true
	}
	if len(infos) == 0 {
		return nil, bad, fmt.Errorf("%s: no transcript found in this directory", dir)
	}
	out := make([]ui.Session, 0, len(infos))
	for _, s := range infos {
		name := s.Title
		if name == "" {
			name = s.Path
			if rel, err := filepath.Rel(dir, s.Path); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
				name = rel
			}
		}
		detail := []string{s.Format}
		if !s.Start.IsZero() {
			detail = append(detail, s.Start.Local().Format("2006-01-02 15:04"))
		}
		if s.Parent != "" {
			detail = append(detail, "sub-agent of "+s.Parent)
		}
		if s.ID != "" {
			detail = append(detail, s.ID)
		}
		f := from
		if f == "" {
			f = s.Format
		}
		// The counts go apart: the picker replaces the listing's (an
		// estimate for some runtimes) with the verified run's.
		project, file := sessionPlace(dir, formats.File(s.Path))
		out = append(out, ui.Session{Name: name, Detail: strings.Join(detail, " · "), Path: formats.File(s.Path),
			Project: project, File: file, Format: s.Format, ID: s.ID, Start: s.Start,
			Turns: s.Turns, Compactions: s.Compactions, Load: fileLoader(s.Path, f, opt)})
	}
	return out, bad, nil
}

// sessionPlace names where a session lies for the chooser's row: the
// folder it is in (relative to the directory listed, or that directory's
// own name when it lies at its top) and its file's name. Two sessions
// with one title are told apart by them.
func sessionPlace(dir, path string) (project, file string) {
	file = filepath.Base(path)
	parent := filepath.Dir(path)
	if rel, err := filepath.Rel(dir, parent); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		return rel, file
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	return filepath.Base(abs), file
}
