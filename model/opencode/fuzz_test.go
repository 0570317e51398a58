package opencode

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/valyala/fastjson"

	"github.com/loupe-dev/loupe/model/formats/kit/kittest"
)

// FuzzImport: any records laid out as an opencode storage import without
// panic, keep the transcript's invariants and convert to loupe JSONL and
// back unchanged. A record goes where its ids say (a session under
// session/, a message under message/<sessionID>/, a part under
// part/<messageID>/); one without them is a message of the first session.
func FuzzImport(f *testing.F) {
	var paths []string
	filepath.WalkDir("testdata/storage", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			paths = append(paths, p)
		}
		return nil
	})
	f.Add(kittest.JoinFiles(f, paths...))
	root := f.TempDir()
	n := 0
	f.Fuzz(func(t *testing.T, data []byte) {
		n++
		storage := filepath.Join(root, fmt.Sprint(n), "storage")
		defer os.RemoveAll(filepath.Dir(storage))
		first := ""
		var p fastjson.Parser
		for i, r := range kittest.Records(data) {
			var rel string
			v, err := p.ParseBytes(r)
			id := ""
			if err == nil {
				id = kittest.SafeName(string(v.GetStringBytes("id")))
			}
			switch {
			case err == nil && strings.HasPrefix(id, "ses_"):
				rel = filepath.Join("session", "prj", id+".json")
				if first == "" {
					first = id
				}
			case err == nil && strings.HasPrefix(id, "prt_"):
				rel = filepath.Join("part", kittest.SafeName(string(v.GetStringBytes("messageID"))), id+".json")
			case err == nil && v.Exists("sessionID"):
				rel = filepath.Join("message", kittest.SafeName(string(v.GetStringBytes("sessionID"))), id+".json")
			default:
				s := first
				if s == "" {
					s = "ses_x"
				}
				rel = filepath.Join("message", s, fmt.Sprintf("msg_%d.json", i))
			}
			path := filepath.Join(storage, rel)
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, r, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		os.MkdirAll(filepath.Join(storage, "session"), 0o755)
		// A storage without a session that reads is an error, said.
		mayFail := func(err error) bool { return strings.Contains(err.Error(), "no opencode sessions") }
		kittest.ImportDir(t, Open, storage, mayFail)
		infos, _ := Scan(storage)
		for _, si := range infos {
			kittest.ImportDir(t, Open, si.Path, nil)
		}
	})
}
