package verify_test

import (
	"errors"
	"fmt"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// A runtime gates a summary before its planner reads it. The summary kept
// the decision ("schema diff reviewed") and lost the obligation ("re-run the
// migration"); the compactor claims it kept it.
func ExampleCheck() {
	source := []model.Event{
		&model.Message{Base: model.Base{Turn: 1}, Role: model.RoleUser, Text: "Add the orders table. Never push to main."},
		&model.Message{Base: model.Base{Turn: 210}, Role: model.RoleAssistant,
			Text: "Schema diff is up for review; will re-run the migration after the schema diff is reviewed."},
		&model.Message{Base: model.Base{Turn: 880}, Role: model.RoleUser, Text: "Schema diff reviewed, looks good."},
	}
	c := &model.Compaction{Base: model.Base{Turn: 900}, Seq: 4,
		Summary:    "The orders table was added and the schema diff reviewed. Never push to main.",
		SelfReport: &model.SelfReport{Retained: []string{"re-run the migration"}}}

	res := verify.Check(source, c, verify.Options{})
	fmt.Println(res.Verdict)
	for _, it := range res.Items {
		fmt.Printf("%s %q: %s (self-report: %s)\n", it.Kind, it.Key, it.Status, it.SelfReport)
	}
	err := res.Admit("planner")
	var v *verify.InvariantViolation
	fmt.Println(errors.As(err, &v), len(v.Reasons) > 1)
	// Output:
	// violate
	// constraint "never push main": retained (self-report: underclaim)
	// commitment "re-run migration": dropped (self-report: overclaim)
	// true true
}
