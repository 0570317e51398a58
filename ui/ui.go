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

// Session is one transcript a directory holds, for the picker.
type Session struct {
	Name, Detail string
	// Project is the project (or folder) the session belongs to, File its
	// file's base name, Format the runtime that wrote it and ID the
	// runtime's session id: the chooser shows them on the row and filters
	// on them.
	Project, File, Format, ID string
	// Start is when the session started (zero when unknown): the chooser
	// sorts on it.
	Start time.Time
	// Path is the session's file (or directory, for the runtimes that keep
	// a session in one), for $EDITOR and following.
	Path string
	// Turns and Compactions are what listing the directory found (turns
	// may be an estimate); the picker replaces them with the verified
	// run's as each session is verified in the background.
	Turns, Compactions int
	Load               LoadFunc
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
	// Pager is the command `p` runs, with the file appended (default
	// less -R).
	Pager []string
	// File is the file the run was read from: `e` opens it in Editor at
	// the selected event's line, and it is watched for new lines when
	// Follow is set. Empty for the built-in samples and standard input.
	File string
	// Editor is $VISUAL or $EDITOR as a command (nil: none is set).
	Editor []string
	// Tmux says the inspector runs inside tmux, which drops OSC 52 unless
	// its set-clipboard option is on: `y` then also fills tmux's buffer.
	Tmux bool
	// ClipDir is where `y` saves what it copied (default: the user's cache
	// directory, loupe/clipboard.txt).
	ClipDir string
	// TempDir holds the pager's files (default os.TempDir).
	TempDir string
	// DiffLimit is the word diff's deadline (default 3s).
	DiffLimit time.Duration
	// Follow watches File while it is open and verifies what is appended
	// (a live run), keeping the user's place.
	Follow bool
	// FollowEvery is how often a followed file is looked at (default 1s).
	FollowEvery time.Duration
	// Reinjections reads what the live gate (`loupe hook`) put back after
	// each compaction of the run; it runs after every load (nil: never).
	Reinjections ReinjectionsFunc
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
	ovMap
	ovDiff
	ovProblems
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
	chKeys chooserKeys
	th     *theme
	isDark bool
	w, h   int
	lay    layout

	st       state
	loadReq  int
	loadCh   chan tea.Msg
	progress Progress
	partial  bool // the result shown is the beginning of the file (Progress.Partial)
	err      error
	picker   *listView
	pickPane *pane
	ch       *chooser

	res *verify.Result
	t   *model.Transcript
	ci  int // selected compaction (index in res.Compactions), -1 for none
	// arrived are the compactions verified while the load goes on;
	// autoPick: the selection among them is the inspector's choice, not
	// the reader's (arriving.go); a key or a click ends it.
	arrived  []*verify.CompactionResult
	autoPick bool

	src     *sourceView
	sum     *summaryView
	items   *listView
	panes   [numPanes]*pane
	focus   int
	selItem int // index in the compaction's Items, -1 for none
	// vonly shows only violating compactions in the timeline and only
	// unverified items in the preservation set.
	vonly bool

	ov        overlay
	ovView    *listView
	ovPane    *pane
	lineageID string
	// mapRows are the lineage map's rows while it is open.
	mapRows []verify.LineageRow

	diffReq     int
	diff        *diffResult
	diffPending bool
	// diffMode is the diff shown; diffChosen says the user picked it with
	// s (else d opens on the default for the compaction).
	diffMode   diffMode
	diffChosen bool
	// diffHead is where the diff's own blocks start in the overlay;
	// diffMark is the next lost item enter goes to.
	diffHead, diffMark int

	searching bool
	input     lineInput
	search    [numPanes + 1]searchState
	searchReq int

	// flag is the finding jumped to, shown in a banner until esc.
	flag *verify.RunFinding

	status    string
	statusSeq int
	statusTTL time.Duration

	follow follower

	// reinj is what the live gate did after each compaction, by seq.
	reinj map[int]Reinjection
}

// New returns the inspector for opt.
func New(opt Options) *Model {
	if opt.DiffLimit == 0 {
		opt.DiffLimit = diffLimit
	}
	m := &Model{opt: opt, keys: DefaultKeyMap(), chKeys: defaultChooserKeys(), isDark: !opt.Light, ci: -1, selItem: -1, focus: paneItems, statusTTL: 4 * time.Second}
	m.th = newTheme(m.isDark, opt.NoColor)
	switch {
	case opt.Result != nil:
		m.setResult(opt.Result)
	case len(opt.Sessions) > 1:
		m.newChooser()
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

// Init asks the terminal for its background and starts the load (or the
// chooser's background verification, or following).
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor}
	switch {
	case m.st == stateLoading && m.opt.Load != nil:
		cmds = append(cmds, m.startLoad(m.opt.Load))
	case m.st == statePicker:
		cmds = append(cmds, m.nextCheck())
	case m.st == stateReady:
		cmds = append(cmds, m.startFollow(fileStat{}), reinjectionsCmd(m.opt.Reinjections))
	}
	return tea.Batch(cmds...)
}

func (m *Model) startLoad(load LoadFunc) tea.Cmd {
	m.loadReq++
	m.st = stateLoading
	m.arrived, m.autoPick = nil, false
	m.progress = Progress{Phase: "reading"}
	m.opt.Load = load // what following reads again
	watch := ""
	if m.opt.Follow {
		watch = m.opt.File
	}
	return loadCmd(m.loadReq, load, watch)
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
		if msg.req == m.loadReq && len(msg.progress.Verified) > 0 {
			m.addVerified(msg.progress.Verified)
			return m, waitLoad(m.loadCh)
		}
		if msg.req == m.loadReq {
			m.progress = msg.progress
			if u := msg.progress.Unverified; u != nil {
				m.withArrived(u)
				switch {
				case m.st == stateLoading:
					m.partial = msg.progress.Partial
					m.setResult(u) // the first screen, while verification runs
					m.autoPick = m.ci >= 0
				case m.res != nil && m.res.Pending:
					// The whole file after its beginning: the reader's
					// place is kept.
					m.partial = msg.progress.Partial
					m.applyLive(u, false)
					if m.ci < 0 { // no compaction to select yet: the count moved
						m.items = pendingView(len(m.t.Compactions))
						m.panes[paneItems] = newPane(m.items)
						m.relayout()
					}
				}
			}
			return m, waitLoad(m.loadCh)
		}
	case loadedMsg:
		return m, m.handleLoaded(msg)
	case eventLoadedMsg:
		return m, m.handleEventLoaded(msg)
	case sessionCheckedMsg:
		return m, m.handleSessionChecked(msg)
	case followTickMsg:
		if fl := &m.follow; msg.gen == fl.gen && fl.on && !fl.loading {
			return m, statCmd(fl.gen, fl.path)
		}
	case followStatMsg:
		return m, m.handleFollowStat(msg)
	case followLoadedMsg:
		return m, tea.Batch(m.handleFollowLoaded(msg), reinjectionsCmd(m.opt.Reinjections))
	case reinjectionsMsg:
		m.handleReinjections(msg)
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
	case editorDoneMsg:
		if msg.err != nil {
			return m, m.setStatus("editor: " + msg.err.Error())
		}
	case copiedMsg:
		return m, m.setStatusTTL(copiedText(msg), 3*m.statusTTL)
	case statusMsg:
		return m, m.setStatusTTL(msg.text, msg.ttl)
	case clearStatusMsg:
		if msg.seq == m.statusSeq {
			m.status = ""
		}
	case tea.MouseWheelMsg:
		m.autoPick = false
		m.handleWheel(msg.Mouse())
	case tea.MouseClickMsg:
		m.autoPick = false
		return m, m.handleClick(msg.Mouse())
	case tea.KeyPressMsg:
		m.autoPick = false
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
	m.loadCh, m.partial, m.arrived = nil, false, nil // the whole result replaces what arrived
	if msg.err != nil || msg.res == nil {
		m.st, m.err = stateError, msg.err
		if m.err == nil {
			m.err = errNoResult
		}
		return nil
	}
	m.setVerified(msg.res)
	if m.inSession() {
		m.remember(m.ch.cur, msg.res, msg.st)
		m.refreshSession(m.ch.cur)
	}
	return tea.Batch(m.startFollow(msg.st), reinjectionsCmd(m.opt.Reinjections))
}

type constError string

func (e constError) Error() string { return string(e) }

const errNoResult = constError("the loader returned no result")

func (m *Model) setStatus(s string) tea.Cmd { return m.setStatusTTL(s, m.statusTTL) }

func (m *Model) setStatusTTL(s string, ttl time.Duration) tea.Cmd {
	m.statusSeq++
	m.status = s
	return clearStatusCmd(m.statusSeq, ttl)
}

// relayout recomputes the layout and sizes every pane.
func (m *Model) relayout() {
	rows := 1
	if cr, _ := m.cur(); cr != nil {
		rows = len(m.detailRowsLive())
	}
	m.lay = computeLayout(m.w, m.h, m.flag != nil, rows)
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
		m.showWithHeading(m.panes[paneItems], m.items)
		return
	}
	if m.items != nil && m.items.sel >= 0 {
		m.panes[paneItems].Reveal(m.items.sel)
	}
	if m.ovView != nil && m.ovView.sel >= 0 {
		m.ovPane.Reveal(m.ovView.sel)
	}
}

// showWithHeading scrolls p so that the selected block shows with what
// says what it is: from the top (the verdict and its reasons) when all of
// that fits, else from the heading of its group (the item's kind), else
// from the block itself. Opening on an item scrolled so that only
// its end showed hid what kind it was.
func (m *Model) showWithHeading(p *pane, v *listView) {
	b := v.sel
	if b < 0 {
		return
	}
	h := b
	for h > 0 && v.ref[h-1] >= 0 {
		h--
	}
	if h > 0 {
		h-- // the heading block above the group
	}
	fits := func(from int) bool {
		rows := 0
		for q, ok := (pos{from, 0, 0}), true; ok && q.b <= b && rows <= p.h; q, ok = p.next(q) {
			rows++
		}
		return rows <= p.h
	}
	switch {
	case fits(0):
		p.Top() // the verdict and its reasons too
	case fits(h):
		p.ScrollTo(h, 0)
	default:
		p.ScrollTo(b, 0)
	}
}
