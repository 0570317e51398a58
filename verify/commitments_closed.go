package verify

// Closed commitments, kept for the resurrection check (a summary listing
// finished work as pending again), are grouped by head noun and verb. A
// long run closes hundreds of steps of one kind ("move the X handler to
// the v2 router" for every package): a summary that names the head and the
// verb would make every one of them a candidate at every compaction, and
// the run quadratic. A step is a candidate only where the summary names
// what sets it apart from its siblings: one of its distinct words (its
// modifiers, names, complements) that not every sibling shares. A group of
// one, and members with no distinct word, are candidates as before.

// maxNamedSiblings is the most members a word may name and still tell a
// step apart: a word most of a large group shares says nothing of which.
const maxNamedSiblings = 16

// closedGroup is the closed commitments of one head noun and verb, the
// latest of each wording.
type closedGroup struct {
	byKey map[string]*promise
	// byWord lists members under each of their distinct words; an entry
	// whose member was replaced by a later one of the same wording is
	// stale (live reports it) and dropped when the list is compacted.
	byWord map[string][]*promise
	freq   map[string]int      // live members having each word
	plain  map[string]*promise // live members with no distinct word
}

func newClosedGroup() *closedGroup {
	return &closedGroup{byKey: map[string]*promise{}, byWord: map[string][]*promise{}, freq: map[string]int{}, plain: map[string]*promise{}}
}

// live reports whether p is the group's member for its wording.
func (g *closedGroup) live(p *promise) bool { return g.byKey[p.item.Key] == p }

// put files p as the latest closed commitment of its wording.
func (g *closedGroup) put(p *promise) {
	key := p.item.Key
	old := g.byKey[key]
	if old == p {
		return
	}
	g.byKey[key] = p
	if old != nil {
		delete(g.plain, key)
		for _, w := range old.distinctWords() {
			g.freq[w]--
			if l := g.byWord[w]; len(l) > 2*g.freq[w]+4 {
				live := l[:0]
				for _, e := range l {
					if g.live(e) {
						live = append(live, e)
					}
				}
				g.byWord[w] = live
			}
		}
	}
	ws := p.distinctWords()
	if len(ws) == 0 {
		g.plain[key] = p
		return
	}
	for _, w := range ws {
		g.freq[w]++
		g.byWord[w] = append(g.byWord[w], p)
	}
}

// namedIn adds the members a summary can be speaking of: every member of
// a group of one, the members with no distinct word, and those one of
// whose distinct words the summary has and that few enough siblings share.
func (g *closedGroup) namedIn(d *doc, add func(tracked)) {
	if len(g.byKey) == 1 {
		for _, p := range g.byKey {
			add(p)
		}
		return
	}
	for _, p := range g.plain {
		add(p)
	}
	n := len(g.byKey)
	look := func(w string) {
		if f := g.freq[w]; f == 0 || f >= n || f > maxNamedSiblings {
			return
		}
		for _, p := range g.byWord[w] {
			if g.live(p) {
				add(p)
			}
		}
	}
	// Walk the smaller of the summary's terms and the group's words.
	if len(d.postings) < len(g.byWord) {
		for t := range d.postings {
			if _, ok := g.byWord[t]; ok {
				look(t)
			}
		}
		return
	}
	for w := range g.byWord {
		if _, ok := d.postings[w]; ok {
			look(w)
		}
	}
}
