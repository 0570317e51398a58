package lang

import (
	"reflect"
	"testing"
)

// DESIGN.md, "Rulings on wording", identifiers: change and ticket numbers
// (CHG0012345, INC-2231), dotted host names with a digit-bearing label,
// and not a test runner's own numbering.
func TestRulingIdentifierClasses(t *testing.T) {
	cases := []struct {
		text string
		want []Ident
	}{
		{"Update change CHG0012345 with the diff", []Ident{{"CHG0012345", ClassTicket}}},
		{"See INC-2231 for the outage", []Ident{{"INC-2231", ClassTicket}}},
		{"Restart the agent on ci-runner-14.internal", []Ident{{"ci-runner-14.internal", ClassURL}}},
		{"Fail over to db-01.prod", []Ident{{"db-01.prod", ClassURL}}},
		{"Edit main2.go", []Ident{{"main2.go", ClassPath}}},
		{"Running test #12 of 40", nil},
		{"Step #4 failed", nil},
		{"Fix #12 in the tracker", []Ident{{"#12", ClassPR}}},
		{"SHA256 and ISO8601 are standards", nil},
		// A pushed tag is no branch: made by "git tag", or a release version.
		{"Release with `git tag v0.2.0 && git push origin v0.2.0`", nil},
		{"then git push origin 1.4.2", nil},
		{"then git push origin feat-login", []Ident{{"feat-login", ClassBranch}}},
	}
	for _, c := range cases {
		if got := ExtractIdents(c.text); !reflect.DeepEqual(got, c.want) {
			t.Errorf("ExtractIdents(%q) = %+v, want %+v", c.text, got, c.want)
		}
	}
}
