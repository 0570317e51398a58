package lang

import "testing"

// DESIGN.md, "Rulings on wording", error lines: the first line that states
// the failure, skipping tool headers and placeholders, command echoes,
// blank lines and generic lead-ins that only name where it happened.
func TestRulingErrorLine(t *testing.T) {
	cases := map[string]string{
		"Exit code 1\nstderr:\nmodule not found: lodash":                                   "module not found: lodash",
		"stderr:\n\n$ npm run build\nsh: vite: command not found":                          "sh: vite: command not found",
		"Exit code 2\nstdout:\n\nstderr:\npermission denied: /var/run/docker.sock":         "permission denied: /var/run/docker.sock",
		"Error in ./src/app.ts:\nType 'string' is not assignable to type 'number'.":        "Type 'string' is not assignable to type 'number'.",
		"An error occurred while running the command:\nconnection refused: localhost:5432": "connection refused: localhost:5432",
		"Command failed: make test\nmain.go:12: undefined: Foo":                            "main.go:12: undefined: Foo",
		"(no output)\nExit code 1":                                                         "Exit code 1",
		"Error in ./src/app.ts:":                                                           "Error in ./src/app.ts:",
		"Exit code 1\nF821 Undefined name `json`\n   --> src/routes.py:290:12\n    |\n290 |     except json.JSONDecodeError:\n    |            ^^^^\n":     "F821 Undefined name `json`",
		"biome.json:5:9 deserialize\n\n  × Found an unknown key `ignore`.\n\n    3 │     \"vcs\": { \"enabled\": true },\n  > 5 │         \"ignore\": [\n": "× Found an unknown key `ignore`.",
		"error[E0425]: cannot find value `x` in this scope\n --> src/main.rs:2:13\n  |\n2 |     let y = x + 1;\n":                                          "error[E0425]: cannot find value `x` in this scope",
	}
	for out, want := range cases {
		if got := FirstErrorLine(out); got != want {
			t.Errorf("FirstErrorLine(%q) = %q, want %q", out, got, want)
		}
	}
}
