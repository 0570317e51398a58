package ui

import (
	"context"
	"io"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// Progress is how far a load has come: the phase ("reading", "verifying")
// and, while reading, the bytes read and the total (0 when unknown).
type Progress struct {
	Phase       string
	Read, Total int64
}

// LoadFunc opens, reads and verifies a transcript, reporting progress. The
// inspector runs it off the UI goroutine; it is the only way the ui package
// gets data, so the ui never parses a file itself.
type LoadFunc func(report func(Progress)) (*verify.Result, error)

// Session is one transcript a directory holds, for the picker.
type Session struct {
	Name, Detail string
	Load         LoadFunc
}

// Options configure the inspector.
type Options struct {
	// Title names what is inspected (a file name, "migration (built-in
	// sample)").
	Title string
	// Load produces the result to inspect.
	Load LoadFunc
	// Sessions, when there are two or more, are offered in a picker first.
	Sessions []Session
	// Result, when set, is shown at once (tests, embedding).
	Result *verify.Result
	// Light starts with the light palette until the terminal answers the
	// background-colour query.
	Light bool
	// NoColor draws with text attributes only (NO_COLOR).
	NoColor bool
	// Pager is the command `e` runs, with the file appended (default
	// less -R).
	Pager []string
	// TempDir holds the pager's files (default os.TempDir).
	TempDir string
	// DiffLimit is the word diff's deadline (default 3s).
	DiffLimit time.Duration
}

type state int

const (
	stateLoading state = iota
	statePicker
	stateError
	stateReady
)

type overlay int

const (
	ovNone overlay = iota
	ovHelp
	ovFindings
	ovLineage
	ovDiff
)

// searchState is a search in one pane: its query and where it matched.
type searchState struct {
	query   string
	matches []pos
	cur     int
	pending bool
	capped  bool
}

// ovSlot is the search slot of the overlay (after the panes').
const ovSlot = numPanes

// Model is the inspector: the one tea.Model. It routes messages, owns focus
// and layout, and talks to the panes by direct calls.
type Model struct {
	opt    Options
	keys   KeyMap
	th     *theme
	isDark bool
	w, h   int
	lay    layout

	st       state
	loadReq  int
	loadCh   chan tea.Msg
	progress Progress
	err      error
	picker   *listView
	pickPane *pane

	res *verify.Result
	t   *model.Transcript
	ci  int // selected compaction (index in res.Compactions), -1 for none

	src     *sourceView
	sum     *summaryView
	items   *listView
	panes   [numPanes]*pane
	focus   int
	selItem int // index in the compaction's Items, -1 for none

	ov        overlay
	ovView    *listView
	ovPane    *pane
	lineageID string

	diffReq     int
	diff        *diffResult
	diffPending bool

	searching bool
	input     lineInput
	search    [numPanes + 1]searchState
	searchReq int

	// flag is the finding jumped to, shown in a banner until esc.
	flag *verify.RunFinding

	status    string
	statusSeq int
	statusTTL time.Duration
}

// New returns the inspector for opt.
func New(opt Options) *Model {
	if opt.DiffLimit == 0 {
		opt.DiffLimit = diffLimit
	}
	m := &Model{opt: opt, keys: DefaultKeyMap(), isDark: !opt.Light, ci: -1, selItem: -1, focus: paneItems, statusTTL: 4 * time.Second}
	m.th = newTheme(m.isDark, opt.NoColor)
	switch {
	case opt.Result != nil:
		m.setResult(opt.Result)
	case len(opt.Sessions) > 1:
		m.st = statePicker
		m.picker = &listView{sel: -1, gutter: true}
		for i, s := range opt.Sessions {
			m.picker.add(i, lineOf(oneLine(s.Name), stHeading), lineOf("  "+oneLine(s.Detail), stSubtle))
		}
		m.picker.sel = m.picker.first()
		m.pickPane = newPane(m.picker)
	}
	return m
}

// Run runs the inspector on a terminal until the user quits.
func Run(ctx context.Context, opt Options, in io.Reader, out io.Writer) error {
	popts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithOutput(out)}
	if in != nil {
		popts = append(popts, tea.WithInput(in))
	}
	if opt.NoColor {
		popts = append(popts, tea.WithColorProfile(colorprofile.ASCII))
	}
	return runProgram(opt, popts...)
}

// runProgram runs the inspector with the program options given (tests add a
// window size, which a terminal would report).
func runProgram(opt Options, popts ...tea.ProgramOption) error {
	final, err := tea.NewProgram(New(opt), popts...).Run()
	if err != nil {
		return err
	}
	// The user read why the transcript could not be opened and quit: the
	// command still failed.
	if m, ok := final.(*Model); ok && m.st == stateError {
		return &OpenError{Title: m.opt.Title, Err: m.err}
	}
	return nil
}

// OpenError is what Run returns when the inspector showed that it could not
// open its transcript.
type OpenError struct {
	Title string
	Err   error
}

func (e *OpenError) Error() string { return "could not open " + e.Title + ": " + e.Err.Error() }

// Unwrap returns the loader's error.
func (e *OpenError) Unwrap() error { return e.Err }

// Init asks the terminal for its background and starts the load.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor}
	if m.st == stateLoading && m.opt.Load != nil {
		cmds = append(cmds, m.startLoad(m.opt.Load))
	}
	return tea.Batch(cmds...)
}

func (m *Model) startLoad(load LoadFunc) tea.Cmd {
	m.loadReq++
	m.st = stateLoading
	m.progress = Progress{Phase: "reading"}
	return loadCmd(m.loadReq, load)
}

// Update routes a message to the handler that owns it.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		first := m.w == 0
		m.w, m.h = msg.Width, msg.Height
		m.relayout()
		m.keepSelectionVisible(first)
	case tea.BackgroundColorMsg:
		m.setDark(msg.IsDark())
	case tea.FocusMsg:
		return m, tea.RequestBackgroundColor // the terminal's theme may have changed
	case loadStartedMsg:
		if msg.req == m.loadReq {
			m.loadCh = msg.ch
			return m, waitLoad(msg.ch)
		}
	case progressMsg:
		if msg.req == m.loadReq {
			m.progress = msg.progress
			return m, waitLoad(m.loadCh)
		}
	case loadedMsg:
		return m, m.handleLoaded(msg)
	case eventLoadedMsg:
		return m, m.handleEventLoaded(msg)
	case diffMsg:
		m.handleDiff(msg)
	case searchMsg:
		m.handleSourceSearch(msg)
	case pagerReadyMsg:
		if msg.err != nil {
			return m, m.setStatus("pager: " + msg.err.Error())
		}
		return m, pagerExecCmd(m.opt.Pager, msg.path)
	case pagerDoneMsg:
		cmds := []tea.Cmd{removeCmd(msg.path)}
		if msg.err != nil {
			cmds = append(cmds, m.setStatus("pager: "+msg.err.Error()))
		}
		return m, tea.Batch(cmds...)
	case statusMsg:
		return m, m.setStatusTTL(msg.text, msg.ttl)
	case clearStatusMsg:
		if msg.seq == m.statusSeq {
			m.status = ""
		}
	case tea.MouseWheelMsg:
		m.handleWheel(msg.Mouse())
	case tea.MouseClickMsg:
		return m, m.handleClick(msg.Mouse())
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case tea.PasteMsg:
		if m.searching {
			m.input.insert(msg.Content)
		}
	}
	return m, nil
}

func (m *Model) setDark(dark bool) {
	if dark == m.isDark && m.th != nil {
		return
	}
	m.isDark = dark
	m.th = newTheme(dark, m.opt.NoColor)
}

func (m *Model) handleLoaded(msg loadedMsg) tea.Cmd {
	if msg.req != m.loadReq {
		return nil
	}
	m.loadCh = nil
	if msg.err != nil || msg.res == nil {
		m.st, m.err = stateError, msg.err
		if m.err == nil {
			m.err = errNoResult
		}
		return nil
	}
	m.setResult(msg.res)
	return nil
}

type constError string

func (e constError) Error() string { return string(e) }

const errNoResult = constError("the loader returned no result")

// setResult shows res, opening on its first violating compaction.
func (m *Model) setResult(res *verify.Result) {
	m.res, m.t, m.st = res, res.Transcript, stateReady
	m.src = newSourceView(m.t)
	m.panes[paneSource] = newPane(m.src)
	m.ci = -1
	first := 0
	for i, c := range res.Compactions {
		if c.Verdict == verify.Violate {
			first = i
			break
		}
	}
	if len(res.Compactions) == 0 {
		first = -1
	}
	m.relayout()
	m.selectCompaction(first)
}

func (m *Model) setStatus(s string) tea.Cmd { return m.setStatusTTL(s, m.statusTTL) }

func (m *Model) setStatusTTL(s string, ttl time.Duration) tea.Cmd {
	m.statusSeq++
	m.status = s
	return clearStatusCmd(m.statusSeq, ttl)
}

// relayout recomputes the layout and sizes every pane.
func (m *Model) relayout() {
	m.lay = computeLayout(m.w, m.h, m.flag != nil)
	for i, p := range m.panes {
		if p == nil {
			continue
		}
		r := m.lay.inner[i]
		p.w, p.h = max(1, r.w), max(1, r.h)
		if i == paneSummary && m.notInSummary() {
			p.h = max(1, p.h-1)
		}
		p.clampBottom()
	}
	if m.ovPane != nil {
		m.ovPane.w, m.ovPane.h = max(1, m.lay.overlay.w), max(1, m.lay.overlay.h)
		m.ovPane.clampBottom()
	}
	if m.pickPane != nil {
		m.pickPane.w, m.pickPane.h = max(1, m.lay.overlay.w), max(1, m.lay.overlay.h)
	}
}

// keepSelectionVisible follows a resize: the first size places the linked
// panes on the selected item; later ones keep the selection on screen.
func (m *Model) keepSelectionVisible(first bool) {
	if m.st != stateReady || m.lay.tooSmall {
		return
	}
	if first && m.selItem >= 0 {
		m.panes[paneItems].Top()
		m.selectItem(m.selItem)
		return
	}
	if m.items != nil && m.items.sel >= 0 {
		m.panes[paneItems].Reveal(m.items.sel)
	}
	if m.ovView != nil && m.ovView.sel >= 0 {
		m.ovPane.Reveal(m.ovView.sel)
	}
}

// cur returns the selected compaction's result and event.
func (m *Model) cur() (*verify.CompactionResult, *model.Compaction) {
	if m.res == nil || m.ci < 0 || m.ci >= len(m.res.Compactions) {
		return nil, nil
	}
	cr := m.res.Compactions[m.ci]
	var c *model.Compaction
	if m.t != nil && cr.Event >= 0 && cr.Event < len(m.t.Events) {
		c, _ = m.t.Events[cr.Event].(*model.Compaction)
	}
	if c == nil && m.t != nil {
		c = m.t.Compaction(cr.Seq)
	}
	return cr, c
}

// curItem returns the selected item, or nil.
func (m *Model) curItem() *verify.ItemResult {
	cr, _ := m.cur()
	if cr == nil || m.selItem < 0 || m.selItem >= len(cr.Items) {
		return nil
	}
	return &cr.Items[m.selItem]
}

// notInSummary reports whether the selected item has no evidence, so the
// summary pane shows a "not in summary" banner.
func (m *Model) notInSummary() bool {
	it := m.curItem()
	return it != nil && it.Evidence == nil
}

// selectCompaction shows compaction ci and selects its first unverified
// item (or its first item), moving the other panes to it. An open diff
// follows: the command computes the new one.
func (m *Model) selectCompaction(ci int) tea.Cmd {
	if m.res == nil || ci >= len(m.res.Compactions) {
		return nil
	}
	if ci < 0 && len(m.res.Compactions) > 0 {
		return nil
	}
	m.ci = ci
	cr, c := m.cur()
	ev := -1
	var items []verify.ItemResult
	if cr != nil {
		items = cr.Items
		if c != nil {
			ev = c.Index
		}
	}
	m.src.SetCompaction(ev, items)
	m.sum = newSummaryView(c, cr)
	m.items = newPreservationView(cr)
	m.panes[paneSummary] = newPane(m.sum)
	m.panes[paneItems] = newPane(m.items)
	m.search[paneSummary], m.search[paneItems] = searchState{}, searchState{}
	m.relayout()

	sel := -1
	for i, it := range items {
		if it.Item != nil && !it.Status.Verified() {
			sel = i
			break
		}
	}
	if sel < 0 && len(items) > 0 {
		sel = 0
	}
	if sel >= 0 {
		m.selectItem(sel)
		if p := m.panes[paneItems]; p.top != (pos{}) {
			// Not on the first page: show it near the top, under its heading.
			p.ScrollTo(m.items.sel, 1)
		}
	} else {
		m.selItem = -1
		m.src.sel = -1
		if ev >= 0 {
			lo, _ := m.t.ReplacedSpan(c)
			m.panes[paneSource].ScrollTo(lo, 0)
		}
	}
	if m.ov == ovDiff && cr != nil && c != nil {
		return m.startDiff(m.opt.DiffLimit)
	}
	m.refreshOverlay()
	return nil
}

// selectItem selects item idx of the compaction and moves the other panes:
// the source to its origin, the summary to its evidence (or a "not in
// summary" banner).
func (m *Model) selectItem(idx int) {
	cr, _ := m.cur()
	if cr == nil || idx < 0 || idx >= len(cr.Items) {
		return
	}
	m.selItem = idx
	it := cr.Items[idx]
	b := m.items.blockOf(idx)
	m.items.sel = b
	m.panes[paneItems].sel = b
	m.panes[paneItems].Reveal(b)

	m.src.sel = it.Event
	m.panes[paneSource].ScrollTo(it.Event, 0)

	sp := m.panes[paneSummary]
	sp.hiTag = m.sum.tagOf(idx)
	m.sum.sel = -1
	m.relayout() // the "not in summary" banner takes a row
	if it.Evidence != nil {
		a, _ := alignSpan(m.sum.raw, it.Evidence.Start, it.Evidence.End)
		l := m.sum.lineAt(a)
		m.sum.sel = l
		sp.ScrollTo(l, sp.h/3)
	}
}
