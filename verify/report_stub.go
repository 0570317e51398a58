package verify

import (
	"errors"
	"io"
)

// WriteMarkdown writes a postmortem-ready Markdown report.
func WriteMarkdown(w io.Writer, results []*Result) error { return errors.New("not yet") }

// WriteJUnit writes one test case per compaction.
func WriteJUnit(w io.Writer, results []*Result) error { return errors.New("not yet") }

// WriteGroups writes the comparison table.
func WriteGroups(w io.Writer, results []*Result, field string) error { return errors.New("not yet") }
