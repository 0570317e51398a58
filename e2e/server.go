package e2e

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// The script every runtime's model follows. The user asks for a database
// migration; the agent promises to re-run it once the schema diff is
// reviewed and runs `echo hi`; the summary of any compaction keeps the review
// and the user's rule but drops the promise, so loupe must report exactly
// that commitment.
const (
	Promise = "I'll re-run the migration after the schema diff is reviewed."
	Final   = "The shell works: `echo hi` printed hi. Next I am waiting on the schema diff review."
	Summary = "## Goal\nThe user asked to prepare the orders-service database migration and to check " +
		"that the shell works first.\n\n## Progress\n- Ran `echo hi` in the shell; it printed hi.\n" +
		"- The schema diff is being reviewed.\n\n## Rules\n- User rule: never touch the prod database.\n\n" +
		"## Next steps\n- Wait for the user's next instruction.\n"
	GeminiSummary = "<state_snapshot>\n<overall_goal>Prepare the orders-service database migration; check the shell works first.</overall_goal>\n" +
		"<active_constraints>Never touch the prod database.</active_constraints>\n" +
		"<key_knowledge>The shell works.</key_knowledge>\n<file_system_state>unchanged</file_system_state>\n" +
		"<recent_actions>Ran `echo hi`; it printed hi. The schema diff is being reviewed.</recent_actions>\n" +
		"<task_state>1. [DONE] check the shell</task_state>\n</state_snapshot>"
	// KeptMarker is what every summary keeps; a request carrying it comes
	// after a compaction.
	KeptMarker = "The schema diff is being reviewed"
)

// summaryMarkers tell a runtime's compaction (summarization) request from an
// ordinary turn: one or more phrases of each runtime's compaction prompt.
var summaryMarkers = []string{
	"CONTEXT CHECKPOINT COMPACTION", "handoff summary", // Codex
	"distill", "state_snapshot> you just generated", "Critically evaluate", "Generate a new <state_snapshot>", // Gemini CLI
	"context summarization agent", "anchored summary", "Provide a detailed prompt for continuing", // opencode
	"context summarization assistant", "conversation to summarize", "context checkpoint summary", "Summarize the prefix", // pi
	"create a detailed summary of the conversation", // Claude Code
}

// Request is one request the server received, as the tests read it back.
type Request struct {
	Seq      int             `json:"seq"`
	Time     time.Time       `json:"t"`
	Method   string          `json:"method"`
	Path     string          `json:"path"`
	Decision string          `json:"decision"`
	Body     json.RawMessage `json:"body,omitempty"`
}

// Server is the scripted model: loopback only, every request logged.
type Server struct {
	URL string
	// Big is the input-token usage reported on a task reply (or, with
	// BigAll, on every reply but a summary), to force auto-compaction.
	Big    int
	BigAll bool
	// HighRule: the Anthropic rule whose reply reports HighTokens.
	HighRule   string
	HighTokens int

	mu   sync.Mutex
	reqs []Request
	log  *os.File
	srv  *http.Server
}

// StartServer listens on a random 127.0.0.1 port; logPath gets one JSON
// line per request. Close stops it.
func StartServer(logPath string) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("scripted model server: %w", err)
	}
	f, err := os.Create(logPath)
	if err != nil {
		ln.Close()
		return nil, err
	}
	s := &Server{URL: "http://" + ln.Addr().String(), Big: 190000, HighTokens: 195000, log: f}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	return s, nil
}

// Close stops the server and closes its log.
func (s *Server) Close() {
	s.srv.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log.Close()
}

// Requests is a copy of every request logged so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

func (s *Server) record(r *http.Request, decision string, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := Request{Seq: len(s.reqs) + 1, Time: time.Now(), Method: r.Method, Path: r.URL.String(), Decision: decision}
	if json.Valid(body) {
		rec.Body = json.RawMessage(body)
	} else if len(body) > 0 {
		rec.Body, _ = json.Marshal(string(body))
	}
	s.reqs = append(s.reqs, rec)
	line, _ := json.Marshal(rec)
	s.log.Write(append(line, '\n'))
}

func readBody(r *http.Request) []byte {
	raw, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	var rd io.Reader
	switch r.Header.Get("Content-Encoding") {
	case "gzip":
		rd, _ = gzip.NewReader(bytes.NewReader(raw))
	case "deflate":
		rd, _ = zlib.NewReader(bytes.NewReader(raw))
	}
	if rd != nil {
		if d, err := io.ReadAll(io.LimitReader(rd, 64<<20)); err == nil {
			return d
		}
	}
	return raw
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body := readBody(r)
	var m map[string]any
	_ = json.Unmarshal(body, &m)
	p := r.URL.Path
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(strings.TrimSuffix(p, "/"), "/models"):
		s.record(r, "models", nil)
		writeJSON(w, map[string]any{"object": "list", "data": []any{map[string]any{"type": "model", "id": "fake-model", "object": "model",
			"display_name": "fake", "created_at": "2025-01-01T00:00:00Z"}}, "models": []any{}, "has_more": false})
	case r.Method != http.MethodPost:
		s.record(r, "other", nil)
		writeJSON(w, map[string]any{})
	case p == "/v1/messages/count_tokens":
		s.record(r, "count_tokens", body)
		writeJSON(w, map[string]any{"input_tokens": 1000})
	case p == "/v1/messages":
		rule, blocks, stop := anthropicPlan(m)
		s.record(r, rule, body)
		tokens := 1000
		if s.HighRule != "" && rule == s.HighRule {
			tokens = s.HighTokens
		}
		anthropicReply(w, m, blocks, stop, tokens)
	case strings.HasSuffix(p, "/responses"):
		d := responsesDecide(m)
		s.record(r, d, body)
		responsesReply(w, m, d, s.usage(d))
	case strings.HasSuffix(p, "/chat/completions"):
		d := chatDecide(m)
		s.record(r, d, body)
		chatReply(w, m, d, s.usage(d))
	case strings.Contains(p, ":streamGenerateContent") || strings.Contains(p, ":generateContent"):
		d := geminiDecide(m)
		s.record(r, d, body)
		model := p[strings.LastIndex(p, "/")+1:]
		model = strings.SplitN(model, ":", 2)[0]
		geminiReply(w, m, d, s.usage(d), strings.Contains(p, ":streamGenerateContent"), model)
	case strings.Contains(p, ":countTokens"):
		s.record(r, "countTokens", body)
		writeJSON(w, map[string]any{"totalTokens": 1000})
	default:
		s.record(r, "unknown", body)
		w.WriteHeader(http.StatusNotFound)
		writeJSON(w, map[string]any{})
	}
}

// usage is the input-token count a reply of this decision reports.
func (s *Server) usage(decision string) int {
	if decision == "task" || (s.BigAll && decision != "summary") {
		return s.Big
	}
	return 2000
}

func writeJSON(w http.ResponseWriter, v any) {
	data, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", fmt.Sprint(len(data)))
	w.Write(data)
}

// sse starts an event stream; the connection closes after it, as the
// runtimes were seen to accept.
func sse(w http.ResponseWriter) func(event string, v any) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Connection", "close")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	return func(event string, v any) {
		data, _ := json.Marshal(v)
		if event != "" {
			fmt.Fprintf(w, "event: %s\n", event)
		}
		fmt.Fprintf(w, "data: %s\n\n", data)
		if fl != nil {
			fl.Flush()
		}
	}
}

// text flattens a message content (string, parts, nested) into its text.
func text(x any) string {
	switch v := x.(type) {
	case nil:
		return ""
	case string:
		return v
	case []any:
		parts := make([]string, 0, len(v))
		for _, i := range v {
			parts = append(parts, text(i))
		}
		return strings.Join(parts, "\n")
	case map[string]any:
		for _, k := range []string{"text", "content", "input_text", "output_text"} {
			if c, ok := v[k]; ok {
				switch c.(type) {
				case string, []any:
					return text(c)
				}
			}
		}
	}
	return ""
}

func isSummaryRequest(hay ...string) bool {
	h := strings.ToLower(strings.Join(hay, "\n"))
	for _, m := range summaryMarkers {
		if strings.Contains(h, strings.ToLower(m)) {
			return true
		}
	}
	return false
}

func list(m map[string]any, k string) []any {
	l, _ := m[k].([]any)
	return l
}

func obj(x any) map[string]any {
	m, _ := x.(map[string]any)
	return m
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func newID(prefix string) string {
	return fmt.Sprintf("%s%x", prefix, time.Now().UnixNano())
}
