package gemini

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"

	"github.com/valyala/fastjson"

	"github.com/loupe-dev/loupe/model/formats/kit"
)

// stubMax is the largest file taken for a resume stub: a metadata line and
// a $set or two.
const stubMax = 64 << 10

// fileHead is what the start of a session file says.
type fileHead struct {
	session, start string
	messages       bool // it holds message records
}

func readHead(path string, whole bool) (fileHead, bool) {
	f, err := os.Open(path)
	if err != nil {
		return fileHead{}, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), stubMax)
	var h fileHead
	var p fastjson.Parser
	for n := 0; sc.Scan(); n++ {
		v, err := p.ParseBytes(sc.Bytes())
		if err != nil {
			return h, n > 0
		}
		if n == 0 {
			h.session, h.start = kit.Str(v, "sessionId"), kit.Str(v, "startTime")
			if h.session == "" || !whole {
				return h, h.session != ""
			}
			continue
		}
		if v.Exists("type") && v.Exists("id") {
			h.messages = true
			return h, true
		}
	}
	return h, h.session != ""
}

// Owner returns the file that holds the conversation of the session the
// file at path only resumes, or "". Gemini CLI (0.61) writes, on each
// --resume, a new session-<time>-<id8>.jsonl with the same session id that
// holds only its metadata and the session context, and goes on appending
// the conversation to the session's first file.
func Owner(path string) string {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() > stubMax {
		return ""
	}
	h, ok := readHead(path, true)
	if !ok || h.messages || len(h.session) < 8 {
		return ""
	}
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "session-*-"+globEscape(h.session[:8])+".json*"))
	best, bestStart := "", ""
	for _, m := range matches {
		if m == path {
			continue
		}
		o, ok := readHead(m, true)
		if !ok || o.session != h.session || !o.messages {
			continue
		}
		if best == "" || o.start < bestStart {
			best, bestStart = m, o.start
		}
	}
	return best
}

func globEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`).Replace(s)
}
