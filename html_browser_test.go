package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The HTML report in a real browser (issue 22): Debian's chromium,
// headless, with every host mapped to nowhere. Gated on LOUPE_BROWSER=1
// (.ci/run installs chromium and sets it); LOUPE_SCREENS=DIR keeps the
// screenshots there.
//
// What it checks, and how, for the page of the migration sample and the
// page of a transcript full of hostile strings:
//   - it renders: --dump-dom gives the DOM after load, and it has the
//     summary, the timeline and the lineage map;
//   - no script from the transcript ran: the hostile strings set
//     document.title to "pwned" if they run (<script>, <img onerror>, a
//     </style> breakout); the dumped DOM's title must still be "loupe
//     report", and the strings must be in it as text (&lt;script&gt;);
//   - no request left the page: chromium writes a NetLog
//     (--log-net-log), every request it tried with its URL and the
//     network isolation key of the page that made it; the page's own are
//     keyed by its file:// site (chromium's background requests are not),
//     and there must be none but file: and data: ones.
//   - no element from the transcript is in the DOM (a <script>, <img>, a
//     javascript: link, an on* handler): text's < is &lt; in it;
//   - the checks can fail: a control page with an <img> from the network
//     and an inline script, and no CSP, must show all three.

// headless runs chromium on page with args, returning what it printed
// and the requests the page made (see pageRequests).
func headless(t *testing.T, page string, args ...string) (stdout string, requests []string) {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("LOUPE_BROWSER=1 but no chromium on PATH (apt-get install -y chromium)")
	}
	dir := t.TempDir()
	netlog := filepath.Join(dir, "netlog.json")
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
		"--disable-sync", "--no-first-run", "--user-data-dir=" + filepath.Join(dir, "profile"),
		"--host-resolver-rules=MAP * ~NOTFOUND", "--log-net-log=" + netlog}
	cmd := exec.CommandContext(ctx, bin, append(append(base, args...), "file://"+page)...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	return string(out), pageRequests(t, netlog)
}

// pageRequests reads a NetLog and returns the URLs of the requests the
// page (a file:// document) made, other than to file: and data:.
func pageRequests(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nl struct {
		Constants struct {
			LogEventTypes map[string]int `json:"logEventTypes"`
		} `json:"constants"`
		Events []struct {
			Type   int            `json:"type"`
			Params map[string]any `json:"params"`
		} `json:"events"`
	}
	// A NetLog cut short (the browser exits as it writes) lacks its closing "]}".
	if err := json.Unmarshal(b, &nl); err != nil {
		s := strings.TrimRight(strings.TrimSpace(string(b)), ",")
		if err := json.Unmarshal([]byte(s+"]}"), &nl); err != nil {
			t.Fatalf("netlog: %v", err)
		}
	}
	start, ok := nl.Constants.LogEventTypes["URL_REQUEST_START_JOB"]
	if !ok {
		t.Fatal("netlog: no URL_REQUEST_START_JOB event type")
	}
	var out []string
	for _, e := range nl.Events {
		if e.Type != start {
			continue
		}
		url, _ := e.Params["url"].(string)
		nik, _ := e.Params["network_isolation_key"].(string)
		if strings.HasPrefix(nik, "file://") && !strings.HasPrefix(url, "file:") && !strings.HasPrefix(url, "data:") {
			out = append(out, url)
		}
	}
	return out
}

var (
	titleRE  = regexp.MustCompile(`<title>([^<]*)</title>`)
	activeRE = regexp.MustCompile(`<script|<img|<link|<iframe|<a\s[^>]*href="javascript:|<[a-z][^<>]*\son[a-z]+=`)
)

func domTitle(dom string) string {
	if m := titleRE.FindStringSubmatch(dom); m != nil {
		return m[1]
	}
	return ""
}

// hostileHTMLRun is the violating corpus run with hostile strings in
// the commitment the summary drops (so in the item, its evidence, the
// reasons, the finding and the lineage map) and in a prompt variant.
func hostileHTMLRun(t *testing.T, dir string) string {
	t.Helper()
	h := `<script>document.title='pwned'</script><img src=x onerror="document.title='pwned'"></style>` +
		`<img src="http://evil.example/t.png"> [x](javascript:alert(1)) <a href="javascript:alert(1)">x</a> @octocat ` + "\u202eevil"
	q, _ := json.Marshal(h)
	src := strings.ReplaceAll(string(readFile(t, violateRun)), "switch the DNS record", "switch the DNS record "+string(q[1:len(q)-1]))
	p := filepath.Join(dir, "hostile.jsonl")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return withMeta(t, filepath.Join(dir, "hostile-meta.jsonl"), p, `"prompt":"<script>document.title='pwned'</script>"`)
}

func TestHTMLReportInBrowser(t *testing.T) {
	if os.Getenv("LOUPE_BROWSER") != "1" {
		t.Skip("set LOUPE_BROWSER=1 to check the HTML report in headless chromium")
	}
	dir := t.TempDir()
	screens := os.Getenv("LOUPE_SCREENS")
	if screens == "" {
		screens = dir
	}

	// The control: without loupe's escaping and CSP, the checks see both.
	control := filepath.Join(dir, "control.html")
	if err := os.WriteFile(control, []byte(`<!DOCTYPE html><html><head><title>loupe report</title></head><body>`+
		`<img src="http://evil.example/t.png"><script>document.title='pwned'</script></body></html>`), 0o644); err != nil {
		t.Fatal(err)
	}
	dom, reqs := headless(t, control, "--dump-dom")
	if domTitle(dom) != "pwned" || len(reqs) == 0 || activeRE.FindString(dom) == "" {
		t.Fatalf("the control page should run its script and try its request: title %q, requests %q", domTitle(dom), reqs)
	}

	for _, c := range []struct {
		name string
		args []string
		has  []string
	}{
		{"migration", []string{"sampledata/migration.jsonl.gz"},
			[]string{`id="summary"`, `class="timeline"`, `class="map"`, `class="cell st-dropped"`, "re-run the migration"}},
		{"hostile", []string{"--group-by", "prompt", hostileHTMLRun(t, dir)},
			[]string{`id="summary"`, `class="timeline"`, `class="map"`, "&lt;script&gt;document.title='pwned'&lt;/script&gt;",
				"&lt;img src=x onerror=\"document.title='pwned'\"&gt;&lt;/style&gt;", "[x](javascript:alert(1))", "@octocat", "⟨U+202E⟩evil"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runCLI(t, "", append([]string{"verify", "--format", "html"}, c.args...)...)
			if r.code != exitViolation {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			page := filepath.Join(dir, c.name+".html")
			if err := os.WriteFile(page, []byte(r.stdout), 0o644); err != nil {
				t.Fatal(err)
			}
			dom, reqs := headless(t, page, "--dump-dom")
			if got := domTitle(dom); got != "loupe report" {
				t.Errorf("the title is %q: a script ran", got)
			}
			for _, want := range c.has {
				if !strings.Contains(dom, want) {
					t.Errorf("the rendered DOM has no %q", want)
				}
			}
			// In the serialized DOM, text's < is &lt;: a real element starts with <.
			if m := activeRE.FindString(dom); m != "" {
				t.Errorf("the rendered DOM has an element from the transcript: %q", m)
			}
			if len(reqs) > 0 {
				t.Errorf("the page tried requests: %q", reqs)
			}
			png := filepath.Join(screens, "html-"+c.name+".png")
			_, reqs = headless(t, page, "--window-size=1280,2000", "--screenshot="+png)
			if st, err := os.Stat(png); err != nil || st.Size() < 10_000 {
				t.Errorf("no screenshot: %v", err)
			}
			if len(reqs) > 0 {
				t.Errorf("the page tried requests while drawn: %q", reqs)
			}
		})
	}
}
