package lang

import (
	"slices"
	"testing"
)

func TestLowerCaseTrackerKeys(t *testing.T) {
	for text, want := range map[string][]string{
		"Closed av-36i8 and filed av-bv4.12 for the SDK work.":  {"av-36i8", "av-bv4.12"},
		"bd-a1b2 depends on bd-c3d4":                            {"bd-a1b2", "bd-c3d4"},
		"re-run the utf-8 check on node-18 with gpt-4o, pre-v2": nil,
		"see https://example.com/av-36i8 and src/av-36i8.go":    nil,
		"the well-known x86-64 build":                           nil,
	} {
		var got []string
		for _, id := range ExtractIdents(text) {
			if id.Class == ClassTicket {
				got = append(got, id.Value)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: tickets %v, want %v", text, got, want)
		}
	}
}
