// Package sqlitedb reads the rows of a SQLite database's tables from its
// file and, when one lies beside it, its write-ahead log — and nothing
// more. It is the subset loupe needs to read opencode's store (opencode.db):
// table b-trees, records, overflow pages and the committed frames of the
// WAL. No index, no SQL, no locks: it opens nothing for writing and never
// creates the -shm or -journal files a SQLite library would, so reading a
// user's live database leaves every byte beside it as it was.
//
// Every offset, page number and length read from the file is checked
// before use: a damaged or hostile file gives an error, never a panic, and
// the memory used is bounded by the files' sizes.
package sqlitedb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// magic opens every SQLite 3 database file.
const magic = "SQLite format 3\x00"

// IsDatabase reports whether head starts like a SQLite 3 database file.
func IsDatabase(head []byte) bool { return bytes.HasPrefix(head, []byte(magic)) }

// DB is a database read into memory: its file and the pages its WAL's
// committed frames replace.
type DB struct {
	file     io.ReaderAt
	fileSize int64
	closer   io.Closer
	pageSize int
	reserved int
	nPages   int
	wal      map[uint32][]byte // page number → the newest committed frame's page
	tables   map[string]Table
	// WALFrames is the number of committed WAL frames applied.
	WALFrames int
}

// Table is one table of the schema.
type Table struct {
	Name    string
	Root    uint32
	Columns []string
}

// Row is one row: the rowid and the column values (nil, int64, float64,
// string or []byte), in the table's column order.
type Row struct {
	RowID  int64
	Values []any
}

// Open opens the database at path for reading (O_RDONLY, no lock) and
// reads its WAL (path + "-wal"), if any, whole; maxWAL bounds the WAL's
// size. Pages of the file are read as they are needed. Close releases the
// file.
func Open(path string, maxWAL int64) (*DB, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = errors.New("not a regular file")
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	wal, err := readLimited(path+"-wal", maxWAL)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		f.Close()
		return nil, err
	}
	db, err := parse(f, st.Size(), wal)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	db.closer = f
	return db, nil
}

// Close releases the database file.
func (db *DB) Close() error {
	if db.closer == nil {
		return nil
	}
	return db.closer.Close()
}

func readLimited(path string, max int64) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	if st.Size() > max {
		return nil, fmt.Errorf("%s: %d bytes, over the %d-byte limit", path, st.Size(), max)
	}
	// os.ReadFile opens read-only and takes no lock.
	return os.ReadFile(path)
}

// Parse reads a database from the bytes of its file and of its WAL (nil
// when it has none).
func Parse(file, wal []byte) (*DB, error) {
	return parse(bytes.NewReader(file), int64(len(file)), wal)
}

func parse(file io.ReaderAt, size int64, wal []byte) (*DB, error) {
	hdr := make([]byte, 100)
	if n, _ := file.ReadAt(hdr, 0); n < 100 || !IsDatabase(hdr) {
		return nil, errors.New("not a SQLite 3 database")
	}
	ps := int(binary.BigEndian.Uint16(hdr[16:18]))
	if ps == 1 {
		ps = 65536
	}
	if ps < 512 || ps&(ps-1) != 0 {
		return nil, fmt.Errorf("bad page size %d", ps)
	}
	db := &DB{file: file, fileSize: size, pageSize: ps, reserved: int(hdr[20])}
	if db.reserved >= ps-480 {
		return nil, fmt.Errorf("bad reserved space %d", db.reserved)
	}
	db.nPages = int(size / int64(ps))
	// The header's page count holds only while its version-valid-for number
	// matches the change counter (a legacy writer may leave it stale).
	if n := int(binary.BigEndian.Uint32(hdr[28:32])); n > 0 && n < db.nPages && bytes.Equal(hdr[24:28], hdr[92:96]) {
		db.nPages = n
	}
	if len(wal) > 0 {
		db.readWAL(wal)
	}
	if err := db.readSchema(); err != nil {
		return nil, err
	}
	return db, nil
}

// readWAL keeps the pages of every frame up to the last valid commit frame.
// A frame belongs to the log only while its salts match the header's and
// the checksum chain holds: frames left over from before the last
// checkpoint, or half written, are ignored, as SQLite ignores them.
func (db *DB) readWAL(wal []byte) {
	if len(wal) < 32 {
		return
	}
	m := binary.BigEndian.Uint32(wal[0:4])
	if m != 0x377f0682 && m != 0x377f0683 {
		return
	}
	var order binary.ByteOrder = binary.LittleEndian
	if m == 0x377f0683 {
		order = binary.BigEndian
	}
	if int(binary.BigEndian.Uint32(wal[8:12])) != db.pageSize {
		return
	}
	salt1, salt2 := binary.BigEndian.Uint32(wal[16:20]), binary.BigEndian.Uint32(wal[20:24])
	s0, s1 := walChecksum(order, wal[0:24], 0, 0)
	if s0 != binary.BigEndian.Uint32(wal[24:28]) || s1 != binary.BigEndian.Uint32(wal[28:32]) {
		return
	}
	frame := 24 + db.pageSize
	pending := map[uint32][]byte{}
	committed := map[uint32][]byte{}
	nCommitted, n := 0, 0
	for off := 32; off+frame <= len(wal); off += frame {
		h := wal[off : off+24]
		if binary.BigEndian.Uint32(h[8:12]) != salt1 || binary.BigEndian.Uint32(h[12:16]) != salt2 {
			break
		}
		s0, s1 = walChecksum(order, h[0:8], s0, s1)
		s0, s1 = walChecksum(order, wal[off+24:off+frame], s0, s1)
		if s0 != binary.BigEndian.Uint32(h[16:20]) || s1 != binary.BigEndian.Uint32(h[20:24]) {
			break
		}
		pg := binary.BigEndian.Uint32(h[0:4])
		if pg == 0 {
			break
		}
		pending[pg] = wal[off+24 : off+frame]
		n++
		if size := binary.BigEndian.Uint32(h[4:8]); size != 0 {
			for k, v := range pending {
				committed[k] = v
			}
			clear(pending)
			nCommitted = n
			db.nPages = int(size)
		}
	}
	if len(committed) > 0 {
		db.wal = committed
		db.WALFrames = nCommitted
	}
}

// existingPages is how many pages can be read: the file's and the WAL's.
func (db *DB) existingPages() int {
	return int(db.fileSize/int64(db.pageSize)) + len(db.wal)
}

func walChecksum(order binary.ByteOrder, b []byte, s0, s1 uint32) (uint32, uint32) {
	for i := 0; i+8 <= len(b); i += 8 {
		s0 += order.Uint32(b[i:]) + s1
		s1 += order.Uint32(b[i+4:]) + s0
	}
	return s0, s1
}

// page returns page n (1-based), from the WAL when a committed frame holds it.
func (db *DB) page(n uint32) ([]byte, error) {
	if n == 0 || int64(n) > int64(db.nPages) {
		return nil, fmt.Errorf("page %d out of range (%d pages)", n, db.nPages)
	}
	if p, ok := db.wal[n]; ok {
		return p, nil
	}
	off := int64(n-1) * int64(db.pageSize)
	if off+int64(db.pageSize) > db.fileSize {
		return nil, fmt.Errorf("page %d beyond the end of the file", n)
	}
	p := make([]byte, db.pageSize)
	if _, err := db.file.ReadAt(p, off); err != nil {
		return nil, fmt.Errorf("page %d: %w", n, err)
	}
	return p, nil
}

// Table returns the named table of the schema.
func (db *DB) Table(name string) (Table, bool) {
	t, ok := db.tables[strings.ToLower(name)]
	return t, ok
}

func (db *DB) readSchema() error {
	db.tables = map[string]Table{}
	return db.walk(1, func(r Row) error {
		// sqlite_schema: type, name, tbl_name, rootpage, sql
		if len(r.Values) < 5 {
			return nil
		}
		typ, _ := r.Values[0].(string)
		name, _ := r.Values[1].(string)
		root, _ := r.Values[3].(int64)
		sql, _ := r.Values[4].(string)
		if typ != "table" || root <= 0 || root > 1<<31 {
			return nil
		}
		db.tables[strings.ToLower(name)] = Table{Name: name, Root: uint32(root), Columns: columns(sql)}
		return nil
	})
}

// Rows calls fn with each row of the named table, in rowid order. A column
// a row lacks (added to the table after the row was written) is nil.
func (db *DB) Rows(table string, fn func(Row) error) error {
	t, ok := db.Table(table)
	if !ok {
		return fmt.Errorf("no table %q", table)
	}
	return db.walk(t.Root, func(r Row) error {
		for len(r.Values) < len(t.Columns) {
			r.Values = append(r.Values, nil)
		}
		return fn(r)
	})
}

// Map returns a row's values by column name.
func (t Table) Map(r Row) map[string]any {
	m := make(map[string]any, len(t.Columns))
	for i, c := range t.Columns {
		if i < len(r.Values) {
			m[c] = r.Values[i]
		}
	}
	return m
}

// walk visits the table b-tree rooted at root depth first. visited guards
// against a page that points back up the tree.
func (db *DB) walk(root uint32, fn func(Row) error) error {
	visited := map[uint32]bool{}
	var visit func(n uint32, depth int) error
	visit = func(n uint32, depth int) error {
		if visited[n] || depth > 64 {
			return fmt.Errorf("page %d: the b-tree loops", n)
		}
		visited[n] = true
		p, err := db.page(n)
		if err != nil {
			return err
		}
		hdr := 0
		if n == 1 {
			hdr = 100
		}
		if hdr+12 > len(p) {
			return fmt.Errorf("page %d: too short", n)
		}
		kind := p[hdr]
		cells := int(binary.BigEndian.Uint16(p[hdr+3:]))
		ptrs := hdr + 8
		if kind == 0x05 {
			ptrs = hdr + 12
		}
		if ptrs+2*cells > len(p) {
			return fmt.Errorf("page %d: %d cells do not fit", n, cells)
		}
		for i := range cells {
			off := int(binary.BigEndian.Uint16(p[ptrs+2*i:]))
			if off >= len(p) {
				return fmt.Errorf("page %d: cell %d out of the page", n, i)
			}
			switch kind {
			case 0x05: // interior table page: child pointer, rowid
				if off+4 > len(p) {
					return fmt.Errorf("page %d: cell %d cut", n, i)
				}
				if err := visit(binary.BigEndian.Uint32(p[off:]), depth+1); err != nil {
					return err
				}
			case 0x0d:
				r, err := db.leafCell(p, off)
				if err != nil {
					return fmt.Errorf("page %d cell %d: %w", n, i, err)
				}
				if err := fn(r); err != nil {
					return err
				}
			default:
				return fmt.Errorf("page %d: not a table b-tree page (type %#x)", n, kind)
			}
		}
		if kind == 0x05 {
			return visit(binary.BigEndian.Uint32(p[hdr+8:]), depth+1)
		}
		return nil
	}
	return visit(root, 0)
}

func (db *DB) leafCell(p []byte, off int) (Row, error) {
	size, n := varint(p[off:])
	if n == 0 || size < 0 {
		return Row{}, errors.New("bad payload size")
	}
	off += n
	rowid, n := varint(p[off:])
	if n == 0 {
		return Row{}, errors.New("bad rowid")
	}
	off += n
	payload, err := db.payload(p, off, size)
	if err != nil {
		return Row{}, err
	}
	vals, err := record(payload)
	if err != nil {
		return Row{}, err
	}
	return Row{RowID: rowid, Values: vals}, nil
}

// payload gathers a cell's payload: the part on the page and the overflow
// chain after it.
func (db *DB) payload(p []byte, off int, size int64) ([]byte, error) {
	u := int64(db.pageSize - db.reserved)
	x := u - 35
	local := size
	if size > x {
		m := ((u - 12) * 32 / 255) - 23
		local = m + (size-m)%(u-4)
		if local > x {
			local = m
		}
	}
	if int64(off)+local > int64(len(p)) {
		return nil, errors.New("payload runs off the page")
	}
	if local == size {
		return p[off : off+int(local)], nil
	}
	if int64(off)+local+4 > int64(len(p)) {
		return nil, errors.New("overflow pointer runs off the page")
	}
	// The chain cannot hold more than the pages there are.
	if size > int64(db.existingPages())*u {
		return nil, fmt.Errorf("payload of %d bytes is larger than the database", size)
	}
	out := make([]byte, 0, size)
	out = append(out, p[off:off+int(local)]...)
	next := binary.BigEndian.Uint32(p[off+int(local):])
	for hops := 0; int64(len(out)) < size; hops++ {
		if next == 0 || hops > db.existingPages() {
			return nil, errors.New("overflow chain ends early or loops")
		}
		op, err := db.page(next)
		if err != nil {
			return nil, err
		}
		take := min(size-int64(len(out)), u-4)
		if 4+take > int64(len(op)) {
			return nil, errors.New("overflow page too short")
		}
		out = append(out, op[4:4+take]...)
		next = binary.BigEndian.Uint32(op[0:4])
	}
	return out, nil
}

// record decodes a record: a header of serial types, then the values.
func record(b []byte) ([]any, error) {
	hlen, n := varint(b)
	if n == 0 || hlen < int64(n) || hlen > int64(len(b)) {
		return nil, errors.New("bad record header")
	}
	var types []int64
	for i := n; i < int(hlen); {
		t, k := varint(b[i:int(hlen)])
		if k == 0 {
			return nil, errors.New("bad serial type")
		}
		types = append(types, t)
		i += k
	}
	body := b[hlen:]
	vals := make([]any, 0, len(types))
	for _, t := range types {
		var v any
		var size int64
		switch {
		case t == 0:
		case t >= 1 && t <= 6:
			size = [...]int64{0, 1, 2, 3, 4, 6, 8}[t]
		case t == 7:
			size = 8
		case t == 8:
			v = int64(0)
		case t == 9:
			v = int64(1)
		case t >= 12:
			size = (t - 12) / 2
		default:
			return nil, fmt.Errorf("reserved serial type %d", t)
		}
		if size > int64(len(body)) {
			return nil, errors.New("record value runs past its end")
		}
		raw := body[:size]
		body = body[size:]
		switch {
		case t >= 1 && t <= 6:
			var x int64
			if raw[0]&0x80 != 0 {
				x = -1
			}
			for _, c := range raw {
				x = x<<8 | int64(c)
			}
			v = x
		case t == 7:
			v = float64FromBits(binary.BigEndian.Uint64(raw))
		case t >= 12 && t%2 == 0:
			v = bytes.Clone(raw)
		case t >= 13:
			v = string(raw)
		}
		vals = append(vals, v)
	}
	return vals, nil
}

// varint decodes SQLite's big-endian varint; n is 0 when b is too short.
func varint(b []byte) (v int64, n int) {
	var x uint64
	for i := 0; i < 9; i++ {
		if i >= len(b) {
			return 0, 0
		}
		if i == 8 {
			x = x<<8 | uint64(b[i])
			return int64(x), 9
		}
		x = x<<7 | uint64(b[i]&0x7f)
		if b[i]&0x80 == 0 {
			return int64(x), i + 1
		}
	}
	return 0, 0
}

// columns lists the column names of a CREATE TABLE statement, in order.
// Table constraints (CONSTRAINT, PRIMARY KEY(...), FOREIGN KEY, UNIQUE,
// CHECK) are not columns.
func columns(sql string) []string {
	open := strings.IndexByte(sql, '(')
	closeAt := strings.LastIndexByte(sql, ')')
	if open < 0 || closeAt <= open {
		return nil
	}
	var cols []string
	for _, def := range splitTop(sql[open+1 : closeAt]) {
		def = strings.TrimSpace(def)
		name, _, _ := strings.Cut(def, " ")
		name = strings.TrimSpace(name)
		switch strings.ToUpper(name) {
		case "CONSTRAINT", "PRIMARY", "FOREIGN", "UNIQUE", "CHECK", "":
			continue
		}
		cols = append(cols, strings.Trim(name, "`\"[]'"))
	}
	return cols
}

// splitTop splits s at the commas outside parentheses and quotes.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '`' || c == '"' || c == '\'' || c == '[':
			quote = c
			if c == '[' {
				quote = ']'
			}
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
