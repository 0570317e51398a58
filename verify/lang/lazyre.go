package lang

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled on its first use. A loupe
// process is mostly a hook call that never reads prose, and compiling the
// language layer's expressions at start-up was the larger part of its
// start-up time (the live gate's per-turn budget is 50 ms, process start
// included).
type Regexp struct {
	pattern string
	once    sync.Once
	re      *regexp.Regexp
}

// lazyRegexps lists every Regexp made, for the test that compiles them all
// (a bad pattern fails there, not at a user's first match).
var lazyRegexps []*Regexp

// LazyRegexp returns a Regexp for pattern, compiled on first use.
func LazyRegexp(pattern string) *Regexp {
	r := &Regexp{pattern: pattern}
	lazyRegexps = append(lazyRegexps, r)
	return r
}

// Compiled is the compiled expression.
func (r *Regexp) Compiled() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.pattern) })
	return r.re
}

// The methods of regexp.Regexp the packages use.

func (r *Regexp) MatchString(s string) bool      { return r.Compiled().MatchString(s) }
func (r *Regexp) FindString(s string) string     { return r.Compiled().FindString(s) }
func (r *Regexp) FindStringIndex(s string) []int { return r.Compiled().FindStringIndex(s) }
func (r *Regexp) FindStringSubmatch(s string) []string {
	return r.Compiled().FindStringSubmatch(s)
}
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.Compiled().FindStringSubmatchIndex(s)
}
func (r *Regexp) FindAllString(s string, n int) []string { return r.Compiled().FindAllString(s, n) }
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.Compiled().FindAllStringIndex(s, n)
}
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Compiled().FindAllStringSubmatch(s, n)
}
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Compiled().FindAllStringSubmatchIndex(s, n)
}
func (r *Regexp) ReplaceAllString(s, repl string) string {
	return r.Compiled().ReplaceAllString(s, repl)
}
func (r *Regexp) ReplaceAllStringFunc(s string, f func(string) string) string {
	return r.Compiled().ReplaceAllStringFunc(s, f)
}
func (r *Regexp) String() string { return r.pattern }
