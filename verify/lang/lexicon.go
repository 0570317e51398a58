package lang

// The word lists the matcher uses. They are deliberately small and
// general: agent transcripts are formulaic, and every entry here is a rule a
// reviewer can read.

// stopWords carry no content for matching.
var stopWords = WordSet(
	"a", "an", "the", "this", "that", "these", "those", "it", "its", "it's", "i", "i'm", "i've", "i'll",
	"me", "my", "we", "we'll", "we're", "our", "us", "you", "your", "he", "she", "they", "them", "their",
	"is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did", "doing",
	"has", "have", "had", "having", "will", "would", "shall", "should", "can", "could", "may",
	"might", "must", "ll", "s", "t", "d", "re", "ve",
	"and", "or", "but", "so", "if", "then", "than", "also", "just", "now", "still", "yet",
	"to", "of", "in", "on", "at", "by", "for", "with", "from", "into", "onto", "over", "under",
	"about", "as", "up", "out", "off", "via", "per", "against", "through", "within", "without",
	"after", "before", "once", "when", "while", "until", "unless", "since", "because",
	"next", "need", "needs", "needed", "going", "go", "let", "lets", "let's", "please",
	"first", "again", "there", "here", "what", "which", "who", "whom", "whose", "how", "why", "where",
	"all", "any", "some", "each", "every", "both", "other", "more", "most", "such", "own", "same",
	"very", "too", "only", "not", "no", "nor", "never", "always", "don't", "do not", "dont", "won't",
	"make", "sure", "todo", "pending", "remaining", "done", "again", "it's",
)

// genericWords are content words too common in agent work to say much on
// their own; they count for little in a match.
var genericWords = WordSet(
	"file", "code", "thing", "stuff", "change", "work", "task", "item", "part", "step",
	"anything", "everything", "something", "one", "way", "bit", "lot", "new", "old",
	"current", "rest", "issue", "problem", "project", "repo", "repository", "also",
	// participles and adjectives that describe the state of a thing, not
	// which thing it is ("the updated file", "the remaining ones")
	"updated", "modified", "remaining", "relevant", "necessary", "following", "final", "full",
	"entire", "whole", "actual", "proper", "correct", "appropriate", "impactful", "important",
)

// Prepositions end the object noun phrase of an action: the head noun is the
// last content word before the first of them.
var Prepositions = WordSet(
	"to", "of", "in", "on", "at", "by", "for", "with", "from", "into", "onto", "over", "under",
	"about", "via", "against", "through", "within", "without", "across", "per", "using",
	"so", "because", "and", "or", "but", "then", "that", "which", "who", "whose", "where", "while", "whether",
)

// conditionMarkers start the condition of a commitment: "re-run the
// migration | after the schema diff is reviewed".
var conditionMarkers = []string{
	"as soon as", "after", "once", "when", "whenever", "before", "until", "if", "unless",
	"provided", "assuming",
}

// irregular maps irregular verb forms to their lemma. Stemming alone would
// never unify run/ran or write/wrote.
var irregular = map[string]string{
	"ran": "run", "rerun": "rerun", "reran": "rerun", "re-ran": "rerun", "re-run": "rerun",
	"wrote": "write", "written": "write", "rewrote": "rewrite", "rewritten": "rewrite",
	"built": "build", "rebuilt": "rebuild", "made": "make", "did": "do", "done": "do",
	"went": "go", "gone": "go", "began": "begin", "begun": "begin", "got": "get", "gotten": "get",
	"found": "find", "kept": "keep", "left": "leave", "sent": "send", "took": "take",
	"taken": "take", "gave": "give", "given": "give", "chose": "choose", "chosen": "choose",
	"broke": "break", "broken": "break", "drew": "draw", "drawn": "draw", "drove": "drive",
	"driven": "drive", "ate": "eat", "brought": "bring", "bought": "buy", "thought": "think",
	"caught": "catch", "taught": "teach", "told": "tell", "sold": "sell", "held": "hold",
	"led": "lead", "met": "meet", "paid": "pay", "said": "say", "saw": "see", "seen": "see",
	"shown": "show", "knew": "know", "known": "know", "grew": "grow", "grown": "grow",
	"threw": "throw", "thrown": "throw", "understood": "understand", "undid": "undo",
	"undone": "undo", "redid": "redo", "redone": "redo", "fed": "feed", "fell": "fall",
	"fallen": "fall", "rode": "ride", "rose": "rise", "risen": "rise", "spoke": "speak",
	"spoken": "speak", "stood": "stand", "struck": "strike", "swept": "sweep", "woke": "wake",
	"won": "win", "wound": "wind", "forgot": "forget", "forgotten": "forget", "froze": "freeze",
	"frozen": "freeze", "hid": "hide", "hidden": "hide", "lost": "lose", "meant": "mean",
	"spent": "spend", "split": "split", "set": "set", "put": "put", "cut": "cut", "shut": "shut",
	"reset": "reset", "upset": "upset", "hit": "hit", "let": "let", "read": "read", "reread": "reread",
	"re-read": "reread", "rewound": "rewind", "became": "become", "overwrote": "overwrite",
	"overwritten": "overwrite", "withdrew": "withdraw", "dug": "dig", "stuck": "stick",
	"shipped": "ship", "added": "add", "adding": "add", "adds": "add",
}

// pastForms are the irregular forms that are past tense or participles (a
// done cue when they are the matched verb). "read" and "set" are ambiguous
// and left out.
var pastForms = WordSet(
	"ran", "reran", "re-ran", "wrote", "written", "rewrote", "rewritten", "built", "rebuilt", "made",
	"did", "done", "went", "gone", "began", "begun", "got", "gotten", "found", "kept", "left",
	"sent", "took", "taken", "gave", "given", "chose", "chosen", "broke", "broken", "drew",
	"drawn", "drove", "driven", "brought", "bought", "told", "sold", "held", "led", "met",
	"paid", "said", "saw", "seen", "shown", "knew", "known", "threw", "thrown", "undid",
	"undone", "redid", "redone", "fell", "fallen", "stood", "forgot", "forgotten", "lost",
	"spent", "overwrote", "overwritten", "withdrew", "dug", "stuck",
)

// synonyms groups agent verbs and nouns that mean the same thing; every
// member maps to the group's first word (stemmed at init).
var synonymGroups = [][]string{
	{"rerun", "re-run", "reexecute", "re-execute", "reapply", "re-apply", "retry", "rerunning"},
	{"fix", "resolve", "repair"},
	{"add", "create", "introduce", "write", "implement", "draft"},
	{"remove", "delete", "drop", "strip", "eliminate", "prune", "cleanup", "clean up"},
	{"update", "bump", "upgrade", "refresh"},
	{"check", "verify", "confirm", "validate", "double-check", "doublecheck"},
	{"deploy", "ship", "roll out", "rollout", "publish"},
	{"investigate", "debug", "diagnose", "inspect", "examine", "look into"},
	{"revert", "roll back", "rollback", "undo"},
	{"destroy", "tear down", "teardown", "decommission", "deprovision", "dismantle"},
	{"provision", "spin up", "stand up"},
	{"connect", "hook up", "wire up"},
	{"approve", "sign off", "signoff"},
	{"deprecate", "phase out", "sunset"},
	{"migrate", "cut over", "cutover", "switch over"},
	{"prewarm", "warm up", "warmup", "pre-warm", "preheat"},
	{"backup", "back up"},
	{"finish", "complete", "wrap up", "finalize", "finalise"},
	{"start", "begin", "kick off", "launch"},
	{"rename", "move"},
	{"edit", "modify", "alter", "touch", "tweak"},
	{"open", "raise", "submit"},
	{"merge", "land"},
	{"document", "doc", "docs", "documentation"},
	{"pr", "pull request", "merge request", "mr"},
	{"db", "database"},
	{"config", "configuration", "settings"},
	{"dependency", "dependencies", "deps", "dep"},
	{"directory", "dir", "folder"},
	{"test", "tests", "spec", "specs", "test suite"},
	{"regenerate", "regen", "re-generate"},
	{"run", "execute", "exec", "invoke"},
	{"configure", "setup", "set-up"},
	{"notify", "tell", "inform", "ping", "alert"},
	{"restart", "reboot", "bounce"},
	{"kill", "terminate", "shutdown"},
	{"purge", "flush", "invalidate"},
	{"disable", "deactivate"},
	{"enable", "activate"},
	{"temporary", "temp", "tmp"},
	{"production", "prod"},
	{"development", "dev"},
	{"environment", "env"},
	{"authentication", "auth", "authn"},
	{"authorization", "authz"},
	{"application", "app"},
	{"administrator", "admin"},
	{"kubernetes", "k8s"},
	{"message", "msg"},
	{"credential", "creds", "cred"},
	{"e2e", "end-to-end", "endtoend"},
}

// alsoVerbs widens a verb to words of other groups that carry it in some
// contexts: a PR is opened or created.
var alsoVerbs = map[string][]string{
	"open": {"create"}, "fix": {"address", "handle"}, "run": {"rerun"},
	"check": {"review", "test"}, "review": {"check"}, "investigate": {"check"},
}

// ReVerbs says which verbs a re- form also matches: "re-run" is
// carried by "run again", and a summary that says "run the migration" still
// names the re-run.
var ReVerbs = map[string]string{"rerun": "run", "regenerate": "generate", "rebuild": "build", "rewrite": "write", "redo": "do", "reread": "read"}

// commitment cues in assistant text (lower case, matched at word boundaries).
var commitmentCues = []string{
	"i will", "i'll", "i shall", "i am going to", "i'm going to", "we will", "we'll",
	"we are going to", "we're going to", "next i need to", "next, i need to", "next i'll",
	"next, i'll", "i still have to", "i still need to", "still have to", "still need to",
	"i need to", "we need to", "we still need to", "todo:", "todo -", "remaining:",
	"still to do:", "left to do:", "to do:", "still has to", "still needs to", "has yet to", "have yet to",
	"next step:", "next steps:", "next step is to", "the next step is to", "next up:", "follow-up:",
	"follow up:", "the plan is to", "i plan to", "we plan to", "i intend to", "i promise to",
	"i'll make sure to", "going to", "will",
}

// conditionalCues are weaker first-person cues that make a commitment only
// with a condition ("let me re-run it once the review is done"): without one
// they narrate what happens next ("let me read the file").
var conditionalCues = []string{
	"let me", "let's", "i should", "we should", "i must", "we must", "i have to", "we have to",
	"i've got to", "i want to", "i plan on", "i'd like to",
}

// constraintCues mark a user's standing instruction.
var constraintCues = []string{
	"always", "never", "don't", "dont", "do not", "must", "make sure", "from now on",
	"going forward", "avoid", "no more", "under no circumstances", "only ever",
	"remember to", "be sure to", "is forbidden", "is not allowed", "are not allowed",
	"ensure", "please use", "please keep", "use only", "only", "stick to", "keep it", "keep them", "keep this",
	"keep everything", "until i say otherwise", "until further notice", "stop",
	"for the rest of this session", "for the rest of the session", "every time", "each time",
}

// DoneCues are words that present work as finished.
var DoneCues = WordSet(
	"done", "completed", "complete", "finished", "succeeded", "successful", "successfully",
	"fixed", "merged", "resolved", "landed", "shipped", "live", "passed", "passing", "closed",
	"accomplished", "achieved", "ready", "already",
)

// PendingCues present work as still to do.
var PendingCues = WordSet(
	"will", "todo", "to-do", "pending", "next", "remaining", "remains", "outstanding",
	"upcoming", "later", "waiting", "awaiting", "blocked", "open:",
	"need", "needs", "needed", "must", "should", "have to", "has to", "going to", "yet to",
	"still to", "in progress", "not yet", "not done", "unfinished", "to do", "queued", "follow-up",
)

// NegationCues deny an action ("we will not re-run the migration").
var NegationCues = WordSet(
	"not", "never", "no", "don't", "dont", "won't", "wont", "cannot", "can't", "shouldn't",
	"mustn't", "didn't", "doesn't", "isn't", "aren't", "wasn't", "skip", "skipped", "without",
	"instead of", "decided against", "no need to", "no longer", "cancelled", "canceled", "abandoned",
	"forbidden", "prohibited", "disallowed", "banned",
)

// PostNegations deny an action stated before them: "the re-run was
// cancelled", "the migration re-run is no longer needed".
var PostNegations = []string{
	"cancelled", "canceled", "abandoned", "dropped", "not needed", "no longer needed", "unnecessary",
	"skipped", "called off", "won't happen", "will not happen", "not required", "descoped", "out of scope",
}

// WordSet makes a set of the words, as written.
func WordSet(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// AlsoVerbTerms is alsoVerbs keyed and valued by terms.
var AlsoVerbTerms = func() map[string][]string {
	m := map[string][]string{}
	for k, vs := range alsoVerbs {
		for _, v := range vs {
			m[TermOf(k)] = append(m[TermOf(k)], TermOf(v))
		}
	}
	return m
}()

// FinishTerm is the canonical term of complete/finish/wrap up.
var FinishTerm = TermOf("finish")

// StopVerbs are stop words that can still be an action's verb.
var StopVerbs = WordSet("make", "do", "get", "go", "let", "have", "keep", "set")

// GenericTerm holds the terms of genericWords.
var GenericTerm = func() map[string]bool {
	m := map[string]bool{}
	for w := range genericWords {
		m[TermOf(w)] = true
	}
	return m
}()
