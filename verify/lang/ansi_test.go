package lang

import "testing"

func TestStripANSI(t *testing.T) {
	for in, want := range map[string]string{
		"Error: \x1b[2mexpect(\x1b[22m\x1b[31mreceived\x1b[39m\x1b[2m).toBe(\x1b[22m": "Error: expect(received).toBe(",
		"\x1b]8;;https://x.test\x07link\x1b]8;;\x07 done":                             "link done",
		"plain":                  "plain",
		"cut at the end \x1b[31": "cut at the end ",
	} {
		if got := StripANSI(in); got != want {
			t.Errorf("StripANSI(%q) = %q, want %q", in, got, want)
		}
	}
}
