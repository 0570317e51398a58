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
	Value       string
	Files       int
	Compactions int
	Violations  int
	// Drops per kind: items not verified / items of that kind.
	Lost, Items map[verify.Kind]int
	MedianLoss  float64
}

// Groups compares results grouped by a meta field.
func Groups(results []*verify.Result, field string) []Group {
	byValue := map[string]*Group{}
	losses := map[string][]float64{}
	for _, r := range results {
		v := "(none)"
		if r.Transcript != nil {
			if x := r.Transcript.Meta.Field(field); x != "" {
				v = x
			}
		}
		g := byValue[v]
		if g == nil {
			g = &Group{Value: v, Lost: map[verify.Kind]int{}, Items: map[verify.Kind]int{}}
			byValue[v] = g
		}
		g.Files++
		for _, c := range r.Compactions {
			g.Compactions++
			if c.Verdict == verify.Violate {
				g.Violations++
			}
			losses[v] = append(losses[v], c.LossRatio)
			for _, it := range c.Items {
				g.Items[it.Kind]++
				if !it.Status.Verified() {
					g.Lost[it.Kind]++
				}
			}
		}
	}
	var out []Group
	for v, g := range byValue {
		ls := losses[v]
		sort.Float64s(ls)
		if len(ls) > 0 {
			g.MedianLoss = ls[len(ls)/2]
		}
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Value < out[j].Value })
	return out
}

// WriteGroups writes the comparison table a prompt engineer reads: per
// group, compactions, violate rate, drop rate per kind and median loss.
func WriteGroups(w io.Writer, results []*verify.Result, field string) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	head := []string{safe(field), "files", "compactions", "violate"}
	for _, k := range verify.Kinds {
		head = append(head, string(k)+" lost")
	}
	head = append(head, "median loss")
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, g := range Groups(results, field) {
		row := []string{safe(g.Value), fmt.Sprint(g.Files), fmt.Sprint(g.Compactions),
			fmt.Sprintf("%.0f%% (%d)", 100*ratio(g.Violations, g.Compactions), g.Violations)}
		for _, k := range verify.Kinds {
			if g.Items[k] == 0 {
				row = append(row, "—")
				continue
			}
			row = append(row, fmt.Sprintf("%.0f%% (%d/%d)", 100*ratio(g.Lost[k], g.Items[k]), g.Lost[k], g.Items[k]))
		}
		row = append(row, fmt.Sprintf("%.1f%%", 100*g.MedianLoss))
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	return tw.Flush()
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
