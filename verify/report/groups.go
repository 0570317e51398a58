package report

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/loupe-dev/loupe/verify"
)

// Group is the comparison of the runs sharing one value of a meta field
// (a compaction prompt variant, a compactor).
type Group struct {
	// Value is the field's value; "(none)" for the runs without the field.
	Value string
	// Missing is set for the group of the runs without the field.
	Missing     bool
	Files       int
	Compactions int
	Violations  int
	// Drops per kind: items not verified / items of that kind.
	Lost, Items map[verify.Kind]int
	// MedianLoss and MeanLoss are over the group's compactions (0 when it
	// has none); the median of an even count is the upper middle one.
	MedianLoss, MeanLoss float64
	// Results are the group's runs, in the order given.
	Results []*verify.Result
}

// noValue is the text reports' name for the group of runs without the field.
const noValue = "(none)"

// Groups compares results grouped by a meta field, sorted by value (the
// runs without the field are the group "(none)").
func Groups(results []*verify.Result, field string) []Group {
	return groupTallies(tallies(results), field)
}

// groupTallies compares runs by their tallies (Groups); a group's Results
// are the runs tallied here, none for merged result lines.
func groupTallies(ts []Tally, field string) []Group {
	byValue := map[string]*Group{}
	losses := map[string][]float64{}
	for _, t := range ts {
		v, key, missing := noValue, "\x00", true // a key no value has
		if x := t.field(field); x != "" {
			v, key, missing = x, x, false
		}
		g := byValue[key]
		if g == nil {
			g = &Group{Value: v, Missing: missing, Lost: map[verify.Kind]int{}, Items: map[verify.Kind]int{}}
			byValue[key] = g
		}
		if t.result != nil {
			g.Results = append(g.Results, t.result)
		}
		g.Files++
		g.Compactions += t.Compactions
		g.Violations += t.Violations
		losses[key] = append(losses[key], t.Losses...)
		for k, n := range t.Items {
			g.Items[k] += n
		}
		for k, n := range t.Lost {
			g.Lost[k] += n
		}
	}
	var out []Group
	for key, g := range byValue {
		ls := losses[key]
		sort.Float64s(ls)
		if len(ls) > 0 {
			g.MedianLoss = ls[len(ls)/2]
			sum := 0.0
			for _, l := range ls {
				sum += l
			}
			g.MeanLoss = sum / float64(len(ls))
		}
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Value != out[j].Value {
			return out[i].Value < out[j].Value
		}
		return out[i].Missing // a run whose value is "(none)" comes after
	})
	return out
}

// WriteGroups writes the comparison table a prompt engineer reads: per
// group, runs, compactions, violate rate, drop rate per kind, mean and
// median loss; the same columns, in the same words, as the Markdown table
// (groupHead, groupRow).
func WriteGroups(w io.Writer, results []*verify.Result, field string) error {
	return writeGroups(w, tallies(results), field)
}

func writeGroups(w io.Writer, ts []Tally, field string) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(groupHead(safe(field)), "\t"))
	for _, g := range groupTallies(ts, field) {
		fmt.Fprintln(tw, strings.Join(groupRow(g, safe(g.Value)), "\t"))
	}
	return tw.Flush()
}

// groupHead is the group table's header: the field, then the counts.
func groupHead(field string) []string {
	head := []string{field, "runs", "compactions", "violate"}
	for _, k := range verify.Kinds {
		head = append(head, string(k)+" lost")
	}
	return append(head, "mean loss", "median loss")
}

// groupRow is one group's row under groupHead, its value written as given.
func groupRow(g Group, value string) []string {
	row := []string{value, fmt.Sprint(g.Files), fmt.Sprint(g.Compactions),
		fmt.Sprintf("%.0f%% (%d)", 100*ratio(g.Violations, g.Compactions), g.Violations)}
	for _, k := range verify.Kinds {
		if g.Items[k] == 0 {
			row = append(row, "—")
			continue
		}
		row = append(row, fmt.Sprintf("%.0f%% (%d/%d)", 100*ratio(g.Lost[k], g.Items[k]), g.Lost[k], g.Items[k]))
	}
	return append(row, fmt.Sprintf("%.1f%%", 100*g.MeanLoss), fmt.Sprintf("%.1f%%", 100*g.MedianLoss))
}

// Fields lists the meta fields the runs have that --group-by can group
// on (files[].meta in the JSON report), sorted; "skipped" is a count, not
// a variant, and is left out.
func Fields(results []*verify.Result) []string {
	set := map[string]bool{}
	for _, r := range results {
		if r.Transcript == nil {
			continue
		}
		for k := range metaFields(r.Transcript.Meta) {
			if k != "skipped" {
				set[k] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// HasField reports whether some run has the meta field: grouping on one
// no run has puts every run in the one group "(none)".
func HasField(results []*verify.Result, field string) bool {
	for _, r := range results {
		if r.Transcript != nil && r.Transcript.Meta.Field(field) != "" {
			return true
		}
	}
	return false
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// The JSON form of a group (`groups[]`, with --group-by).
type (
	// JSONGroup compares the runs sharing one value of the field. A rate
	// is null when there is nothing to divide by.
	JSONGroup struct {
		// Value is null for the runs without the field.
		Value           *string                   `json:"value"`
		Runs            int                       `json:"runs"`
		Compactions     int                       `json:"compactions"`
		Violations      int                       `json:"violations"`
		ViolateRate     *float64                  `json:"violate_rate"`
		MeanLossRatio   *float64                  `json:"mean_loss_ratio"`
		MedianLossRatio *float64                  `json:"median_loss_ratio"`
		Kinds           map[verify.Kind]JSONDrops `json:"kinds"`
	}
	// JSONDrops counts one kind's items in a group, and the share of them
	// a summary did not verify.
	JSONDrops struct {
		Items    int      `json:"items"`
		Lost     int      `json:"lost"`
		DropRate *float64 `json:"drop_rate"`
	}
)

func groupsJSON(gs []Group) []JSONGroup {
	out := []JSONGroup{}
	for _, g := range gs {
		jg := JSONGroup{Runs: g.Files, Compactions: g.Compactions, Violations: g.Violations,
			ViolateRate: rate(g.Violations, g.Compactions), Kinds: map[verify.Kind]JSONDrops{}}
		if !g.Missing {
			v := g.Value
			jg.Value = &v
		}
		if g.Compactions > 0 {
			mean, median := round4(g.MeanLoss), round4(g.MedianLoss)
			jg.MeanLossRatio, jg.MedianLossRatio = &mean, &median
		}
		for _, k := range verify.Kinds {
			jg.Kinds[k] = JSONDrops{Items: g.Items[k], Lost: g.Lost[k], DropRate: rate(g.Lost[k], g.Items[k])}
		}
		out = append(out, jg)
	}
	return out
}

// rate is a/b rounded to four places, nil when b is 0.
func rate(a, b int) *float64 {
	if b == 0 {
		return nil
	}
	r := round4(float64(a) / float64(b))
	return &r
}
