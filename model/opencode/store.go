package opencode

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/valyala/fastjson"

	"github.com/loupe-dev/loupe/model/formats/kit"
	"github.com/loupe-dev/loupe/model/opencode/sqlitedb"
)

// store is where opencode sessions are read from: the JSON storage tree
// (opencode before 1.2), its SQLite database (opencode.db, 1.2 on), or the
// JSON `opencode export` writes. Each gives the same message and part
// records.
type store interface {
	name() string
	sessions() ([]session, error)
	messages(imp *importer, s session) ([]*message, int64, error)
	close()
}

// dbName is the file opencode keeps its store in, in its data directory.
const dbName = "opencode.db"

// maxWAL bounds the write-ahead log read beside a database; opencode
// checkpoints it long before (SQLite's default is at about 4 MB).
const maxWAL = 1 << 30

// openStore opens what path names. A path ending in #<session id> names one
// session of a database or storage tree; want is that id.
func openStore(path string) (src store, want string, err error) {
	st, err := os.Stat(path)
	if err != nil {
		if i := strings.LastIndexByte(path, '#'); i > 0 {
			if st2, err2 := os.Stat(path[:i]); err2 == nil {
				path, want, st, err = path[:i], path[i+1:], st2, nil
			}
		}
		if err != nil {
			return nil, "", err
		}
	}
	if st.IsDir() {
		if root := storageRoot(path, true); root != "" {
			return &dirStore{root: root}, want, nil
		}
		if db := filepath.Join(path, dbName); isFile(db) {
			s, err := openDB(db)
			return s, want, err
		}
		return nil, "", fmt.Errorf("%s: not an opencode data directory (%s, or storage/ with session/, message/, part/)", path, dbName)
	}
	head, err := readHead(path, 16)
	if err != nil {
		return nil, "", err
	}
	if sqlitedb.IsDatabase(head) {
		s, err := openDB(path)
		return s, want, err
	}
	var p fastjson.Parser
	v, data, err := readJSON(path, &p)
	if err != nil {
		if data != nil && looksExported(data) {
			// Said as a problem of the file, as a broken line is.
			return &exportStore{path: path, data: data, size: int64(len(data))}, want, nil
		}
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	if v.Type() == fastjson.TypeObject && v.Get("messages") != nil && (v.Get("info") != nil || looksExported(data)) {
		// An export, also one whose info is damaged: detection took it
		// for one, and its messages still read (the loss is a warning).
		return &exportStore{path: path, v: v, size: int64(len(data))}, want, nil
	}
	root := storageRoot(path, false)
	if root == "" {
		return nil, "", fmt.Errorf("%s: not in an opencode storage directory (session/, message/, part/), nor an opencode database or export", path)
	}
	s, err := readSession(path, &p)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	return &dirStore{root: root, only: &s}, want, nil
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

func readHead(path string, n int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, n)
	k, _ := f.Read(b)
	return b[:k], nil
}

// dirStore is the JSON storage tree; only is set when one session file was
// named.
type dirStore struct {
	root string
	only *session
}

func (d *dirStore) name() string { return d.root }
func (d *dirStore) close()       {}

func (d *dirStore) sessions() ([]session, error) {
	list := []session{}
	if d.only != nil {
		list = append(list, *d.only)
	} else {
		all, err := sessions(d.root)
		if err != nil {
			return nil, err
		}
		list = all
	}
	for i := range list {
		list[i].src = d
		list[i].open = list[i].path
	}
	return list, nil
}

func (d *dirStore) messages(imp *importer, s session) ([]*message, int64, error) {
	var total int64
	msgDir := filepath.Join(d.root, "message", s.id)
	ents, err := os.ReadDir(msgDir)
	if errors.Is(err, fs.ErrNotExist) {
		// opencode writes a session before its first message: a session
		// with none yet is empty, not broken.
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", s.path, err)
	}
	var msgs []*message
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		var p fastjson.Parser // each message keeps its parsed value
		path := filepath.Join(msgDir, e.Name())
		v, data, err := readJSON(path, &p)
		total += int64(len(data))
		if err != nil {
			imp.b.File = path
			imp.b.BadLine(kit.Line{B: data, N: 1, Terminated: true}, false)
			continue
		}
		m := newMessage(path, kit.Str(v, "id"), 0, v, data)
		total += d.readParts(imp, m, s.id)
		msgs = append(msgs, m)
	}
	return msgs, total, nil
}

func newMessage(path, id string, created int64, v *fastjson.Value, data []byte) *message {
	if c := int64(kit.Int(v, "time", "created")); c != 0 {
		created = c
	}
	if s := kit.Str(v, "id"); s != "" {
		id = s
	}
	return &message{path: path, id: id, role: kit.Str(v, "role"), parent: kit.Str(v, "parentID"),
		summary: kit.Bool(v, "summary"), created: created, v: v, data: data}
}

func (d *dirStore) readParts(imp *importer, m *message, sessionID string) int64 {
	var total int64
	for _, dir := range []string{filepath.Join(d.root, "part", m.id), filepath.Join(d.root, "part", sessionID, m.id)} {
		ents, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
				continue
			}
			var p fastjson.Parser
			path := filepath.Join(dir, e.Name())
			v, data, err := readJSON(path, &p)
			total += int64(len(data))
			if err != nil {
				imp.b.File = path
				imp.b.BadLine(kit.Line{B: data, N: 1, Terminated: true}, false)
				continue
			}
			m.parts = append(m.parts, part{path: path, id: kit.Str(v, "id"), v: v, data: data})
		}
		break
	}
	slices.SortStableFunc(m.parts, func(a, b part) int { return strings.Compare(a.id, b.id) })
	return total
}

// dbStore is opencode's SQLite database, read with the WAL's committed
// frames and never written (sqlitedb opens it read-only, with no lock and
// no -shm).
type dbStore struct {
	path string
	db   *sqlitedb.DB
}

func openDB(path string) (*dbStore, error) {
	db, err := sqlitedb.Open(path, maxWAL)
	if err != nil {
		return nil, err
	}
	for _, t := range []string{"session", "message", "part"} {
		if _, ok := db.Table(t); !ok {
			db.Close()
			return nil, fmt.Errorf("%s: a SQLite database with no %q table: not opencode's", path, t)
		}
	}
	return &dbStore{path: path, db: db}, nil
}

func (d *dbStore) name() string { return d.path }
func (d *dbStore) close()       { d.db.Close() }

// str is a text column; SQLite does not check that text is UTF-8.
func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return kit.ValidString([]byte(s))
}

func num(m map[string]any, k string) int64 {
	n, _ := m[k].(int64)
	return n
}

func (d *dbStore) sessions() ([]session, error) {
	t, _ := d.db.Table("session")
	var out []session
	err := d.db.Rows("session", func(r sqlitedb.Row) error {
		m := t.Map(r)
		out = append(out, session{src: d, path: d.path, open: d.path + "#" + str(m, "id"), id: str(m, "id"),
			title: str(m, "title"), version: str(m, "version"), dir: str(m, "directory"), parent: str(m, "parent_id"),
			created: num(m, "time_created"), updated: num(m, "time_updated")})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: table session: %w", d.path, err)
	}
	return out, nil
}

func (d *dbStore) messages(imp *importer, s session) ([]*message, int64, error) {
	var total int64
	var msgs []*message
	byID := map[string]*message{}
	mt, _ := d.db.Table("message")
	err := d.db.Rows("message", func(r sqlitedb.Row) error {
		m := mt.Map(r)
		if str(m, "session_id") != s.id {
			return nil
		}
		data := []byte(str(m, "data"))
		total += int64(len(data))
		var p fastjson.Parser
		v, err := p.ParseBytes(data)
		if err != nil {
			imp.b.File = d.path
			imp.b.Warn("message", "message %s: its data is not JSON (%v); left out", str(m, "id"), err)
			return nil
		}
		msg := newMessage(d.path, str(m, "id"), num(m, "time_created"), v, data)
		msgs = append(msgs, msg)
		byID[msg.id] = msg
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("%s: table message: %w", d.path, err)
	}
	pt, _ := d.db.Table("part")
	err = d.db.Rows("part", func(r sqlitedb.Row) error {
		m := pt.Map(r)
		if str(m, "session_id") != s.id {
			return nil
		}
		msg := byID[str(m, "message_id")]
		data := []byte(str(m, "data"))
		total += int64(len(data))
		if msg == nil {
			imp.b.Skip("part of no message")
			return nil
		}
		var p fastjson.Parser
		v, err := p.ParseBytes(data)
		if err != nil {
			imp.b.File = d.path
			imp.b.Warn("part", "part %s: its data is not JSON (%v); left out", str(m, "id"), err)
			return nil
		}
		id := str(m, "id")
		if s := kit.Str(v, "id"); s != "" {
			id = s
		}
		msg.parts = append(msg.parts, part{path: d.path, id: id, v: v, data: data})
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("%s: table part: %w", d.path, err)
	}
	for _, m := range msgs {
		slices.SortStableFunc(m.parts, func(a, b part) int { return strings.Compare(a.id, b.id) })
	}
	return msgs, total, nil
}

// exportStore is the JSON `opencode export <session>` prints: {info,
// messages: [{info, parts}]}.
type exportStore struct {
	path string
	v    *fastjson.Value // nil when the file is not JSON
	data []byte
	size int64
}

// looksExported tells an export from its start: an object with the info
// and messages keys and a session id.
func looksExported(head []byte) bool {
	head = bytes.TrimSpace(head)
	return bytes.HasPrefix(head, []byte("{")) && bytes.Contains(head, []byte(`"ses_`)) &&
		bytes.Contains(head, []byte(`"info"`)) && bytes.Contains(head, []byte(`"messages"`))
}

func (e *exportStore) name() string { return e.path }
func (e *exportStore) close()       {}

func (e *exportStore) sessions() ([]session, error) {
	if e.v == nil {
		return []session{{src: e, path: e.path, open: e.path}}, nil
	}
	info := e.v.Get("info")
	if info == nil || info.Type() != fastjson.TypeObject {
		// Said as a warning by messages: the session's id, title and
		// times are unknown, its messages are not.
		return []session{{src: e, path: e.path, open: e.path}}, nil
	}
	return []session{{src: e, path: e.path, open: e.path, id: kit.Str(info, "id"), title: kit.Str(info, "title"),
		version: kit.Str(info, "version"), dir: kit.Str(info, "directory"), parent: kit.Str(info, "parentID"),
		created: int64(kit.Int(info, "time", "created")), updated: int64(kit.Int(info, "time", "updated"))}}, nil
}

func (e *exportStore) messages(imp *importer, _ session) ([]*message, int64, error) {
	if e.v == nil {
		imp.b.File = e.path
		imp.b.BadLine(kit.Line{B: e.data, N: 1, Terminated: true}, false)
		return nil, e.size, nil
	}
	if info := e.v.Get("info"); info == nil || info.Type() != fastjson.TypeObject {
		imp.b.File = e.path
		imp.b.Warn("info", "the export's info is not an object: the session's id, title and times are unknown")
	}
	var msgs []*message
	for i, mv := range kit.Array(e.v, "messages") {
		info := mv.Get("info")
		if info == nil || info.Type() != fastjson.TypeObject {
			imp.b.File = e.path
			imp.b.Warn("message", "messages[%d]: no info object; left out", i)
			continue
		}
		m := newMessage(e.path, "", 0, info, info.MarshalTo(nil))
		for _, pv := range kit.Array(mv, "parts") {
			m.parts = append(m.parts, part{path: e.path, id: kit.Str(pv, "id"), v: pv, data: pv.MarshalTo(nil)})
		}
		slices.SortStableFunc(m.parts, func(a, b part) int { return strings.Compare(a.id, b.id) })
		msgs = append(msgs, m)
	}
	return msgs, e.size, nil
}

// detectFile: a database with opencode's tables, an export, or a session
// file of a storage tree.
func detectFile(path string, head []byte) bool {
	if sqlitedb.IsDatabase(head) {
		s, err := openDB(path)
		if err != nil {
			return false
		}
		s.close()
		return true
	}
	if looksExported(head) {
		return true
	}
	head = bytes.TrimSpace(head)
	if !bytes.HasPrefix(head, []byte("{")) || !bytes.Contains(head, []byte(`"ses_`)) {
		return false
	}
	var p fastjson.Parser
	v, err := p.ParseBytes(head)
	if err != nil || !strings.HasPrefix(kit.Str(v, "id"), "ses_") || !v.Exists("time") {
		return false
	}
	return storageRoot(path, false) != ""
}
