// Package report writes verify's results for people and programs: the
// compact text report, the JSON report (a stable contract, documented in the
// README), Markdown for postmortems, JUnit for CI dashboards, and the
// comparison of runs grouped by a meta field (prompt variants).
//
// It reads only verify's exported Result: nothing here decides a status or
// a verdict. Every string that came from a transcript is sanitized for the
// sink it reaches.
package report
