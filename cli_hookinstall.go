package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/loupe-dev/loupe/hook"
)

// hookInstallCmd shows, and with --write makes, the settings change that
// runs loupe's hooks in a runtime (or, with uninstall, removes them).
func hookInstallCmd(e *env, args []string, uninstall bool) (int, error) {
	name := "install"
	about := "Shows the change to the runtime's settings that runs loupe's hooks there; --write makes it, keeping\na backup beside the file. Other settings and hooks are left as they are."
	if uninstall {
		name = "uninstall"
		about = "Shows the change that removes loupe's hooks (only them) from the runtime's settings; --write makes it.\nRight after an install, the file is given back byte for byte."
	}
	fset := newFlagSet(e, "hook "+name, "loupe hook "+name+" [flags] RUNTIME", about+"\nRuntimes: "+strings.Join(hook.Runtimes, ", ")+".")
	project := fset.String("project", "", "the project directory whose settings to edit (default: the current directory)")
	user := fset.Bool("user", false, "edit the user's settings instead of a project's")
	write := fset.Bool("write", false, "make the change (without it, only show it)")
	var gate *bool
	command := fset.String("command", "", "how the runtime starts loupe (default: loupe when it is on PATH, else this executable's path)")
	if !uninstall {
		gate = fset.Bool("gate", false, "install loupe as a hard gate: stop the agent after a violating compaction (Codex, opencode, pi)")
	}
	rest, err := parseArgs(fset, args)
	if err != nil {
		return flagExit(err)
	}
	if len(rest) != 1 {
		return exitBadInput, usagef("hook %s takes one RUNTIME (%s), got %d", name, strings.Join(hook.Runtimes, ", "), len(rest))
	}
	runtime := hook.RuntimeName(rest[0])
	if runtime == "" {
		return exitBadInput, usagef("unknown runtime %q (%s)", rest[0], strings.Join(hook.Runtimes, ", "))
	}
	if *user && *project != "" {
		return exitBadInput, usagef("--user and --project exclude each other")
	}
	opt := hook.InstallOptions{Runtime: runtime, Command: *command}
	if gate != nil {
		opt.Gate = *gate
	}
	if opt.Command == "" {
		opt.Command = selfCommand()
	}
	if *user {
		if opt.Home, err = os.UserHomeDir(); err != nil {
			return exitBadInput, err
		}
	} else if opt.Project, err = filepath.Abs(firstNonEmpty(*project, ".")); err != nil {
		return exitBadInput, err
	}
	return applyInstall(e, opt, uninstall, *write)
}

func applyInstall(e *env, opt hook.InstallOptions, uninstall, write bool) (int, error) {
	change, err := hook.Install(opt)
	store := &hook.Store{}
	if dir, derr := hook.StateDir(); derr == nil {
		store.Dir = dir
	}
	if uninstall {
		change, err = hook.Uninstall(opt)
		if err == nil {
			store.Restore(change)
		}
	}
	if err != nil {
		return exitBadInput, err
	}
	if change.Empty() {
		if uninstall {
			fmt.Fprintf(e.stdout, "no loupe hooks in %s: nothing to remove\n", change.Path)
		} else {
			fmt.Fprintf(e.stdout, "loupe's hooks are already in %s\n", change.Path)
		}
		return exitOK, nil
	}
	if !write {
		fmt.Fprint(e.stdout, change.Diff())
		fmt.Fprintf(e.stdout, "\nThis is the change to %s. Run again with --write to make it (the file as it is now is kept as %s.loupe-backup).\n", change.Path, change.Path)
	} else {
		backup, err := store.Apply(change, !uninstall, time.Now())
		if err != nil {
			return exitBadInput, err
		}
		verb := "added loupe's hooks to"
		if uninstall {
			verb = "removed loupe's hooks from"
		}
		fmt.Fprintf(e.stdout, "%s %s", verb, change.Path)
		if backup != "" {
			fmt.Fprintf(e.stdout, " (the previous file is %s)", backup)
		}
		fmt.Fprintln(e.stdout)
	}
	if !uninstall {
		for _, n := range change.Notes {
			fmt.Fprintln(e.stdout, "note: "+n)
		}
	}
	return exitOK, nil
}

// selfCommand is how a runtime should start this loupe: "loupe" when that is
// what PATH finds, else this executable's absolute path.
func selfCommand() string {
	exe, err := os.Executable()
	if err != nil {
		return "loupe"
	}
	if p, err := exec.LookPath("loupe"); err == nil {
		a, aerr := os.Stat(p)
		b, berr := os.Stat(exe)
		if aerr == nil && berr == nil && os.SameFile(a, b) {
			return "loupe"
		}
	}
	if strings.HasPrefix(filepath.Base(exe), "loupe") {
		return exe
	}
	return "loupe"
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
