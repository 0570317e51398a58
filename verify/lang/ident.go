package lang

import (
	"strings"
)

// IdentClass is the kind of an external identifier. Each class has its own
// boundary rule: Go's RE2 has no look-around, so candidates are found with
// simple patterns and their neighbours checked by hand.
type IdentClass uint8

const (
	ClassURL IdentClass = iota
	ClassPR
	ClassTicket
	ClassSHA
	ClassPath
	ClassBranch
)

var classNames = [...]string{"URL", "PR/issue", "ticket", "commit", "path", "branch"}

// String names the class for reports ("PR/issue", "path").
func (c IdentClass) String() string { return classNames[c] }

// Ident is an identifier found in a text.
type Ident struct {
	Value string
	Class IdentClass
}

var (
	urlRe    = LazyRegexp(`https?://[^\s<>"'` + "`" + `\])]+`)
	prRe     = LazyRegexp(`#(\d{1,7})`)
	prWordRe = LazyRegexp(`(?i)\b(?:PR|pull request|merge request|MR|issue)\s+#?(\d{1,7})\b`)
	// A branch in prose: a conventional prefix and a name ("feature/login").
	// "the rcv-overvote-csv branch", "branch release-1.8": a name with a
	// hyphen or an underscore next to the word branch.
	branchNamedRe = LazyRegexp(`\b([A-Za-z0-9][A-Za-z0-9._]*[-_][A-Za-z0-9._-]*[A-Za-z0-9])\s+branch\b|\bbranch\s+[` + "`" + `'"]?([A-Za-z0-9][A-Za-z0-9._]*[-_][A-Za-z0-9._-]*[A-Za-z0-9])`)
	branchWordRe  = LazyRegexp(`\b(?:feature|feat|fix|bugfix|hotfix|release|chore|dev|topic|wip|users?)/[A-Za-z0-9._-]*[A-Za-z0-9]`)
	ticketRe      = LazyRegexp(`[A-Z][A-Z0-9]{1,9}-\d{1,7}`)
	HexRe         = LazyRegexp(`[0-9a-f]{7,40}`)
	hostRe        = LazyRegexp(`(?i)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.(?:com|org|net|io|dev|app|co|ai|cloud|internal|local|localhost|edu|gov|us|uk|de|eu|sh|tech|xyz|me)\b`)
	branchRes     = []*Regexp{
		LazyRegexp(`git\s+(?:checkout|switch)\s+(?:-[bcB]\s+)?([A-Za-z0-9._/-]+)`),
		LazyRegexp(`git\s+push\s+(?:-u\s+|--set-upstream\s+|-f\s+|--force\s+|--force-with-lease\s+)*[A-Za-z0-9._-]+\s+([A-Za-z0-9._/-]+)`),
		LazyRegexp(`(?i)\bbranch\s+[` + "`" + `'"]?([A-Za-z0-9._-]+/[A-Za-z0-9._/-]+)`),
	}
)

// notTicket are prefixes of standard names that look like ticket keys.
var notTicket = WordSet("UTF", "ISO", "SHA", "AES", "RSA", "HTTP", "TLS", "SSL", "GPT", "ECMA", "IEEE", "ANSI",
	"MD", "ES", "IPV", "COVID", "UTC", "GMT", "CSS", "HTML", "OAUTH", "H", "X", "ARM", "AMD")

// notPath are names with a known extension that are products, not files.
var notPath = WordSet("node.js", "next.js", "vue.js", "react.js", "nuxt.js", "express.js", "d3.js", "three.js",
	"chart.js", "ember.js", "angular.js", "backbone.js", "deno.js", "bun.js", "p5.js", "socket.io", "asp.net", "ado.net")

// PathChunks finds path-like words by hand (a regular expression was the
// slowest part of matching): runs of path bytes
// ending in one that can end a path. A summary is scanned for them once.
func PathChunks(s string) [][2]int {
	var out [][2]int
	inChunk := func(c byte) bool {
		return IsIdentByte(c) || c == '.' || c == '~' || c == '/' || c == '@' || c == '+' || c == '-'
	}
	canEnd := func(c byte) bool { return IsIdentByte(c) || c == '~' || c == '/' || c == '-' }
	for i := 0; i < len(s); {
		if !inChunk(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && inChunk(s[j]) {
			j++
		}
		k := j
		for k > i && !canEnd(s[k-1]) {
			k--
		}
		if k > i {
			out = append(out, [2]int{i, k})
		}
		i = j
	}
	return out
}

// knownExt are file extensions that make a bare name a path.
var knownExt = WordSet(
	"go", "mod", "sum", "ts", "tsx", "js", "jsx", "mjs", "cjs", "py", "rb", "rs", "java", "kt", "kts",
	"c", "h", "cc", "cpp", "hpp", "cs", "swift", "m", "php", "scala", "sh", "bash", "zsh", "fish",
	"ps1", "sql", "md", "mdx", "rst", "txt", "json", "jsonl", "yaml", "yml", "toml", "ini", "cfg",
	"conf", "env", "lock", "xml", "html", "htm", "css", "scss", "less", "vue", "svelte", "proto",
	"graphql", "gql", "tf", "hcl", "dockerfile", "gradle", "csv", "tsv", "log", "ipynb", "lua",
	"dart", "ex", "exs", "erl", "hs", "ml", "zig", "nim", "r", "jl", "pl", "pm", "bat", "cmd",
	"makefile", "mk", "cmake", "patch", "diff", "pem", "crt", "key", "svg", "png", "jpg", "gif",
	"pdf", "zip", "gz", "tar", "tgz", "zst", "snap", "golden", "tmpl", "tpl", "j2",
)

// ExtractIdents returns the identifiers in s, each once, in order of class
// (URLs and hosts, PRs, branches named in prose, tickets, SHAs, branches in
// git commands, paths), then of position.
func ExtractIdents(s string) []Ident {
	return extractIdents(s, false)
}

// ExtractCallIdents is ExtractIdents for the input of a tool call, where a
// word shaped like a file name is one whatever its extension
// ("peering.tfplan", "flake.nix"): prose writes "wandb.init" and
// "je.approved_by", a command line names files.
func ExtractCallIdents(s string) []Ident {
	return extractIdents(s, true)
}

func extractIdents(s string, files bool) []Ident {
	x := &identScan{s: s, seen: map[Ident]bool{}, files: files}
	if strings.Contains(s, "://") {
		x.urls = urlRe.FindAllStringIndex(s, -1)
	}
	x.webAddresses()
	x.digitHosts()
	x.pullRequests()
	x.branchesInProse()
	x.tickets()
	x.changeRecords()
	x.commits()
	x.branchesInCommands()
	x.paths()
	return x.out
}

// identScan collects the identifiers of one text.
type identScan struct {
	s    string
	out  []Ident
	seen map[Ident]bool
	urls [][]int // spans of the URLs: nothing inside one is another id
	// files accepts any plausible extension on a bare file name (see
	// ExtractCallIdents).
	files bool
}

func (x *identScan) add(v string, c IdentClass) {
	id := Ident{v, c}
	if v != "" && !x.seen[id] {
		x.seen[id] = true
		x.out = append(x.out, id)
	}
}

func (x *identScan) inURL(i int) bool {
	for _, u := range x.urls {
		if i >= u[0] && i < u[1] {
			return true
		}
	}
	return false
}

// webAddresses adds URLs, and bare host names ("invoices.example.com"),
// which are URLs without a scheme.
func (x *identScan) webAddresses() {
	s := x.s
	for _, u := range x.urls {
		x.add(strings.TrimRight(s[u[0]:u[1]], ".,;:!?'\""), ClassURL)
	}
	if !hostTLD(s) {
		return
	}
	for _, m := range hostRe.FindAllStringIndex(s, -1) {
		if x.inURL(m[0]) || (m[0] > 0 && (IsIdentByte(s[m[0]-1]) || s[m[0]-1] == '.' || s[m[0]-1] == '@' || s[m[0]-1] == '/')) || (m[1] < len(s) && (s[m[1]] == '/' || IsIdentByte(s[m[1]]))) {
			continue
		}
		x.add(strings.ToLower(s[m[0]:m[1]]), ClassURL)
	}
}

// pullRequests adds "#123" and "PR 123", "issue 123".
func (x *identScan) pullRequests() {
	s := x.s
	if strings.IndexAny(s, "0123456789") < 0 {
		return // both expressions need a number
	}
	if strings.IndexByte(s, '#') >= 0 {
		for _, m := range prRe.FindAllStringSubmatchIndex(s, -1) {
			if x.inURL(m[0]) || (m[0] > 0 && IsIdentByte(s[m[0]-1])) || (m[1] < len(s) && IsDigit(s[m[1]])) {
				continue
			}
			if runnerNumber(s, m[0], m[1]) {
				continue // "test #12 of 40": the runner's numbering
			}
			x.add("#"+s[m[2]:m[3]], ClassPR)
		}
	}
	if isASCII(s) && !prWord(s) {
		return
	}
	for _, m := range prWordRe.FindAllStringSubmatchIndex(s, -1) {
		if !x.inURL(m[0]) {
			x.add("#"+s[m[2]:m[3]], ClassPR)
		}
	}
}

// runnerNumber reports whether the number at s[i:j] is a test runner's
// or a job's own numbering ("test #12 of 40", "#3/10", "step #4"), not an
// issue.
func runnerNumber(s string, i, j int) bool {
	rest := strings.TrimLeft(s[j:], " ")
	if strings.HasPrefix(rest, "of ") || strings.HasPrefix(rest, "/") {
		return true
	}
	f := strings.Fields(strings.ToLower(s[:i]))
	if len(f) == 0 {
		return false
	}
	switch strings.Trim(f[len(f)-1], ":([") {
	case "test", "tests", "case", "step", "job", "run", "attempt", "iteration", "epoch", "batch", "shard", "worker", "try", "retry", "row", "line", "item", "member", "task":
		return true
	}
	return false
}

// branchesInProse adds "the rcv-overvote-csv branch", "branch release-1.8"
// and conventional prefixed names ("feature/login"). Each expression runs
// only on a text with its literal: "branch", or a slash.
func (x *identScan) branchesInProse() {
	s := x.s
	if strings.Contains(s, "branch") {
		for _, m := range branchNamedRe.FindAllStringSubmatchIndex(s, -1) {
			lo, hi := m[2], m[3]
			if lo < 0 {
				lo, hi = m[4], m[5]
			}
			if lo > 0 && (s[lo-1] == '/' || IsIdentByte(s[lo-1])) {
				continue // the tail of feature/idempotency-keys: the whole name is found below
			}
			if b := s[lo:hi]; validBranch(b) {
				x.add(b, ClassBranch)
			}
		}
	}
	if strings.IndexByte(s, '/') < 0 {
		return
	}
	for _, m := range branchWordRe.FindAllStringIndex(s, -1) {
		if !x.inURL(m[0]) && (m[0] == 0 || s[m[0]-1] != '/') && (m[1] == len(s) || s[m[1]] != '/') {
			x.add(s[m[0]:m[1]], ClassBranch)
		}
	}
}

// tickets adds ticket keys ("ORD-1881"), not standards ("UTF-8").
func (x *identScan) tickets() {
	s := x.s
	if strings.IndexByte(s, '-') < 0 {
		return
	}
	for _, m := range ticketRe.FindAllStringIndex(s, -1) {
		if x.inURL(m[0]) || (m[0] > 0 && (IsIdentByte(s[m[0]-1]) || s[m[0]-1] == '-')) || (m[1] < len(s) && IsIdentByte(s[m[1]])) {
			continue
		}
		if key, _, _ := strings.Cut(s[m[0]:m[1]], "-"); notTicket[key] {
			continue // UTF-8, SHA-256, ISO-8601: standards, not tickets
		}
		x.add(s[m[0]:m[1]], ClassTicket)
	}
	x.lowerTickets()
}

// lowerTicketRe matches the lower-case keys of agent issue trackers
// (beads: "bd-a1b2", "av-bv4.12"): a short prefix, a hyphen and a hash of
// letters and digits, with an optional dotted child number.
var lowerTicketRe = LazyRegexp(`[a-z]{2,6}-[a-z0-9]{2,8}(?:\.[0-9]{1,4})*`)

// lowerTickets adds lower-case tracker keys. The hash must mix letters and
// digits ("36i8", "bv4"), so words ("re-run"), versions ("utf-8",
// "node-18", "pre-v2") and product names ("gpt-4o") are not taken.
func (x *identScan) lowerTickets() {
	s := x.s
	for _, m := range lowerTicketRe.FindAllStringIndex(s, -1) {
		if x.inURL(m[0]) || m[0] > 0 && (IsIdentByte(s[m[0]-1]) || strings.IndexByte("-/.", s[m[0]-1]) >= 0) ||
			m[1] < len(s) && (IsIdentByte(s[m[1]]) || strings.IndexByte("-/", s[m[1]]) >= 0) {
			continue
		}
		key, hash, _ := strings.Cut(s[m[0]:m[1]], "-")
		hash, _, _ = strings.Cut(hash, ".")
		if notTicket[strings.ToUpper(key)] || !mixed(hash) || hash[0] == 'v' && allDigits(hash[1:]) {
			continue
		}
		x.add(s[m[0]:m[1]], ClassTicket)
	}
}

// mixed reports whether s has both a letter and a digit.
func mixed(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r >= '0' && r <= '9' }) >= 0 &&
		strings.IndexFunc(s, func(r rune) bool { return r >= 'a' && r <= 'z' }) >= 0
}

func allDigits(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) < 0
}

// changeRecordRe matches change, incident and request records written
// without a dash: CHG0012345, INC0041877, RITM0012345.
var changeRecordRe = LazyRegexp(`[A-Z]{2,5}[0-9]{5,10}`)

// changeRecords adds change and ticket numbers written without a dash.
func (x *identScan) changeRecords() {
	s := x.s
	for _, m := range changeRecordRe.FindAllStringIndex(s, -1) {
		if x.inURL(m[0]) || (m[0] > 0 && (IsIdentByte(s[m[0]-1]) || s[m[0]-1] == '-')) || (m[1] < len(s) && (IsIdentByte(s[m[1]]) || s[m[1]] == '-')) {
			continue
		}
		x.add(s[m[0]:m[1]], ClassTicket)
	}
}

// digitHostRe matches a dotted host name with a digit-bearing label
// ("ci-runner-14.internal", "db-01.prod"); hostRe knows only TLDs.
var digitHostRe = LazyRegexp(`[a-z][a-z0-9-]*[0-9][a-z0-9-]*(?:\.[a-z][a-z0-9-]*[a-z0-9])+`)

// fileExts are extensions that make a dotted word a file, not a host.
var fileExts = WordSet("go", "py", "js", "ts", "rs", "rb", "java", "c", "h", "cc", "cpp", "hpp", "md", "txt", "json", "yaml", "yml",
	"toml", "sh", "sql", "css", "html", "lock", "log", "cfg", "conf", "ini", "xml", "csv", "tsx", "jsx", "kt", "swift", "php",
	"pl", "ex", "exs", "erl", "hs", "ml", "scala", "vue", "svelte", "proto", "tf", "j2", "mk", "lua", "dart", "zig", "nim",
	"jl", "ipynb", "gz", "zip", "tar", "tgz", "png", "jpg", "jpeg", "gif", "svg", "pdf", "env", "example", "bak", "tmp", "pem",
	"key", "crt", "out", "dat", "bin", "so", "dll", "exe", "tfplan", "tfvars", "nix", "rst", "tex", "mjs", "cjs", "wasm", "patch", "diff", "sum", "mod")

// digitHosts adds dotted host names with a digit-bearing label.
func (x *identScan) digitHosts() {
	s := x.s
	if strings.IndexByte(s, '.') < 0 {
		return
	}
	for _, m := range digitHostRe.FindAllStringIndex(s, -1) {
		if x.inURL(m[0]) || (m[0] > 0 && (IsIdentByte(s[m[0]-1]) || strings.IndexByte("./@-", s[m[0]-1]) >= 0)) || (m[1] < len(s) && (IsIdentByte(s[m[1]]) || s[m[1]] == '/')) {
			continue
		}
		v := s[m[0]:m[1]]
		if fileExts[v[strings.LastIndexByte(v, '.')+1:]] {
			continue
		}
		x.add(v, ClassURL)
	}
}

// commits adds hex words with digits and letters: commit SHAs.
func (x *identScan) commits() {
	s := x.s
	if !hexRun(s) {
		return
	}
	for _, m := range HexRe.FindAllStringIndex(s, -1) {
		if x.inURL(m[0]) || (m[0] > 0 && IsIdentByte(s[m[0]-1])) || (m[1] < len(s) && IsIdentByte(s[m[1]])) {
			continue
		}
		if v := s[m[0]:m[1]]; strings.ContainsAny(v, "0123456789") && strings.ContainsAny(v, "abcdef") {
			x.add(v, ClassSHA)
		}
	}
}

// branchesInCommands adds the branches git commands check out or push.
func (x *identScan) branchesInCommands() {
	git, branch := strings.Contains(x.s, "git"), ContainsFoldASCII(x.s, "branch")
	for i, re := range branchRes {
		if i < 2 && !git || i == 2 && !branch && isASCII(x.s) {
			continue // the expression's literal word is missing
		}
		for _, m := range re.FindAllStringSubmatch(x.s, -1) {
			if b := strings.TrimRight(m[1], ".,;:"); validBranch(b) && !x.tag(b) {
				x.add(b, ClassBranch)
			}
		}
	}
}

// tag reports whether a name a git command pushes is a tag: the text
// makes it with "git tag", or it is a release version ("v0.2.0", "1.4.2").
// "git tag v0.2.0 && git push origin v0.2.0" pushes no branch, and a
// release tag is the release's name, not a ref a summary must keep.
func (x *identScan) tag(name string) bool {
	return versionTagRe.MatchString(name) || strings.Contains(x.s, "git tag "+name) || strings.Contains(x.s, "git tag -a "+name)
}

var versionTagRe = LazyRegexp(`^v?\d+\.\d+(\.\d+)*([-+][0-9A-Za-z.]+)?$`)

// paths adds the path-like words that are not inside a URL, an address or
// a branch name.
func (x *identScan) paths() {
	s := x.s
	for _, m := range PathChunks(s) {
		if x.inURL(m[0]) || (m[0] > 0 && (s[m[0]-1] == ':' || s[m[0]-1] == '@')) {
			continue
		}
		p, ok := NormPath(s[m[0]:m[1]], true)
		if !ok && x.files {
			p, ok = shapedFile(s[m[0]:m[1]])
		}
		if ok && !x.seen[Ident{p, ClassBranch}] && !notPath[strings.ToLower(p)] {
			x.add(p, ClassPath)
		}
	}
}

// ScanHex calls fn for every word of 7 to 40 lower-case hex digits with at
// least one digit and one letter: a commit SHA. A word is a run of letters,
// digits and underscores. It is a hand loop because it runs over every tool
// output.
func ScanHex(s string, fn func(string)) {
	for i := 0; i < len(s); {
		if !IsIdentByte(s[i]) {
			i++
			continue
		}
		j, hex, digit, letter := i, true, false, false
		for j < len(s) && IsIdentByte(s[j]) {
			c := s[j]
			switch {
			case IsDigit(c):
				digit = true
			case c >= 'a' && c <= 'f':
				letter = true
			default:
				hex = false
			}
			j++
		}
		if n := j - i; hex && digit && letter && n >= 7 && n <= 40 {
			fn(s[i:j])
		}
		i = j
	}
}

// hostTLDs are hostRe's top-level domains.
var hostTLDs = WordSet("com", "org", "net", "io", "dev", "app", "co", "ai", "cloud", "internal", "local", "localhost",
	"edu", "gov", "us", "uk", "de", "eu", "sh", "tech", "xyz", "me")

// hostTLD reports whether hostRe can match s: a dot followed by a whole
// word that is one of its domains, in any case. Only an ASCII text is
// judged so ("ſ" folds to "s" in the expression).
func hostTLD(s string) bool {
	if !isASCII(s) {
		return true
	}
	var buf [9]byte
	for i := strings.IndexByte(s, '.'); i >= 0; {
		j := i + 1
		for j < len(s) && IsIdentByte(s[j]) {
			j++
		}
		if n := j - i - 1; n >= 2 && n <= len(buf) {
			for k := 0; k < n; k++ {
				buf[k] = s[i+1+k] | 0x20
			}
			if hostTLDs[string(buf[:n])] {
				return true
			}
		}
		k := strings.IndexByte(s[j:], '.')
		if k < 0 {
			break
		}
		i = j + k
	}
	return false
}

// prWord reports whether an ASCII text has one of prWordRe's words (PR,
// pull request, merge request, MR, issue, in any case) before a space.
func prWord(s string) bool {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r', '\f', '\v':
		default:
			continue
		}
		before := s[:i]
		for _, w := range [...]string{"pr", "mr", "issue", "request"} {
			if len(before) >= len(w) && strings.EqualFold(before[len(before)-len(w):], w) {
				return true
			}
		}
	}
	return false
}

// hexRun reports whether s has seven lower-case hex digits in a row, which
// HexRe needs.
func hexRun(s string) bool {
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; IsDigit(c) || c >= 'a' && c <= 'f' {
			if n++; n == 7 {
				return true
			}
		} else {
			n = 0
		}
	}
	return false
}

// isASCII reports whether s is all ASCII: only then does a case-insensitive
// expression need the ASCII spelling of its words.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func validBranch(b string) bool {
	switch b {
	case "", "HEAD", "origin", "upstream", "-", "--":
		return false
	}
	return !strings.HasPrefix(b, "-")
}

// IsDigit reports whether c is an ASCII digit.
func IsDigit(c byte) bool { return c >= '0' && c <= '9' }

// IsIdentByte reports whether c can be part of an id: an ASCII letter, a
// digit or "_".
func IsIdentByte(c byte) bool {
	return c == '_' || IsDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// NormPath cleans a path-like chunk and says whether it is a path: a name
// with a known extension, or several segments that look like directories.
// strict asks for more evidence (source side); the summary side is lenient.
func NormPath(c string, strict bool) (string, bool) {
	c = strings.TrimLeft(c, "-+@")
	if i := strings.IndexByte(c, '@'); i > 0 {
		c = c[:i] // module@version
	}
	lead := strings.HasPrefix(c, "./") || strings.HasPrefix(c, "/") || strings.HasPrefix(c, "~/")
	trail := strings.HasSuffix(c, "/")
	c = strings.TrimPrefix(c, "./")
	c = strings.TrimSuffix(c, "/...")
	c = strings.TrimRight(c, "/.")
	if c == "" || c == "~" || strings.Contains(c, "//") {
		return "", false
	}
	segs := strings.Split(strings.TrimLeft(c, "/~"), "/")
	last := segs[len(segs)-1]
	hasExt := false
	if dot := strings.LastIndexByte(last, '.'); dot > 0 && dot < len(last)-1 {
		hasExt = knownExt[strings.ToLower(last[dot+1:])]
	}
	letters := strings.IndexFunc(c, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }) >= 0
	if !letters {
		return "", false
	}
	switch {
	case hasExt:
	case len(segs) >= 3:
	case len(segs) == 2 && (lead || trail || !strict):
	case len(segs) == 1 && trail && len(last) > 1:
		return last + "/", true
	default:
		return "", false
	}
	if lead && strings.HasPrefix(c, "/") {
		return c, true
	}
	return c, true
}

// shapedFile accepts a bare file name with a plausible extension.
func shapedFile(c string) (string, bool) {
	c = strings.TrimRight(strings.TrimPrefix(c, "./"), ".,;:")
	if strings.ContainsAny(c, "/@") || !HasFileExt(c) {
		return "", false
	}
	return c, true
}

// HasFileExt reports whether a path's last segment ends in an extension: a
// known one, or any that looks like one (two to eight lower-case letters
// and digits, starting with a letter, after a name that is not a number):
// ".tfplan", ".cue" and ".bzl" are as real as ".go".
func HasFileExt(p string) bool {
	if HasKnownExt(p) {
		return true
	}
	segs := PathSegments(p)
	last := segs[len(segs)-1]
	dot := strings.LastIndexByte(last, '.')
	if dot <= 0 || dot == len(last)-1 {
		return false
	}
	name, ext := last[:dot], last[dot+1:]
	if len(ext) < 2 || len(ext) > 8 || ext[0] < 'a' || ext[0] > 'z' {
		return false
	}
	for i := 0; i < len(ext); i++ {
		if c := ext[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return strings.IndexFunc(name, func(r rune) bool { return r < '0' || r > '9' }) >= 0
}

// HasKnownExt reports whether a path's last segment has a known extension.
func HasKnownExt(p string) bool {
	segs := PathSegments(p)
	last := segs[len(segs)-1]
	dot := strings.LastIndexByte(last, '.')
	return dot > 0 && dot < len(last)-1 && knownExt[strings.ToLower(last[dot+1:])]
}

// PathSegments splits a normalized path into its segments.
func PathSegments(p string) []string {
	return strings.Split(strings.Trim(p, "/~"), "/")
}

// URLByte reports whether c can continue a URL.
func URLByte(c byte) bool {
	return IsIdentByte(c) || c == '/' || c == '-' || c == '.' || c == '?' || c == '=' || c == '&' || c == '%' || c == '#'
}

// BoundaryAfter reports whether a match ending at end is at a boundary for
// the class cls: the next byte is not in it, or it is a final "." (sentence
// punctuation).
func BoundaryAfter(s string, end int, cls func(byte) bool) bool {
	if end >= len(s) {
		return true
	}
	if s[end] == '.' && (end+1 == len(s) || !cls(s[end+1])) {
		return true
	}
	return !cls(s[end])
}

// FindBounded finds needle in s such that the byte before is not in before
// and the byte after is not in after. A trailing "." followed by a non-class
// byte is sentence punctuation, not part of the identifier.
func FindBounded(s, needle string, before, after func(byte) bool, fold bool) int {
	if fold {
		return FindBoundedLower(strings.ToLower(s), needle, before, after)
	}
	return findBounded(s, needle, before, after)
}

// FindBoundedLower is FindBounded ignoring case in a text already
// lower-cased with strings.ToLower (a summary searched for many ids is
// lower-cased once); offsets are the lower-cased text's.
func FindBoundedLower(lower, needle string, before, after func(byte) bool) int {
	return findBounded(lower, strings.ToLower(needle), before, after)
}

func findBounded(hay, needle string, before, after func(byte) bool) int {
	for off := 0; ; {
		i := strings.Index(hay[off:], needle)
		if i < 0 {
			return -1
		}
		i += off
		end := i + len(needle)
		if (i == 0 || !before(hay[i-1])) && BoundaryAfter(hay, end, after) {
			return i
		}
		off = i + 1
	}
}

// SuffixOf reports whether a is a suffix of b, segment by segment.
func SuffixOf(a, b []string) bool {
	if len(a) > len(b) || len(a) == 0 {
		return false
	}
	off := len(b) - len(a)
	for i := range a {
		if a[i] != b[off+i] {
			return false
		}
	}
	return true
}
