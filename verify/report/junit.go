package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr,omitempty"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name       string           `xml:"name,attr"`
		Tests      int              `xml:"tests,attr"`
		Failures   int              `xml:"failures,attr"`
		Errors     int              `xml:"errors,attr,omitempty"`
		Properties *junitProperties `xml:"properties,omitempty"`
		Cases      []junitCase      `xml:"testcase"`
	}
	junitProperties struct {
		List []junitProperty `xml:"property"`
	}
	junitProperty struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	}
	junitCase struct {
		Class   string        `xml:"classname,attr"`
		Name    string        `xml:"name,attr"`
		Failure *junitFailure `xml:"failure,omitempty"`
		Error   *junitFailure `xml:"error,omitempty"`
		Skipped *junitSkipped `xml:"skipped,omitempty"`
		Out     string        `xml:"system-out,omitempty"`
	}
	junitSkipped struct {
		Message string `xml:"message,attr"`
	}
	junitFailure struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Body    string `xml:",chardata"`
	}
)

// WriteJUnit writes one test case per compaction (a violation is a
// failure listing every reason), for CI dashboards.
func WriteJUnit(w io.Writer, results []*verify.Result) error {
	return (&Report{Results: results}).JUnit(w)
}

// JUnit writes the report as JUnit XML: a suite per run, with a test case
// per compaction (a violation is a failure listing every reason) and per
// finding (a failure); a file that could not be verified is a suite whose
// one case is an error. With GroupBy, the runs' cases are gathered in a
// suite per group value, named FIELD=VALUE, whose properties carry the
// comparison (runs, violate rate, drop rate per kind, mean and median
// loss), so that a dashboard shows each prompt variant as a suite.
func (rep *Report) JUnit(w io.Writer) error {
	out := junitSuites{}
	add := func(s junitSuite) {
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
		out.Suites = append(out.Suites, s)
	}
	if rep.GroupBy != "" {
		for _, g := range Groups(rep.Results, rep.GroupBy) {
			s := junitSuite{Name: xmlSafe(rep.GroupBy + "=" + g.Value), Properties: groupProperties(rep.GroupBy, g)}
			for _, r := range g.Results {
				junitCases(&s, rep, r)
			}
			add(s)
		}
	} else {
		for _, s := range rep.junitRunSuites() {
			add(s)
		}
	}
	for _, u := range rep.Unverified {
		add(junitSuite{Name: xmlSafe(u.Path), Tests: 1, Errors: 1, Cases: []junitCase{{Class: xmlSafe(u.Path), Name: "not verified",
			Error: &junitFailure{Type: "not_verified", Message: xmlSafe(model.Clip(u.Error, 200)), Body: xmlSafe(u.Error)}}}})
	}
	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(&buf)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	buf.WriteString("\n")
	_, err := w.Write(escapeInvisible(buf.Bytes(), xmlEscape))
	return err
}

// junitRunSuites is a suite per run, a sub-agent's cases in its session's
// suite (their class names the sub-agent's file) when the session is in
// the report. A sub-agent with no compaction and no finding adds no case:
// a project's thousands of such files are one property of their session
// ("subagents"), not thousands of skipped cases.
func (rep *Report) junitRunSuites() []junitSuite {
	var out []junitSuite
	at := map[string]int{} // a session's suite, by path
	for _, r := range rep.Results {
		if !rep.shows(r) || rep.Parents[r.Path] != "" {
			continue
		}
		at[r.Path] = len(out)
		s := junitSuite{Name: xmlSafe(r.Path)}
		junitCases(&s, rep, r)
		out = append(out, s)
	}
	subs := subagents(rep.tallies())
	for _, r := range rep.Results {
		parent := rep.Parents[r.Path]
		if parent == "" || !rep.shows(r) {
			continue
		}
		i, ok := at[parent]
		if !ok {
			// Its session is not in the report: a suite of its own.
			s := junitSuite{Name: xmlSafe(r.Path)}
			junitCases(&s, rep, r)
			out = append(out, s)
			continue
		}
		if len(r.Compactions) > 0 || len(r.Findings) > 0 {
			junitCases(&out[i], rep, r)
		}
	}
	for path, i := range at {
		if s := subs[path]; s != nil {
			out[i].Properties = &junitProperties{List: []junitProperty{{Name: "subagents", Value: s.line()}}}
		}
	}
	return out
}

// junitCases adds a run's cases to a suite.
func junitCases(s *junitSuite, rep *Report, r *verify.Result) {
	if len(r.Compactions) == 0 && !rep.OnlyViolations {
		// A run without a compaction is said so, not left an empty suite.
		s.Cases = append(s.Cases, junitCase{Class: xmlSafe(r.Path), Name: "no compaction", Skipped: &junitSkipped{Message: verify.NoCompaction}})
		s.Tests++
	}
	memo := newSinceMemo(rep.EvidenceAll)
	for _, c := range r.Compactions {
		if !rep.showsCompaction(c) {
			continue
		}
		since := memo.compaction(c)
		tc := junitCase{Class: xmlSafe(r.Path), Name: fmt.Sprintf("compaction %d (turn %d)", c.Seq, c.Turn),
			Out: fmt.Sprintf("verdict %s, loss %.1f%%, %s", c.Verdict, 100*c.LossRatio, c.ItemsNote())}
		if c.Verdict == verify.Violate {
			var body []string
			for _, reason := range c.Reasons {
				body = append(body, xmlSafe(reason))
			}
			tc.Failure = &junitFailure{Type: "violate", Message: xmlSafe(model.Clip(firstOr(c.Reasons), 200)), Body: strings.Join(body, "\n")}
			s.Failures++
		}
		// Review items are listed in the case's output, never as a failure.
		items := c.ItemResults()
		for i := range items {
			if it := &items[i]; it.Review {
				tc.Out += "\n" + xmlSafe(reviewNote(it, since[i]))
			}
		}
		s.Tests++
		s.Cases = append(s.Cases, tc)
	}
	for _, f := range r.Findings {
		s.Tests++
		s.Failures++
		s.Cases = append(s.Cases, junitCase{Class: xmlSafe(r.Path), Name: fmt.Sprintf("%s at turn %d", f.Kind, f.Turn),
			Failure: &junitFailure{Type: string(f.Kind), Message: xmlSafe(model.Clip(f.Why, 200)), Body: xmlSafe(f.Text)}})
	}
}

// groupProperties are a group's numbers, as JUnit properties; a rate with
// nothing to divide by is left out.
func groupProperties(field string, g Group) *junitProperties {
	ps := []junitProperty{{"group_by", xmlSafe(field)}, {"value", xmlSafe(g.Value)},
		{"runs", fmt.Sprint(g.Files)}, {"compactions", fmt.Sprint(g.Compactions)}, {"violations", fmt.Sprint(g.Violations)}}
	num := func(name string, x *float64) {
		if x != nil {
			ps = append(ps, junitProperty{name, strconv.FormatFloat(*x, 'f', -1, 64)})
		}
	}
	num("violate_rate", rate(g.Violations, g.Compactions))
	if g.Compactions > 0 {
		mean, median := round4(g.MeanLoss), round4(g.MedianLoss)
		num("mean_loss_ratio", &mean)
		num("median_loss_ratio", &median)
	}
	for _, k := range verify.Kinds {
		num(string(k)+"_drop_rate", rate(g.Lost[k], g.Items[k]))
	}
	return &junitProperties{ps}
}

func firstOr(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// xmlSafe makes transcript text fit for a JUnit dashboard, which shows the
// text it decodes: the terminal sanitizer makes controls, bidi and
// invisible characters visible (␛, ⟨U+202E⟩) — a character reference would
// decode back into the character itself — and what XML 1.0 cannot carry is
// dropped. The few invisible characters Sanitize keeps (a zero-width joiner
// inside an emoji) are written as character references (escapeInvisible).
func xmlSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0xFFFE || r == 0xFFFF {
			return -1
		}
		return r
	}, model.Sanitize(s))
}
