package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name     string      `xml:"name,attr"`
		Tests    int         `xml:"tests,attr"`
		Failures int         `xml:"failures,attr"`
		Cases    []junitCase `xml:"testcase"`
	}
	junitCase struct {
		Class   string        `xml:"classname,attr"`
		Name    string        `xml:"name,attr"`
		Failure *junitFailure `xml:"failure,omitempty"`
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
	out := junitSuites{}
	for _, r := range results {
		s := junitSuite{Name: xmlSafe(r.Path)}
		if len(r.Compactions) == 0 {
			// A run without a compaction is said so, not left an empty suite.
			s.Cases = append(s.Cases, junitCase{Class: xmlSafe(r.Path), Name: "no compaction", Skipped: &junitSkipped{Message: verify.NoCompaction}})
			s.Tests++
		}
		for _, c := range r.Compactions {
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
			s.Tests++
			s.Cases = append(s.Cases, tc)
		}
		for _, f := range r.Findings {
			s.Tests++
			s.Failures++
			s.Cases = append(s.Cases, junitCase{Class: xmlSafe(r.Path), Name: fmt.Sprintf("%s at turn %d", f.Kind, f.Turn),
				Failure: &junitFailure{Type: string(f.Kind), Message: xmlSafe(model.Clip(f.Why, 200)), Body: xmlSafe(f.Text)}})
		}
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Suites = append(out.Suites, s)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func firstOr(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// xmlSafe drops what XML 1.0 cannot carry (most control characters) after
// the terminal sanitizer has made them visible.
func xmlSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0xFFFE || r == 0xFFFF {
			return -1
		}
		return r
	}, model.Sanitize(s))
}
