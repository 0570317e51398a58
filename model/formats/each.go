package formats

import (
	"io"

	"github.com/loupe-dev/loupe/model"
)

// OpenEach opens path as Open does ("-" is standard input) and hands every
// event to fn, in file order, instead of keeping them: the Transcript it
// returns (the one fn is handed) has no Events. A loupe JSONL file, plain
// or compressed, is decoded as it is read and each event handed on at
// once (model.OpenEach), so a verifier fed by fn overlaps the reading and
// needs memory only for what it keeps; an importer's transcript is read
// whole first, then handed on event by event. Its errors are Open's; a
// file in which nothing reads as the format is found only at the end, after
// fn has seen its events.
func OpenEach(path string, opt Options, fn func(*model.Transcript, model.Event)) (*model.Transcript, error) {
	return openEach(path, opt, fn)
}

// OpenReaderEach is OpenReader handing every event to fn as OpenEach does.
func OpenReaderEach(r io.Reader, name string, opt Options, fn func(*model.Transcript, model.Event)) (*model.Transcript, error) {
	return readEach(r, name, opt, fn)
}
