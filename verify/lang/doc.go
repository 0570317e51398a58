// Package lang is loupe's language layer: what a text says, with no notion
// of items, statuses or verdicts.
//
//   - text.go: tokens (words with their stems and surface form), typographic
//     folding, multi-word phrase folding, sentences, phrases at word
//     boundaries; porter.go is the Porter stemmer beneath it;
//   - lexicon.go: the word lists (stop words, generic and category nouns,
//     irregular verbs, synonym groups, commitment/constraint/status cues);
//   - action.go: an action phrase parsed into verb, object, head noun and
//     condition; clause.go: small clause-level cues (future passives, past
//     needs, condition words);
//   - promise.go: commitment phrasing in assistant prose ("I'll X after Y");
//     rule.go: imperative phrasing in a user's words ("never push to main");
//   - i18n.go: the other languages users write (Chinese, Spanish,
//     Portuguese, French, German, Japanese, Korean, Vietnamese, Russian): a
//     text's language, done and pending in their words, labels before a
//     rule, and what two texts in different languages share (ids, paths,
//     names, code words); i18n_cues.go: the cue table of each language;
//     i18n_read.go: rules and promises read with those cues;
//   - ident.go: identifiers (URLs, PRs, tickets, SHAs, paths, branches), each
//     class with its own boundary rule;
//   - errtext.go: what a failed tool's output says went wrong (its first
//     error line, the tokens that identify the failure); ansi.go: terminal
//     escapes removed before an error line is read;
//   - command.go: shell commands (the program run, read-only commands, the
//     normalized form used to compare two runs); readonly.go: which commands
//     only look and which only check;
//   - paste.go: what in a user's message is pasted, not the user's own
//     words (fences, quotes, logs, checklists, documents);
//   - spelling.go: spelling and word-form folding (British forms,
//     derivations) before stemming; util.go: small shared helpers.
//
// Every function is pure. The tables are read-only after package
// initialization; callers must not modify them.
package lang
