package lang

import (
	"strings"
	"testing"
)

// TestFirstErrorLine: the line that says why a call failed, not the line
// of the driver that ran the failing step.
func TestFirstErrorLine(t *testing.T) {
	cases := []struct{ out, want string }{
		{"/opt/sdk/bin/ld.bfd: zephyr.elf section `text' will not fit in region `FLASH'\n" +
			"/opt/sdk/bin/ld.bfd: region `FLASH' overflowed by 2104 bytes\ncollect2: error: ld returned 1 exit status\n" +
			"ninja: build stopped: subcommand failed.", "will not fit in region `FLASH'"},
		{"src/a.c:3:5: error: unknown type name 'foo'\nmake[1]: *** [Makefile:12: a.o] Error 1\nmake: *** [all] Error 2", "unknown type name"},
		{"--- FAIL: TestCreate (0.01s)\nFAIL\nexit status 1", "TestCreate"},
	}
	for _, c := range cases {
		if got := FirstErrorLine(c.out); !strings.Contains(got, c.want) {
			t.Errorf("FirstErrorLine = %q, want the line with %q", got, c.want)
		}
	}
}
