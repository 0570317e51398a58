// Package model holds loupe's domain types — transcripts, events, compactions —
// and the loupe JSONL codec (format "loupe/v1").
//
// It knows nothing about verdicts: it says what happened in a run, never whether
// a summary was good. Package verify builds on it; importers for real agent
// runtimes map their files onto these types.
//
// Large strings (tool outputs, tool inputs) are loaded lazily from plain files:
// the reader keeps a head and a tail of each and re-reads the whole string from
// disk only when asked (see Text). Transcripts of hundreds of megabytes therefore
// load in bounded memory.
package model
