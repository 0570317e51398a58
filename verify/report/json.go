package report

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/loupe-dev/loupe/model"
	"github.com/loupe-dev/loupe/verify"
)

// The JSON report is a stable contract (README, "The JSON report"). These
// types are its schema; field names never change meaning.
type (
	// JSONReport is the whole report: one entry per file, then, with
	// --group-by, the comparison of the runs grouped by that meta field.
	JSONReport struct {
		// Version is the report schema's version (ReportVersion).
		Version int `json:"version"`
		// Verdict is the whole report's (OverallVerdict).
		Verdict string      `json:"verdict"`
		Files   []JSONFile  `json:"files"`
		GroupBy string      `json:"group_by,omitempty"`
		Groups  []JSONGroup `json:"groups,omitempty"`
	}
	// JSONFile is one transcript's verification. An entry for a file that
	// could not be verified has only Path and Error.
	JSONFile struct {
		Path string `json:"path"`
		// Parent is, on a sub-agent's file, the session file it belongs
		// to (when that is in the report too).
		Parent string `json:"parent,omitempty"`
		// Error says why the file could not be verified; "" when it was.
		Error  string `json:"error,omitempty"`
		Format string `json:"format"`
		// Runtime names what the file came from: an importer's name
		// (claude-code, codex, gemini-cli, …) or "loupe" for a file
		// written in loupe's own format.
		Runtime string `json:"runtime"`
		// Verdict is the file's: violate, degrade or none (FileVerdict).
		Verdict     string           `json:"verdict"`
		Source      string           `json:"source,omitempty"`
		Turns       int              `json:"turns"`
		Compactions []JSONCompaction `json:"compactions"`
		Findings    []JSONFinding    `json:"findings"`
		Lineage     []JSONLineage    `json:"lineage"`
		Warnings    []JSONWarning    `json:"warnings"`
		// Meta holds the meta fields as text, but for "skipped", the
		// records an importer left out on purpose, an object of counts
		// per record type.
		Meta map[string]any `json:"meta,omitempty"`
		// Note is "no compaction in this run: nothing to verify" when the
		// run has none, "" otherwise.
		Note string `json:"note,omitempty"`
	}
	// JSONCompaction is one compaction's check.
	JSONCompaction struct {
		Seq             int            `json:"seq"`
		Turn            int            `json:"turn"`
		Trigger         string         `json:"trigger,omitempty"`
		Verdict         verify.Verdict `json:"verdict"`
		LossRatio       float64        `json:"loss_ratio"`
		LossRatioTokens float64        `json:"loss_ratio_tokens"`
		SourceBytes     int            `json:"source_bytes"`
		SummaryBytes    int            `json:"summary_bytes"`
		Unverifiable    bool           `json:"unverifiable"`
		// Note is "nothing was open: nothing to keep" when the
		// preservation set is empty, "" otherwise.
		Note     string   `json:"note,omitempty"`
		Attested bool     `json:"attested"`
		Reasons  []string `json:"reasons"`
		// Review counts the items listed for a person to judge: lost,
		// but only inferred, so no reason to violate; ReviewByKind the
		// same per kind (absent when there is none).
		Review          int            `json:"review"`
		ReviewByKind    map[string]int `json:"review_by_kind,omitempty"`
		Items           []JSONItem     `json:"items"`
		UnsourcedClaims []string       `json:"unsourced_claims"`
		Consumers       []JSONConsumer `json:"consumers"`
		Warnings        []JSONWarning  `json:"warnings"`
	}
	// JSONItem is one item of a preservation set with its status in the
	// summary. On the wire it is written in full or as a reference to its
	// previous entry (json_refs.go); decoded, it is always whole.
	JSONItem struct {
		// Ref numbers the item within its file: every entry of one item
		// has the same ref.
		Ref        int             `json:"ref"`
		ID         string          `json:"id"`
		Kind       verify.Kind     `json:"kind"`
		Key        string          `json:"key"`
		Text       string          `json:"text"`
		Action     string          `json:"action,omitempty"`
		Condition  string          `json:"condition,omitempty"`
		Aliases    []string        `json:"aliases,omitempty"`
		Turn       int             `json:"turn"`
		Origin     string          `json:"origin"`
		Open       bool            `json:"open"`
		ClosedBy   string          `json:"closed_by,omitempty"`
		Status     verify.Status   `json:"status"`
		Score      float64         `json:"score"`
		Evidence   *JSONEvidence   `json:"evidence"`
		SelfReport *verify.Finding `json:"self_report"`
		Why        string          `json:"why"`
		// Basis is how sure the source is that the item is owed
		// (recorded, stated or inferred) and Cue what decided it; Review
		// marks a lost inferred item: listed, not counted.
		Basis  verify.Basis `json:"basis"`
		Cue    string       `json:"cue"`
		Review bool         `json:"review,omitempty"`
		// reference: written as a reference, the item being retained
		// and unchanged since its previous entry; evidence: how the
		// reference writes its evidence (evidenceWritten…); sameWhy: its
		// why left out, being the previous entry's.
		reference, sameWhy bool
		evidence           int
	}
	// JSONEvidence is where in the summary an item was found.
	JSONEvidence struct {
		Start    int             `json:"start"`
		End      int             `json:"end"`
		Text     string          `json:"text"`
		Section  string          `json:"section,omitempty"`
		Polarity verify.Polarity `json:"polarity"`
	}
	// JSONConsumer is the gate's decision for one consumer.
	JSONConsumer struct {
		Name     string        `json:"name"`
		Requires []verify.Kind `json:"requires"`
		Allowed  bool          `json:"allowed"`
		Why      []string      `json:"why"`
	}
	// JSONFinding is a run-level finding (false completion, orphaned result...).
	JSONFinding struct {
		Kind       verify.FindingKind `json:"kind"`
		Turn       int                `json:"turn"`
		Item       string             `json:"item"`
		ItemID     string             `json:"item_id"`
		LostAt     *int               `json:"lost_at"`
		OriginTurn int                `json:"origin_turn"`
		Text       string             `json:"text"`
		Why        string             `json:"why"`
	}
	// JSONLineage is one item's status across compactions.
	JSONLineage struct {
		ID        string      `json:"id"`
		Kind      verify.Kind `json:"kind"`
		Key       string      `json:"key"`
		Turn      int         `json:"turn"`
		Steps     []JSONStep  `json:"steps"`
		FirstLoss *int        `json:"first_loss"`
		ClosedAt  *int        `json:"closed_turn"`
	}
	// JSONStep is an item's status in one compaction, or in a run of
	// consecutive compactions from Seq to Through that gave it the same.
	JSONStep struct {
		Seq     int           `json:"seq"`
		Through int           `json:"through,omitempty"`
		Status  verify.Status `json:"status"`
		// Review: lost there, but only inferred, so not counted.
		Review bool `json:"review,omitempty"`
	}
	// JSONWarning is a parse or sanity problem, with its line or seq.
	JSONWarning struct {
		Line int    `json:"line,omitempty"`
		Seq  int    `json:"seq,omitempty"`
		Msg  string `json:"message"`
	}
)

// WriteJSON writes the JSON report of results.
func WriteJSON(w io.Writer, results []*verify.Result) error {
	return (&Report{Results: results}).JSON(w)
}

// JSON writes the report as JSON (README, "The JSON report"): the verified
// runs, then the files that could not be verified, then the groups.
func (rep *Report) JSON(w io.Writer) error {
	return streamJSON(w, rep)
}

// jsonReport is the report in its JSON schema.
func (rep *Report) jsonReport() JSONReport {
	out := JSONReport{Version: ReportVersion, Verdict: rep.OverallVerdict(), Files: []JSONFile{}}
	for _, r := range rep.Results {
		if rep.shows(r) {
			out.Files = append(out.Files, rep.FileJSON(r))
		}
	}
	for _, u := range rep.Unverified {
		out.Files = append(out.Files, JSONFile{Path: u.Path, Error: u.Error})
	}
	if rep.GroupBy != "" {
		out.GroupBy = rep.GroupBy
		out.Groups = groupsJSON(groupTallies(rep.tallies(), rep.GroupBy))
	}
	return out
}

// writeJSON encodes v indented, with <, > and & as they are and every
// invisible character escaped (escapeInvisible).
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(escapeInvisible(buf.Bytes(), jsonEscape))
	return err
}

// MarshalJSON writes a file that could not be verified as its path and
// error only: empty lists there would read as "verified, nothing found".
func (f JSONFile) MarshalJSON() ([]byte, error) {
	var v any = plainFile(f)
	if f.Error != "" {
		v = failedFile{f.Path, f.Error}
	}
	return plainJSON(v)
}

// plainJSON encodes v on one line with <, > and & as they are, without
// the final newline; the writer around it escapes invisible characters.
func plainJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func intPtr(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}

// ToJSON converts a result to its report schema, every compaction listed.
func ToJSON(r *verify.Result) JSONFile {
	return (&Report{}).FileJSON(r)
}

// FileJSON converts a result to its report schema as rep writes it: the
// compactions rep shows, each item in full or as a reference to its entry
// in an earlier one (json_refs.go). It is the one conversion of a file:
// the streamed report writes what it returns.
func (rep *Report) FileJSON(r *verify.Result) JSONFile {
	f := fileHead(r)
	f.Parent = rep.Parents[r.Path]
	refs := newItemRefs(rep.EvidenceAll)
	for _, c := range r.Compactions {
		if rep.showsCompaction(c) {
			f.Compactions = append(f.Compactions, refs.compaction(c))
		}
	}
	order := compactionOrder(r)
	for _, lg := range r.Lineage {
		f.Lineage = append(f.Lineage, lineageJSON(lg, order))
	}
	return f
}

// fileHead is a file's entry without its compactions and lineage.
func fileHead(r *verify.Result) JSONFile {
	f := JSONFile{Path: r.Path, Format: r.Format, Runtime: Runtime(r), Verdict: FileVerdict(r), Source: r.Source, Turns: r.Turns,
		Compactions: []JSONCompaction{}, Findings: []JSONFinding{}, Lineage: []JSONLineage{}, Warnings: warningsJSON(r.Warnings)}
	if r.Transcript != nil {
		f.Meta = metaFields(r.Transcript.Meta)
	}
	if len(r.Compactions) == 0 {
		f.Note = verify.NoCompaction
	}
	for _, fd := range r.Findings {
		f.Findings = append(f.Findings, JSONFinding{Kind: fd.Kind, Turn: fd.Turn, Item: fd.Item, ItemID: fd.ItemID,
			LostAt: intPtr(fd.LostAt), OriginTurn: fd.OriginTurn, Text: fd.Text, Why: fd.Why})
	}
	return f
}

// compactionOrder maps each compaction's seq to its place in the run.
func compactionOrder(r *verify.Result) map[int]int {
	order := make(map[int]int, len(r.Compactions))
	for i, c := range r.Compactions {
		order[c.Seq] = i
	}
	return order
}

// lineageJSON converts one item's lineage. Consecutive compactions that
// gave the item the same status are one step (Seq to Through): an item
// kept by a hundred summaries in a row is one step, not a hundred.
func lineageJSON(lg *verify.Lineage, order map[int]int) JSONLineage {
	jl := JSONLineage{ID: lg.ID, Kind: lg.Kind, Key: lg.Key, Turn: lg.Turn, FirstLoss: intPtr(lg.FirstLoss)}
	if !lg.Open && lg.ClosedTurn > 0 {
		jl.ClosedAt = intPtr(lg.ClosedTurn)
	}
	for _, s := range lg.StepList() {
		if n := len(jl.Steps); n > 0 {
			last := &jl.Steps[n-1]
			end := last.Seq
			if last.Through != 0 {
				end = last.Through
			}
			i, ok := order[s.Seq]
			j, okEnd := order[end]
			if ok && okEnd && i == j+1 && last.Status == s.Status && last.Review == s.Review {
				last.Through = s.Seq
				continue
			}
		}
		jl.Steps = append(jl.Steps, JSONStep{Seq: s.Seq, Status: s.Status, Review: s.Review})
	}
	return jl
}

// compaction converts one compaction's check, its items in full or as
// references to their previous entries.
func (t *itemRefs) compaction(c *verify.CompactionResult) JSONCompaction {
	jc := compactionJSON(c)
	t.mark(jc.Items)
	return jc
}

// compactionJSON converts one compaction's check, every item in full.
func compactionJSON(c *verify.CompactionResult) JSONCompaction {
	jc := JSONCompaction{Seq: c.Seq, Turn: c.Turn, Trigger: c.Trigger, Verdict: c.Verdict,
		LossRatio: round4(c.LossRatio), LossRatioTokens: round4(c.LossRatioTokens),
		SourceBytes: c.SourceBytes, SummaryBytes: c.SummaryBytes, Unverifiable: c.Unverifiable, Attested: c.Attested,
		Reasons: nonNil(c.Reasons), Items: []JSONItem{}, UnsourcedClaims: nonNil(c.UnsourcedClaims),
		Consumers: []JSONConsumer{}, Warnings: warningsJSON(c.Warnings)}
	items := c.ItemResults()
	if len(items) == 0 && !c.Unverifiable {
		jc.Note = verify.NothingOpen
	}
	for _, it := range items {
		ji := JSONItem{ID: it.ID, Kind: it.Kind, Key: it.Key, Text: it.Text, Action: it.Action, Condition: it.Condition, Aliases: it.Aliases,
			Turn: it.Turn, Origin: it.Origin, Open: it.Status != verify.Resurrected, Status: it.Status, Score: it.Score, Why: it.Why,
			Basis: it.Basis, Cue: it.Cue, Review: it.Review}
		if it.Status == verify.Resurrected {
			ji.ClosedBy = it.ClosedBy
		}
		if it.SelfReport != verify.NoClaim {
			sr := it.SelfReport
			ji.SelfReport = &sr
		}
		if e := it.Evidence; e != nil {
			ji.Evidence = &JSONEvidence{Start: e.Start, End: e.End, Text: e.Text, Section: e.Section, Polarity: e.Polarity}
		}
		jc.Items = append(jc.Items, ji)
	}
	if n, by := c.ReviewCount(); n > 0 {
		jc.Review, jc.ReviewByKind = n, map[string]int{}
		for k, v := range by {
			jc.ReviewByKind[string(k)] = v
		}
	}
	for _, cs := range c.Consumers {
		jc.Consumers = append(jc.Consumers, JSONConsumer{Name: cs.Name, Requires: nonNilKinds(cs.Requires), Allowed: cs.Allowed, Why: nonNil(cs.Why)})
	}
	return jc
}

// metaFields are the meta line's fields --group-by can group on (Meta.Field):
// format, run, agent and source when set, and every extra scalar field; nil
// when there is none.
func metaFields(m model.Meta) map[string]any {
	out := map[string]any{}
	for k, v := range m.Extra {
		out[k] = v
	}
	if s, ok := m.Extra["skipped"]; ok {
		out["skipped"] = skippedCounts(s)
	}
	for _, k := range []string{"format", "run", "agent", "source"} {
		if v := m.Field(k); v != "" {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func warningsJSON(ws []verify.Warning) []JSONWarning {
	out := []JSONWarning{}
	for _, w := range ws {
		out = append(out, JSONWarning(w))
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilKinds(s []verify.Kind) []verify.Kind {
	if s == nil {
		return []verify.Kind{}
	}
	return s
}

func round4(x float64) float64 { return float64(int64(x*10000+0.5*sign(x))) / 10000 }

func sign(x float64) float64 {
	if x < 0 {
		return -1
	}
	return 1
}

// plainFile is JSONFile without its MarshalJSON method.
type plainFile JSONFile

// failedFile is a file that could not be verified: its path and error.
type failedFile struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}
