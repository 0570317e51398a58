package pi

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/valyala/fastjson"

	"github.com/loupe-dev/loupe/model/formats/kit"
	"github.com/loupe-dev/loupe/model/formats/registry"
)

// Scan describes pi sessions: one file, or every session file under a
// directory (sessions/--<cwd>--/<time>_<id>.jsonl).
func Scan(path string) ([]registry.SessionInfo, error) {
	return kit.ScanPath(path, sessionFiles, scanFile)
}

// sessionFiles lists the pi session files under dir, in lexical order.
func sessionFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !isJSONL(d.Name()) {
			return nil
		}
		head, err := kit.Sniff(p, 4<<10)
		if err != nil || !Detect(p, head, false) {
			return nil
		}
		files = append(files, p)
		return nil
	})
	return files, err
}

func isJSONL(name string) bool {
	for _, ext := range []string{".jsonl", ".jsonl.gz", ".jsonl.zst"} {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// scanFile describes a session without importing it: every record of every
// line (two may share one) is looked at for its type only.
func scanFile(path string) (registry.SessionInfo, error) {
	si := registry.SessionInfo{Path: path, Format: Name}
	r, _, closeFn, err := kit.OpenFile(path, nil)
	if err != nil {
		return si, err
	}
	defer closeFn()
	var p fastjson.Parser
	var first, last, firstUser, name string
	_, err = kit.ReadLines(r, func(l kit.Line) error {
		for _, s := range splitLine(l.B) {
			if s.bad {
				continue
			}
			v, err := p.ParseBytes(l.B[s.start:s.end])
			if err != nil {
				continue
			}
			if ts := string(v.GetStringBytes("timestamp")); ts != "" {
				if first == "" {
					first = ts
				}
				last = ts
			}
			switch string(v.GetStringBytes("type")) {
			case "session":
				if si.ID == "" {
					si.ID = string(v.GetStringBytes("id"))
				}
			case "message":
				si.Turns++
				m := v.Get("message")
				if firstUser == "" && string(m.GetStringBytes("role")) == "user" {
					firstUser = kit.FirstLine(contentText(m.Get("content")), 80)
				}
			case "compaction":
				si.Compactions++
				si.Turns++
			case "branch_summary", "custom_message":
				si.Turns++
			case "session_info":
				if n := kit.Str(v, "name"); n != "" {
					name = n
				}
			}
		}
		return nil
	})
	if err != nil {
		return si, fmt.Errorf("%s: %w", path, err)
	}
	si.Title = name
	if si.Title == "" {
		si.Title = firstUser
	}
	si.Start, _ = time.Parse(time.RFC3339Nano, first)
	si.Updated, _ = time.Parse(time.RFC3339Nano, last)
	return si, nil
}
