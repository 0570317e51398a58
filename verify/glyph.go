package verify

// Statuses are every item status, in the order a legend lists them: the
// verified ones first, then from the mildest failure to the worst.
var Statuses = []Status{Retained, Closed, Weak, IntentOnly, Flipped, Dropped, Resurrected}

// ReviewGlyph marks a loss that is review: the item was only inferred, so
// the loss is listed for a person to judge and not counted.
const ReviewGlyph = "?"

// Glyph is the one-character mark of a status that the inspector's
// lineage map and every report's map draw: one table, so that a cell
// reads the same on screen, in text, Markdown and HTML.
func (s Status) Glyph() string {
	switch s {
	case Retained:
		return "✓"
	case Weak:
		return "~"
	case Flipped:
		return "⇄"
	case IntentOnly:
		return "◌"
	case Dropped:
		return "✗"
	case Resurrected:
		return "↺"
	case Closed:
		return "·"
	}
	return "?"
}
