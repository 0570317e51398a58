package verify

import "testing"

func TestResultQuote(t *testing.T) {
	for _, tt := range []struct{ name, text, id, want string }{
		{"a plain result quotes its first line", "\n  ok  github.com/acme/orders 0.4s\nPASS", "call_1", "ok  github.com/acme/orders 0.4s"},
		{"a task notification quotes its summary and status",
			"<task-notification>\n<task-id>b7f2</task-id>\n<tool-use-id>toolu_01X</tool-use-id>\n<status>completed</status>\n<summary>Background command \"npm test\" completed (exit code 0)</summary>\n</task-notification>",
			"b7f2", `task-notification: summary: Background command "npm test" completed (exit code 0) · status: completed (b7f2)`},
		{"a notice without summary quotes its text without tags",
			"<bash-notification>\n<shellId>bash_3</shellId>\nThe shell exited.\n</bash-notification>", "bash_3",
			"bash-notification: bash_3 The shell exited."},
		{"a bare tag and nothing else names the call", "<task-notification>\n</task-notification>", "toolu_9", "task-notification (toolu_9)"},
	} {
		if got := resultQuote(tt.text, tt.id); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}
