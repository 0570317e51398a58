package pi

// tree follows the id/parentId links of a v2+ session while it is read.
// Most sessions are one chain (each entry the child of the one before), and
// then every entry is in the agent's context. When an entry's parent is not
// the entry before it, the user went back with /tree and continued from an
// earlier entry: the file then holds several branches, and the context pi
// resumes with is the path from the last entry to the root.
type tree struct {
	parent   map[string]string
	prev     string // id of the entry read last
	branched bool
	entries  int // entries with an id
}

// add records an entry. hasParent is false when the entry has no parentId
// field at all: it is taken as the next link of the chain.
func (t *tree) add(id, parent string, hasParent bool) {
	if t.parent == nil {
		t.parent = map[string]string{}
	}
	if !hasParent {
		parent = t.prev
	}
	if parent != t.prev {
		t.branched = true
	}
	if _, dup := t.parent[id]; !dup {
		t.parent[id] = parent
		t.entries++
	}
	t.prev = id
}

// linear reports whether the entries read form one chain.
func (t *tree) linear() bool { return !t.branched }

// path returns the ids on the path from the last entry to the root, and how
// many entries are not on it. A cycle (a broken file) ends the walk.
func (t *tree) path() (on map[string]bool, off int) {
	on = map[string]bool{}
	for id := t.prev; id != "" && !on[id]; id = t.parent[id] {
		if _, known := t.parent[id]; !known {
			break // a parent that is not in the file
		}
		on[id] = true
	}
	return on, t.entries - len(on)
}
