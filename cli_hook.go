package main

import (
	"fmt"
	"github.com/loupe-dev/loupe/verify"
	"strings"
	"time"

	"github.com/loupe-dev/loupe/hook"
	"github.com/loupe-dev/loupe/ui"
)

// hookCmd runs inside a runtime's hooks (loupe hook RUNTIME EVENT), or
// installs and removes them (loupe hook install|uninstall RUNTIME).
func hookCmd(e *env, args []string) (int, error) {
	if len(args) > 0 {
		switch args[0] {
		case "install":
			return forCommand("hook install")(hookInstallCmd(e, args[1:], false))
		case "uninstall":
			return forCommand("hook uninstall")(hookInstallCmd(e, args[1:], true))
		}
	}
	fset := newFlagSet(e, "hook", "loupe hook [flags] RUNTIME EVENT\n       loupe hook install|uninstall [flags] RUNTIME",
		"Runs inside an agent runtime's compaction hooks: reads the hook's JSON on standard input, snapshots the\n"+
			"transcript before a compaction, verifies the summary the runtime installed, and puts back what it lost,\n"+
			"once, in the runtime's own output contract. It fails open: on any error it exits 0 and prints nothing,\n"+
			"and the reason goes to loupe's log ($XDG_STATE_HOME/loupe/hook.log).\n"+
			"Runtimes: "+strings.Join(hook.Runtimes, ", ")+". `loupe hook install RUNTIME` writes the hooks.")
	gate := fset.Bool("gate", false, "stop the agent after a violating compaction where the runtime allows it (Codex PostCompact, opencode auto-continue)")
	maxChars := fset.Int("max-chars", 0, "cap the block put back (default 10000, Claude Code's cap)")
	decide := fset.String("decide", "stated", "the weakest `BASIS` whose lost items make a compaction violate and are put back: recorded (only what the runtime recorded), stated (default) or inferred")
	deadline := fset.Duration("deadline", 0, "give up after this long, reading standard input included, with a line in the log (default: 15s before a compaction, 4-8s after)")
	pos, err := parseArgs(fset, args)
	if err != nil {
		return flagExit(err)
	}
	// The marker `loupe hook install` ends the command with is a shell
	// comment; a runtime that runs hooks through cmd.exe passes it on.
	if len(pos) == 4 && pos[2] == "#" && pos[3] == "loupe-managed" {
		pos = pos[:2]
	}
	if len(pos) != 2 {
		return exitBadInput, usagef("hook takes RUNTIME and EVENT, got %d argument(s)", len(pos))
	}
	least, err := verify.ParseBasis(*decide)
	if err != nil {
		return exitBadInput, usagef("--decide: %v", err)
	}
	store := &hook.Store{}
	if dir, err := hook.StateDir(); err == nil {
		store.Dir = dir
	}
	runtime := hook.RuntimeName(pos[0])
	if runtime == "" {
		// A mistyped settings entry must not break the agent: log it, exit 0.
		store.Logf(time.Now(), "unknown runtime %q (loupe hook knows %s)", pos[0], strings.Join(hook.Runtimes, ", "))
		fmt.Fprintf(e.stderr, "loupe: unknown runtime %q\n", pos[0])
		return exitOK, nil
	}
	// Standard input is read by Run, inside the deadline and up to a cap:
	// a runtime that never closes it must not hang the agent.
	out := hook.Run(hook.Request{Runtime: runtime, Event: pos[1], Stdin: e.stdin, Gate: *gate,
		MaxChars: *maxChars, Decide: least, Deadline: *deadline, Store: store})
	if len(out) > 0 {
		e.stdout.Write(out)
	}
	return exitOK, nil
}

// reinjections reads what the live gate did for the session of file, for
// the inspector's timeline (nil when there is no file).
func reinjections(file string) ui.ReinjectionsFunc {
	if file == "" {
		return nil
	}
	return func() ([]ui.Reinjection, error) {
		dir, err := hook.StateDir()
		if err != nil {
			return nil, nil
		}
		recs, err := (&hook.Store{Dir: dir}).Records(file)
		if err != nil {
			return nil, err
		}
		out := make([]ui.Reinjection, 0, len(recs))
		for _, r := range recs {
			items := len(r.Lines)
			if items == 0 {
				items = r.Owed
			}
			out = append(out, ui.Reinjection{Seq: r.Seq, Items: items, State: r.State, Via: r.InjectedVia, At: r.InjectedAt})
		}
		return out, nil
	}
}
