package ui

import (
	"image/color"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/loupe-dev/loupe/verify"
)

// This file holds every colour, text attribute and glyph the inspector uses.
// Nothing else in the package names a colour.
//
// Panes do not call lipgloss per line: a style is turned once into the SGR
// prefix that starts it (sgr), and rows are written as prefix + text + reset.
// Meaning is never carried by colour alone: every status has a glyph and a
// word, the focused pane has a heavy border, the selection a bar.

// styleID names a text style; segments of a line carry one.
type styleID uint8

const (
	stPlain       styleID = iota
	stSubtle              // secondary text: metadata, hints
	stHeader              // an event's header line (turn, kind)
	stUser                // user role label
	stAssistant           // assistant role label
	stSystem              // system role label
	stTool                // tool name, call id
	stError               // an error result, a failure
	stMarker              // "… bytes not loaded …", cut lines
	stDivider             // a compaction divider in the source
	stCurrent             // the divider of the compaction being inspected
	stRetained            // evidence of a retained item
	stWeak                // evidence of a weak item
	stFlipped             // evidence of a flipped item
	stIntent              // evidence of an intent-only handle
	stDropped             // a dropped item, a violation
	stResurrected         // evidence of a resurrected item
	stHeading             // a summary section heading, a group heading
	stTag                 // an annotation loupe adds (‹pending›)
	stSelected            // the selected item's evidence
	stMatch               // a search match
	stDel                 // diff: deleted words
	stIns                 // diff: inserted words
	stOK                  // degrade, allowed, agree
	stBad                 // violate, refused, overclaim
	stWarn                // warnings, weak
	stAccent              // titles, the replaced-span bar
	stLost                // summary diff: an item's evidence that the next summary lost
	stLostMark            // summary diff: the mark naming the lost item
	stReview              // a review item: lost, but only inferred, so not counted
	numStyles
)

// tone is what a whole block says about its place: older history is dimmed,
// the selection is bold on a tinted background.
type tone uint8

const (
	toneNormal tone = iota
	toneDim         // history before the replaced span
	toneAfter       // events after the compaction being inspected
	toneSel         // the selected block
	numTones
)

// Glyphs. Each comes with a word wherever there is room for one.
const (
	glyphDegrade   = "✓"
	glyphViolate   = "✗"
	glyphBar       = "┃" // replaced span
	glyphAfter     = "┆" // after the compaction
	glyphSelBar    = "▌" // selected block
	glyphPointer   = "▶"
	glyphFinding   = "⚑"
	glyphReinject  = "↺" // the live gate put lost items back
	glyphEllipsis  = "…"
	glyphSeparator = " · "
	glyphReview    = verify.ReviewGlyph // a review item: for a person to judge, not counted
)

// statusGlyph is the mark of an item status: verify's, which the reports
// draw too, so a cell reads the same on screen and in every report.
func statusGlyph(s verify.Status) string { return s.Glyph() }

// statusStyle is the style of an item status.
func statusStyle(s verify.Status) styleID {
	switch s {
	case verify.Retained, verify.Closed:
		return stRetained
	case verify.Weak:
		return stWeak
	case verify.Flipped:
		return stFlipped
	case verify.IntentOnly:
		return stIntent
	case verify.Dropped:
		return stDropped
	case verify.Resurrected:
		return stResurrected
	}
	return stPlain
}

// statusRank orders statuses from worst to best for picking one mark when
// several items share a line.
func statusRank(s verify.Status) int {
	switch s {
	case verify.Dropped:
		return 0
	case verify.Flipped:
		return 1
	case verify.Resurrected:
		return 2
	case verify.IntentOnly:
		return 3
	case verify.Weak:
		return 4
	case verify.Retained:
		return 5
	}
	return 6
}

// palette holds the semantic colour tokens; nil means the terminal default.
type palette struct {
	subtle, accent, ok, bad, warn, flip, info, selBg, matchBg, border color.Color
	review                                                            color.Color
}

func newPalette(isDark, noColor bool) palette {
	if noColor {
		return palette{}
	}
	ld := lipgloss.LightDark(isDark)
	c := lipgloss.Color
	return palette{
		subtle:  ld(c("#6c6c6c"), c("#8a8a8a")),
		accent:  ld(c("#1f5fbf"), c("#7aa2f7")),
		ok:      ld(c("#007a3d"), c("#5fd787")),
		bad:     ld(c("#c0262d"), c("#ff6b6b")),
		warn:    ld(c("#8a6100"), c("#e5c07b")),
		flip:    ld(c("#8b2fc9"), c("#d787ff")),
		info:    ld(c("#00727f"), c("#56b6c2")),
		selBg:   ld(c("#dde6f5"), c("#2f3b54")),
		matchBg: ld(c("#ffd75f"), c("#5f5f00")),
		border:  ld(c("#a8a8a8"), c("#585858")),
		// Review items are neither kept (green) nor lost (red): a slate
		// blue apart from the accent, readable on either background.
		review: ld(c("#5a4fa8"), c("#b4a7f5")),
	}
}

// theme is everything View needs to draw: SGR prefixes per tone and style,
// and the few lipgloss styles used for frames.
type theme struct {
	isDark, noColor bool
	sgr             [numTones][numStyles]string
	// Frame pieces, as SGR prefixes.
	border, borderFocus, title, titleFocus string
	chipOK, chipBad, chipWarn, chipSel     string
	tabActive, tabIdle                     string
	barSpan, barAfter, barSel              string
	header, footerKey, footerDesc, status  string
	live                                   string
	review                                 string
}

// reset ends any style.
const reset = "\x1b[m"

// prefix returns the SGR sequence that starts st (empty for no style).
func prefix(st lipgloss.Style) string {
	out := st.Render("x")
	i := strings.IndexByte(out, 'x')
	if i <= 0 {
		return ""
	}
	return out[:i]
}

func fg(c color.Color) lipgloss.Style {
	s := lipgloss.NewStyle()
	if c != nil {
		s = s.Foreground(c)
	}
	return s
}

func bg(s lipgloss.Style, c color.Color) lipgloss.Style {
	if c != nil {
		return s.Background(c)
	}
	return s
}

func newTheme(isDark, noColor bool) *theme {
	p := newPalette(isDark, noColor)
	base := [numStyles]lipgloss.Style{}
	for i := range base {
		base[i] = lipgloss.NewStyle()
	}
	base[stSubtle] = fg(p.subtle)
	base[stHeader] = lipgloss.NewStyle().Bold(true)
	base[stUser] = fg(p.accent).Bold(true)
	base[stAssistant] = fg(p.info).Bold(true)
	base[stSystem] = fg(p.subtle).Bold(true)
	base[stTool] = fg(p.flip)
	base[stError] = fg(p.bad).Bold(true)
	base[stMarker] = fg(p.warn).Italic(true)
	base[stDivider] = fg(p.accent)
	base[stCurrent] = fg(p.accent).Bold(true).Reverse(true)
	base[stRetained] = fg(p.ok).Underline(true)
	base[stWeak] = fg(p.warn).Underline(true)
	base[stFlipped] = fg(p.flip).Underline(true).Bold(true)
	base[stIntent] = fg(p.warn).Underline(true)
	base[stDropped] = fg(p.bad).Bold(true)
	base[stResurrected] = fg(p.bad).Underline(true).Bold(true)
	base[stHeading] = lipgloss.NewStyle().Bold(true)
	base[stTag] = fg(p.subtle).Italic(true)
	base[stSelected] = lipgloss.NewStyle().Reverse(true).Bold(true)
	base[stMatch] = bg(lipgloss.NewStyle().Underline(true).Bold(true), p.matchBg)
	if noColor {
		base[stMatch] = base[stMatch].Reverse(true)
	}
	base[stDel] = fg(p.bad)
	base[stIns] = fg(p.ok).Bold(true)
	base[stOK] = fg(p.ok).Bold(true)
	base[stBad] = fg(p.bad).Bold(true)
	base[stWarn] = fg(p.warn).Bold(true)
	base[stAccent] = fg(p.accent).Bold(true)
	base[stLost] = fg(p.bad).Bold(true).Underline(true)
	base[stLostMark] = fg(p.bad).Bold(true).Reverse(true)
	base[stReview] = fg(p.review).Italic(true)

	t := &theme{isDark: isDark, noColor: noColor}
	for st := range numStyles {
		b := base[st]
		t.sgr[toneNormal][st] = prefix(b)
		if st == stSelected || st == stMatch || st == stCurrent {
			// Overlays read the same in every tone.
			for tn := range numTones {
				t.sgr[tn][st] = prefix(b)
			}
			continue
		}
		t.sgr[toneDim][st] = prefix(b.Faint(true))
		t.sgr[toneAfter][st] = prefix(b.Faint(true).Italic(true))
		t.sgr[toneSel][st] = prefix(bg(b.Bold(true), p.selBg))
	}
	t.border = prefix(fg(p.border))
	t.borderFocus = prefix(fg(p.accent).Bold(true))
	t.title = prefix(lipgloss.NewStyle().Bold(true))
	t.titleFocus = prefix(fg(p.accent).Bold(true).Reverse(true))
	t.chipOK = prefix(fg(p.ok))
	t.chipBad = prefix(fg(p.bad).Bold(true))
	t.chipWarn = prefix(fg(p.warn).Bold(true))
	t.chipSel = prefix(lipgloss.NewStyle().Reverse(true).Bold(true))
	t.tabActive = prefix(fg(p.accent).Bold(true).Reverse(true))
	t.tabIdle = prefix(fg(p.subtle))
	t.barSpan = prefix(fg(p.accent).Bold(true))
	t.barAfter = prefix(fg(p.subtle))
	t.barSel = prefix(fg(p.accent).Bold(true))
	t.header = prefix(lipgloss.NewStyle().Bold(true))
	t.footerKey = prefix(fg(p.accent).Bold(true))
	t.footerDesc = prefix(fg(p.subtle))
	t.status = prefix(fg(p.warn).Bold(true))
	t.live = prefix(fg(p.ok).Bold(true))
	t.review = prefix(fg(p.review).Bold(true))
	return t
}

// paint wraps s in the SGR prefix pre (nothing when pre is empty).
func paint(pre, s string) string {
	if pre == "" || s == "" {
		return s
	}
	return pre + s + reset
}
