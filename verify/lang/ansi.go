package lang

import "strings"

// StripANSI removes terminal escape sequences (colours, cursor moves) from
// s: test runners colour their failures ("\x1b[31mreceived\x1b[39m"), and
// neither a summary nor a reader carries the escapes, only the words.
func StripANSI(s string) string {
	if strings.IndexByte(s, 0x1b) < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != 0x1b {
			b.WriteByte(c)
			continue
		}
		if i+1 < len(s) && s[i+1] == '[' {
			// CSI: parameters and intermediates, then one final byte.
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j
			continue
		}
		if i+1 < len(s) && s[i+1] == ']' {
			// OSC: up to BEL or ESC \.
			j := i + 2
			for j < len(s) && s[j] != 0x07 && !(s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\') {
				j++
			}
			if j < len(s) && s[j] == 0x1b {
				j++
			}
			i = j
			continue
		}
		i++ // a two-byte escape
	}
	return b.String()
}
