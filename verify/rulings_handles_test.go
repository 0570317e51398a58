package verify

import (
	"strings"
	"testing"

	"github.com/loupe-dev/loupe/model"
)

// DESIGN.md, "Rulings on wording", handles: a background job whose output
// check says it completed, exited or is done is closed, not open, whether
// the runtime logged the check as a job record or not.
func TestRulingJobEndedByItsOutputCheck(t *testing.T) {
	started := func() []model.Event {
		r := result(2, "c1", "Command running in background with ID: bash_7", false)
		r.Job = &model.Job{ID: "bash_7", State: model.JobRunning}
		return []model.Event{call(1, "c1", "Bash", `{"command":"npm run build","run_in_background":true}`), r}
	}
	cases := []struct {
		name  string
		check string // the output check's text
		job   bool   // the check carries a running job record
		open  bool
	}{
		{"status completed", "<status>completed</status>\n<exit_code>0</exit_code>", false, false},
		{"exited with code", "build finished\nProcess exited with code 0", true, false},
		{"status done", "Status: done", false, false},
		{"still running", "<status>running</status>\nbuilding chunk 3/9", false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := started()
			res := result(4, "c2", c.check, false)
			if c.job {
				res.Job = &model.Job{ID: "bash_7", State: model.JobRunning}
			}
			src = append(src, call(3, "c2", "BashOutput", `{"bash_id":"bash_7"}`), res)
			r := Check(src, compaction(6, 1, "Started the build in the background."), Options{})
			open := handleOwed(r, "bash_7")
			if open != c.open {
				t.Errorf("job bash_7 open = %v, want %v", open, c.open)
			}
		})
	}
}

// A background job that put a server in the background itself ("serve
// --port 3001 &; sleep 3; curl …") ends when its shell does; the server
// lives on, and a summary that says it is still running resurrects nothing
// (pending.resurrected). Redirects and "&&" detach nothing.
func TestDetaches(t *testing.T) {
	cases := map[string]bool{
		"cargo run -p arcan -- serve --port 3001 2>&1 &\nsleep 3\ncurl -s localhost:3001/health": true,
		"nohup ./bin/server --port 3001 > server.log 2>&1":                                       true,
		"python -m http.server 8000 &":                                                           true,
		"cargo build --release 2>&1 && echo done":                                                false,
		"go test ./... &> test.log":                                                              false,
		"make check 2>&1 | tail -20":                                                             false,
	}
	for cmd, want := range cases {
		if got := detaches(cmd); got != want {
			t.Errorf("detaches(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// A stop call naming a running job ends it when it is made: a compaction
// that comes before the stop's result still owes no job. A stop naming
// another job, or a call that only reads this one, ends nothing.
func TestJobStoppedByItsStopCall(t *testing.T) {
	cases := []struct {
		name, tool, input string
		open              bool
	}{
		{"TaskStop names the job", "TaskStop", `{"task_id":"bb6fcdc"}`, false},
		{"KillShell names the job", "KillShell", `{"shell_id":"bb6fcdc"}`, false},
		{"a stop of another job", "TaskStop", `{"task_id":"b77aa01"}`, true},
		{"a read of the job", "TaskOutput", `{"task_id":"bb6fcdc","block":true}`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := result(2, "c1", "Command running in background with ID: bb6fcdc", false)
			r.Job = &model.Job{ID: "bb6fcdc", State: model.JobRunning}
			src := []model.Event{call(1, "c1", "Bash", `{"command":"bin/rails test test/controllers/api","run_in_background":true}`), r,
				call(3, "c2", c.tool, c.input)}
			got := Check(src, compaction(6, 1, "The API test run hung; stopping it."), Options{})
			open := handleOwed(got, "bb6fcdc")
			if open != c.open {
				t.Errorf("job bb6fcdc open = %v, want %v", open, c.open)
			}
		})
	}
}

// A successful pkill or killall whose pattern matches the command that
// started a running job ends it; one that matches another command does not.
func TestJobKilledByPkill(t *testing.T) {
	cases := []struct {
		name, kill string
		open       bool
	}{
		{"pkill -f matching the job's ssh", `pkill -f 'ssh .*10\.0\.0\.64' || true`, false},
		{"killall of the job's program", `killall tail`, false},
		{"pkill of another host", `pkill -f 'ssh .*10\.0\.0\.99'`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := result(2, "c1", "Process running with session ID 9424", false)
			r.Job = &model.Job{ID: "9424", State: model.JobRunning}
			src := []model.Event{call(1, "c1", "exec_command", `{"cmd":"ssh -o BatchMode=yes user@10.0.0.64 tail -f /var/log/app.log"}`), r,
				call(3, "c2", "exec_command", `{"cmd":"`+strings.ReplaceAll(c.kill, `\`, `\\`)+`"}`), result(4, "c2", "", false)}
			got := Check(src, compaction(6, 1, "Probed the host; the log tail is no longer needed."), Options{})
			open := handleOwed(got, "9424")
			if open != c.open {
				t.Errorf("job 9424 open = %v, want %v", open, c.open)
			}
		})
	}
}

// handleOwed reports whether a compaction's result lists the handle key
// among what the summary had to keep.
func handleOwed(r *CompactionResult, key string) bool {
	for _, it := range r.Items {
		if it.Kind == Handle && it.Key == key {
			return true
		}
	}
	return false
}
