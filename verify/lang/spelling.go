package lang

import "strings"

// Spelling and word-form folding, applied to every word before it is
// stemmed, so that both sides of a match meet in one form: a source that
// says "optimise the dataloader" and a summary that says "Optimized the
// dataloader" name the same deed, and so do "the catalogue" and "the
// catalog", "re-index" and "reindexing", "notify" and "the notification".
//
// The rules are morphological (suffix patterns), with short lists only for
// the words a pattern would get wrong. Folding a word that has no second
// spelling is harmless as long as it does not land on another word: both
// sides are folded alike.

// americanize returns the American spelling of a British one, or w.
func americanize(w string) string {
	if len(w) < 4 {
		return w
	}
	if a, ok := britishWords[w]; ok {
		return a
	}
	if a, ok := foldIse(w); ok {
		return a
	}
	for _, r := range rootSwaps {
		if a, ok := r.apply(w); ok {
			return a
		}
	}
	return w
}

// foldIse maps -ise/-yse verbs and their forms to -ize/-yze: optimise,
// optimised, optimising, optimisation, optimiser; analyse, analysed.
func foldIse(w string) (string, bool) {
	for _, suf := range iseSuffixes {
		if !strings.HasSuffix(w, suf) {
			continue
		}
		base := w[:len(w)-len(suf)] // "optim" of "optimised"
		if len(base) < 3 || iseKeeps(base) {
			return "", false
		}
		c := base[len(base)-1]
		if c != 'i' && c != 'y' {
			return "", false
		}
		return base + "z" + suf[1:], true
	}
	return "", false
}

// iseSuffixes are the forms of an -ise verb, longest first, each starting
// at its "s".
var iseSuffixes = []string{"sations", "sation", "sers", "sing", "sed", "ses", "ser", "se"}

// iseKeeps reports whether base+"se" is a word spelt -ise on both sides of
// the Atlantic (promise, advise, exercise), or ends in -wise.
func iseKeeps(base string) bool {
	if strings.HasSuffix(base, "wi") || strings.HasSuffix(base, "oi") || strings.HasSuffix(base, "ai") ||
		strings.HasSuffix(base, "ui") {
		return true // otherwise, noise, raise, cruise
	}
	if shortIseWords[base] {
		return true
	}
	for _, k := range iseWords {
		if strings.HasSuffix(base, k) {
			return true
		}
	}
	return false
}

// iseWords are the endings (without "se") of words always spelt -ise.
var iseWords = []string{
	"advi", "adverti", "appri", "chasti", "circumci", "compri", "compromi", "conci", "demi",
	"despi", "devi", "disgui", "enterpri", "exci", "exerci", "experti", "franchi", "improvi",
	"inci", "merchandi", "preci", "premi", "promi", "revi", "supervi", "surmi", "surpri",
	"televi", "treati", "repri", "morti", "vali", "chemi", "paradi",
}

// shortIseWords are the same for words so short that a suffix test would
// catch others ("ari" of arise, not of summarise).
var shortIseWords = WordSet("ari", "pri", "ani", "mai", "pari")

// rootSwap swaps a British root for an American one in every form of the
// word: "colour" in "colours", "coloured", "favourite".
type rootSwap struct {
	from, to string
	// forms are the endings the root takes; "" alone means any ending.
	forms []string
}

func (r rootSwap) apply(w string) (string, bool) {
	if !strings.HasPrefix(w, r.from) {
		return "", false
	}
	rest := w[len(r.from):]
	if len(r.forms) == 0 {
		return r.to + rest, true
	}
	for i := 0; i+1 < len(r.forms); i += 2 {
		if rest == r.forms[i] {
			return r.to + r.forms[i+1], true
		}
	}
	return "", false
}

// reForms and ogueForms map the endings of a -re or -ogue root.
var (
	reForms   = []string{"re", "er", "res", "ers", "red", "ered", "ring", "ering"}
	ogueForms = []string{"ue", "", "ues", "s", "ued", "ed", "uing", "ing"}
	enceForms = []string{"ce", "se", "ces", "ses", "ced", "sed", "cing", "sing"}
)

// rootSwaps are the roots whose British spelling differs inside the word.
var rootSwaps = func() []rootSwap {
	var out []rootSwap
	for _, r := range []string{
		"colour", "flavour", "honour", "labour", "neighbour", "favour", "behaviour", "harbour",
		"humour", "rumour", "vapour", "armour", "odour", "vigour", "valour", "savour", "endeavour",
		"parlour", "tumour", "saviour", "clamour", "rigour", "splendour", "candour", "demeanour",
	} {
		out = append(out, rootSwap{from: r, to: r[:len(r)-2] + "r"})
	}
	for _, r := range []string{"cent", "met", "lit", "theat", "fib", "calib", "somb", "spect", "meag", "lust", "sab"} {
		out = append(out, rootSwap{from: r + "r", to: r, forms: prefixed(r, reForms)})
	}
	for _, r := range []string{"catalog", "dialog", "analog", "prolog", "epilog", "monolog"} {
		out = append(out, rootSwap{from: r, to: r, forms: ogueForms})
	}
	for _, r := range []string{"licen", "defen", "offen", "preten"} {
		out = append(out, rootSwap{from: r, to: r, forms: enceForms})
	}
	return out
}()

// prefixed turns -re endings into the pairs rootSwap wants for a root
// whose British form keeps "r" after the root: "cent"+"re" → "cent"+"er".
func prefixed(root string, forms []string) []string {
	out := make([]string, len(forms))
	for i := 0; i < len(forms); i += 2 {
		out[i] = forms[i][1:] // after "centr": "e", "es", "ed", "ing"
		out[i+1] = forms[i+1]
	}
	return out
}

// britishWords are whole-word variants no pattern covers.
var britishWords = map[string]string{
	"programme": "program", "programmes": "programs", "grey": "gray", "greys": "grays",
	"judgement": "judgment", "judgements": "judgments", "acknowledgement": "acknowledgment",
	"acknowledgements": "acknowledgments", "ageing": "aging", "whilst": "while", "amongst": "among",
	"towards": "toward", "artefact": "artifact", "artefacts": "artifacts", "sceptical": "skeptical",
	"mould": "mold", "moulds": "molds", "enquiry": "inquiry", "enquiries": "inquiries",
	"enquire": "inquire", "disc": "disk", "discs": "disks", "practise": "practice",
	"practised": "practiced", "practising": "practicing", "manoeuvre": "maneuver",
	"fulfil": "fulfill", "fulfils": "fulfills", "enrol": "enroll", "enrols": "enrolls",
	"instal": "install", "instals": "installs", "distil": "distill", "cheque": "check",
	"cheques": "checks", "aluminium": "aluminum", "plough": "plow", "storey": "story",
	"learnt": "learned", "spelt": "spelled", "burnt": "burned", "dreamt": "dreamed",
	"spilt": "spilled", "leapt": "leaped", "cancellation": "cancelation",
	"modelling": "modeling", "labelling": "labeling", "travelling": "traveling",
	"signalling": "signaling", "cancelling": "canceling", "cancelled": "canceled",
	"modelled": "modeled", "labelled": "labeled", "travelled": "traveled",
	"signalled": "signaled", "fuelled": "fueled", "levelled": "leveled",
	"channelled": "channeled", "tunnelled": "tunneled", "totalled": "totaled",
	"marshalled": "marshaled", "marshalling": "marshaling", "counselling": "counseling",
}

// derive maps a noun to the verb it names where the stemmer leaves them
// apart ("verification" and "verify", "decision" and "decide", "failure"
// and "fail"), so that "the verification is still owed" carries "verify
// the signatures". Both sides are derived alike.
func derive(w string) string {
	if v, ok := derivedWords[w]; ok {
		return v
	}
	for _, d := range derivations {
		if !strings.HasSuffix(w, d.suffix) {
			continue
		}
		base := w[:len(w)-len(d.suffix)]
		if len(base) < d.minBase {
			return w
		}
		return base + d.verb
	}
	return w
}

// derivations are noun suffixes and the verb ending they come from. The
// plural comes first so it is tried before the singular.
var derivations = []struct {
	suffix, verb string
	minBase      int
}{
	{"ifications", "ify", 2}, {"ification", "ify", 2}, // verification, notification
	{"missions", "mit", 2}, {"mission", "mit", 2}, // submission, permission
	{"cisions", "cide", 2}, {"cision", "cide", 2}, // decision
	{"clusions", "clude", 2}, {"clusion", "clude", 2}, // exclusion
	{"pansions", "pand", 2}, {"pansion", "pand", 2}, // expansion
	{"tensions", "tend", 2}, {"tension", "tend", 2}, // extension
	{"versions", "vert", 2}, {"version", "vert", 2}, // conversion
	{"scriptions", "scribe", 2}, {"scription", "scribe", 2}, // subscription
	{"sumptions", "sume", 2}, {"sumption", "sume", 2}, // consumption
	{"ductions", "duce", 2}, {"duction", "duce", 2}, // reduction
	{"olutions", "olve", 1}, {"olution", "olve", 1}, // resolution
	{"ysis", "yze", 3}, {"yses", "yze", 3}, // analysis
	{"veries", "ver", 2}, {"very", "ver", 2}, // delivery, recovery
	{"iliations", "ile", 3}, {"iliation", "ile", 3}, // reconciliation
	{"vocations", "voke", 1}, {"vocation", "voke", 1}, // revocation, invocation
}

// derivedWords are nouns whose verb no suffix rule finds.
var derivedWords = map[string]string{
	"failure": "fail", "failures": "fail", "closure": "close", "exposure": "expose",
	"retention": "retain", "detention": "detain", "maintenance": "maintain",
	"commission": "commission", "version": "version", "versions": "versions",
	"mission": "mission", "missions": "missions", "tension": "tension",
	"every": "every", "expansion": "expand", "occurrence": "occur",
}
