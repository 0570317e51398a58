package lang

import "testing"

// Every expression compiled on first use compiles: a bad pattern fails
// here, not at a user's first match.
func TestLazyRegexpsCompile(t *testing.T) {
	if len(lazyRegexps) < 20 {
		t.Fatalf("only %d lazy expressions: the language layer's are made with LazyRegexp", len(lazyRegexps))
	}
	for _, r := range lazyRegexps {
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("%q: %v", r.pattern, p)
				}
			}()
			r.Compiled()
		}()
	}
}
