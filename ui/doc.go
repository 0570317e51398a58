// Package ui is loupe's inspector: a Bubble Tea program that shows, for each
// compaction of a run, the source it replaced, the summary it produced and
// the preservation set the verifier checked, side by side.
//
// It renders a *verify.Result and never decides a verdict or parses a file:
// the caller passes a LoadFunc that reads and verifies the transcript, and
// the inspector runs it off the UI goroutine with visible progress.
//
// Layout of the package:
//
//	ui.go        Model, the one tea.Model: state, routing
//	selection.go the selected compaction and item, and the panes following
//	handlers.go  keys, mouse, stepping through compactions, violations only
//	overlaykeys.go  opening and answering the overlays
//	diffview.go  the diff overlay's state: span or summary diff, retries
//	actions.go   copy (y), $PAGER (p), $EDITOR (e)
//	arriving.go  verdicts shown as they arrive, while the run is verified
//	picker.go    the session chooser, verified in the background
//	follow.go    following a live file: polls, reloads, keeping the place
//	view.go      View: header rows, pane boxes, tabs, footer, screens
//	keys.go      KeyMap: every binding, feeding both matching and help
//	theme.go     every colour, attribute and glyph; SGR prefixes
//	layout.go    size arithmetic (wide three-pane layout, tabs below 120)
//	pane.go      the virtualized pane all views scroll with
//	text.go      sanitized styled segments, wrapping, row writing
//	source.go    the source pane (lazy, cached event blocks)
//	summary.go   the summary pane (evidence spans, section tags)
//	preserve.go  the preservation-set pane
//	list.go      static selectable lists (preservation, findings, lineage)
//	overlays.go  help, findings, problems and lineage overlays
//	diff.go      the word diff engine, and the replaced span against its summary
//	diffsum.go   the previous summary against this one, lost items marked
//	search.go    search in a pane, and the search input
//	timeline.go  the header, the timeline of compactions, the detail row
//	commands.go  every tea.Cmd that does I/O or heavy work; the loader's Progress
//	msgs.go      the messages those commands send back
//
// Rules the code keeps: no I/O and no work proportional to the transcript in
// Update or View; every transcript string passes model.Sanitize before it is
// drawn; meaning is never carried by colour alone.
package ui
