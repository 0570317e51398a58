// Package report writes verify's results for people and programs: the
// compact text report, the JSON report (a stable contract, documented in the
// README), Markdown for postmortems, JUnit for CI dashboards, and the
// comparison of runs grouped by a meta field (prompt variants).
//
// The files: report.go (the Report every format writes), text.go,
// markdown.go and summary.go, json.go and json_stream.go (the JSON
// contract, written a list element at a time), json_refs.go (an item in
// full once, then by reference while unchanged), since.go (the same rule
// for text, Markdown and JUnit: "unchanged since #N"), junit.go, html.go,
// lineage.go (the lineage map, the drop-rate bars), groups.go (the
// comparison by a meta field), tally.go (the counts the totals, groups and
// bars are made from; a Claude Code sub-agent's counted under its
// session), jsonl.go (a run's result line, `verify --format jsonl`),
// merge.go (`loupe report`: result lines of many shards into one report,
// through the same tallies), rehydrate.go, verdict.go, escape.go.
//
// It reads only verify's exported Result: nothing here decides a status or
// a verdict. Every string that came from a transcript is sanitized for the
// sink it reaches.
package report
