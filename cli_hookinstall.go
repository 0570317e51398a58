package main

import (
	"fmt"
	"github.com/loupe-dev/loupe/verify"
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
	about := "Shows the change to the runtime's settings that runs loupe's hooks there; --write makes it, keeping\na backup in loupe's state directory. Other settings and hooks are left as they are."
	if uninstall {
		name = "uninstall"
		about = "Shows the change that removes loupe's hooks (only them) from the runtime's settings; --write makes it.\nRight after an install, the file is given back byte for byte."
	}
	fset := newFlagSet(e, "hook "+name, "loupe hook "+name+" [flags] RUNTIME", about+"\nRuntimes: "+strings.Join(hook.Runtimes, ", ")+".")
	project := fset.String("project", "", "the project directory whose settings to edit (default: the current directory)")
	user := fset.Bool("user", false, "edit the user's settings instead of a project's")
	write := fset.Bool("write", false, "make the change (without it, only show it)")
	force := fset.Bool("force", false, "edit the settings file even when it is read-only (it stays read-only)")
	var gate *bool
	var decide *string
	command := fset.String("command", "", "how the runtime starts loupe (default: loupe when it is on PATH, else this executable's path)")
	if !uninstall {
		gate = fset.Bool("gate", false, "install loupe as a hard gate: stop the agent after a violating compaction (Codex, opencode, pi)")
		decide = fset.String("decide", "stated", "write `BASIS` into the hook commands (loupe hook --decide): recorded puts back only what the runtime recorded")
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
	opt := hook.InstallOptions{Runtime: runtime, Command: *command, Force: *force}
	if gate != nil {
		opt.Gate = *gate
	}
	if decide != nil {
		if _, err := verify.ParseBasis(*decide); err != nil {
			return exitBadInput, usagef("--decide: %v", err)
		}
		opt.Decide = *decide
	}
	if opt.Command == "" {
		opt.Command = selfCommand()
	}
	if !uninstall && inBuildCache(opt.Command) {
		fmt.Fprintf(e.stderr, "loupe: warning: %s is inside Go's build cache (go run), which deletes it: the hooks would stop running. Install loupe first (go install, in loupe's source tree) and run that, or pass --command PATH.\n", opt.Command)
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
		fmt.Fprintf(e.stdout, "\nThis is the change to %s. Run again with --write to make it (a copy of the file as it is now is kept in %s).\n", change.Path, backupDir(store))
	} else {
		backup, err := store.Apply(change, !uninstall, time.Now())
		if err != nil {
			return exitBadInput, err
		}
		verb := "added loupe's hooks to"
		if uninstall {
			verb = "removed loupe's hooks from"
		}
		fmt.Fprintf(e.stdout, "%s %s", verb, change.ShownPath())
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

// backupDir is where Apply keeps backups, for the message.
func backupDir(s *hook.Store) string {
	if s.Dir == "" {
		return "loupe's state directory"
	}
	return filepath.Join(s.Dir, "backups")
}

// inBuildCache reports whether the program at path is one Go's build cache
// holds: go run builds into a temporary go-build directory (and go tool
// into GOCACHE), both removed later.
func inBuildCache(path string) bool {
	if !filepath.IsAbs(path) {
		return false
	}
	caches := []string{os.Getenv("GOCACHE")}
	if d, err := os.UserCacheDir(); err == nil {
		caches = append(caches, filepath.Join(d, "go-build"))
	}
	for _, c := range caches {
		if c != "" && filepath.IsAbs(c) {
			if rel, err := filepath.Rel(c, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return true
			}
		}
	}
	for _, name := range strings.Split(filepath.ToSlash(filepath.Dir(path)), "/") {
		if digits, ok := strings.CutPrefix(name, "go-build"); ok && strings.Trim(digits, "0123456789") == "" {
			return true
		}
	}
	return false
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
