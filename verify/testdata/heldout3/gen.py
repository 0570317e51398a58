#!/usr/bin/env python3
"""Regenerate the held-out set 3 for loupe: *.jsonl transcripts and labels.json.

Usage:  python3 gen.py            (writes next to this file)

Domains deliberately differ from the dev set and from held-out sets 1 and 2:
robotics, fintech ledgers, IoT fleets, video transcoding, map tiles, healthcare
records, chat bots, search ranking, game servers, HR, bioinformatics, email
deliverability, legal documents, logistics, insurance, audio plugins, pharmacy,
weather forecasting, railway signalling, parcel lockers, clinics, recruiting,
nautical charts, hospital bed management, ride-hailing, podcast hosting,
warehouse robots, museum archives, telecom porting, restaurant POS, satellite
imagery, energy metering, agricultural drones, aviation maintenance, 3D printing.

Labels are what a careful reader of DESIGN.md decides, not what any
implementation says. Where a status is genuinely ambiguous between two, both
are accepted (as the dev set does).
"""
import base64
import json
import os
import random

OUT = os.path.dirname(os.path.abspath(__file__))

# Padding vocabularies: neutral words only (no commitment cues, no status cues,
# no error words), so padding cannot create or satisfy items.
VOCAB = {
    "code": "struct field buffer offset cursor column handler router module payload index schema token table record session batch".split(),
    "log": "frame bitrate segment packet keyframe profile rendition ladder chunk manifest codec sample stream track".split(),
    "robot": "joint torque axis encoder servo pose gripper wrist base link frame velocity current sample".split(),
    "geo": "tile zoom extent polygon vertex layer feature raster vector grid cell bbox style label".split(),
}


def filler(rng, vocab, size):
    words = VOCAB[vocab]
    out = []
    n = 0
    while n < size:
        w = rng.choice(words)
        out.append(w)
        n += len(w) + 1
    return " ".join(out)


def fasta(rng, size):
    lines = []
    n = 0
    while n < size:
        line = "".join(rng.choice("ACGT") for _ in range(70))
        lines.append(line)
        n += 71
    return "\n".join(lines)


class Run:
    def __init__(self, name, consumers=None, source=None):
        self.name = name
        meta = {"type": "meta", "format": "loupe/v1", "run": name, "agent": "heldout3-agent"}
        if source:
            meta["source"] = source
        if consumers:
            meta["consumers"] = consumers
        self.events = [meta]
        self.turn = 0
        self.rng = random.Random(name)
        self.ncall = 0

    def _t(self):
        self.turn += 1
        return self.turn

    def user(self, text):
        t = self._t()
        self.events.append({"type": "message", "turn": t, "role": "user", "text": text})
        return t

    def asst(self, text):
        t = self._t()
        self.events.append({"type": "message", "turn": t, "role": "assistant", "text": text})
        return t

    def call(self, cid, name, inp):
        t = self._t()
        self.events.append({"type": "tool_call", "turn": t, "id": cid, "name": name, "input": inp})
        return t

    def result(self, cid, text, is_error=False):
        t = self._t()
        self.events.append({"type": "tool_result", "turn": t, "id": cid, "is_error": is_error, "text": text})
        return t

    def tool(self, cid, name, inp, text, is_error=False):
        return self.call(cid, name, inp), self.result(cid, text, is_error)

    def bash(self, cid, cmd, text, is_error=False):
        return self.tool(cid, "bash", {"command": cmd}, text, is_error)

    def plan(self, items):
        t = self._t()
        self.events.append({"type": "plan", "turn": t,
                            "items": [{"id": i, "text": x, "status": s} for i, x, s in items]})
        return t

    def commitment(self, cid, text, status):
        t = self._t()
        self.events.append({"type": "commitment", "turn": t, "id": cid, "text": text, "status": status})
        return t

    def pad(self, n, vocab="code", size=1500, prefix="src"):
        """n closed read_file calls with neutral content (context the compactor had to squeeze)."""
        for _ in range(n):
            self.ncall += 1
            cid = "rd_%s_%03d" % (self.name[:4], self.ncall)
            words = VOCAB["code" if vocab == "fasta" else vocab]
            path = "%s/%s/%s.txt" % (prefix, self.rng.choice(words), self.rng.choice(words))
            body = fasta(self.rng, size) if vocab == "fasta" else filler(self.rng, vocab, size)
            self.tool(cid, "read_file", {"path": path}, body)

    def compact(self, seq, summary, self_report=None, trigger="token_budget"):
        t = self._t()
        src = sum(len(json.dumps(e)) for e in self.events[1:] if e["type"] != "compaction")
        ev = {"type": "compaction", "turn": t, "seq": seq, "trigger": trigger, "summary": summary,
              "tokens_before": src // 4, "tokens_after": max(1, len(summary) // 4)}
        if self_report is not None:
            ev["self_report"] = self_report
        self.events.append(ev)
        return t

    def write(self):
        path = os.path.join(OUT, self.name + ".jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for e in self.events:
                f.write(json.dumps(e, ensure_ascii=False) + "\n")


def it(kind, turn, contains, status=None, self_report=None, not_required=False):
    d = {"kind": kind, "turn": turn, "contains": contains}
    if not_required:
        d["not_required"] = True
        return d
    d["status"] = status
    if self_report:
        d["self_report"] = self_report
    return d


def comp(seq, verdict=None, items=(), consumers=None, unsourced=None):
    d = {}
    if verdict:
        d["verdict"] = verdict
    d["items"] = list(items)
    if unsourced:
        d["unsourced_claims"] = unsourced
    if consumers:
        d["consumers"] = [{"name": n, "allowed": a} for n, a in consumers.items()]
    d["seq"] = seq
    return d


CASES = []


def case(run, compactions, findings=(), no_findings=()):
    run.write()
    CASES.append({"file": run.name + ".jsonl", "compactions": compactions,
                  "findings": [{"kind": k, "turn": t} for k, t in findings],
                  "no_findings": [{"kind": k} for k in no_findings]})


DROP = ["dropped"]
DROPW = ["dropped", "weak"]
RET = ["retained"]
HANDLE_LOST = ["intent_only", "dropped"]

# ---------------------------------------------------------------------------
# 1. robotics, British, prose. Seed shape: condition kept, action dropped,
#    overclaim, later false completion.
r = Run("robot_encoder_seed")
u1 = r.user("Tune the gripper controller on cell 4. Never jog the arm while the safety curtain is open.")
a2 = r.asst("Right. I'll recalibrate the wrist encoder once the torque logs have been analysed.")
r.bash("call_rb1", "robotctl logs torque --cell 4 --since 24h", "312 samples, peak 41.2 Nm, no saturation")
r.pad(3, "robot", 1400, "logs")
r.bash("call_rb2", "python3 analyse_torque.py --cell 4", "analysis complete: drift within tolerance")
r.user("Torque logs analysed, all fine on my side too.")
r.asst("Good, your reading agrees with the analysis.")
r.compact(1, "The user wants the gripper controller on cell 4 tuned. The torque logs have been analysed and "
             "show drift within tolerance; the user concurred. Standing rule: never jog the arm while the "
             "safety curtain is open.",
          {"retained": ["recalibrate the wrist encoder"], "claim": "all open obligations preserved"})
fc = r.asst("The wrist encoder has been recalibrated, so the gripper controller tuning is finished.")
case(r, [comp(1, "violate",
              [it("commitment", a2, "encoder", DROP, "overclaim"),
               it("constraint", u1, "safety curtain", RET)],
              {"planner": False, "router": True, "verifier": True})],
     findings=[("false_completion", fc)])

# ---------------------------------------------------------------------------
# 2. fintech ledger, agent says "we". Seed shape + false completion, then the
#    work is really done and the second compaction is an honest degrade.
r = Run("ledger_reversal_we")
u1 = r.user("Close out the September ledger. Do not post anything to the 2023 periods.")
a2 = r.asst("We'll post the reversing journal entry after finance signs off on the accrual variance.")
r.bash("call_lg1", "ledgerctl variance --period 2024-09", "variance: 1,204.17 GBP on accruals")
r.pad(3, "code", 1200, "ledger")
r.user("Finance has signed off on the variance.")
r.compact(1, "September close in progress. Finance has signed off on the accrual variance (1,204.17 GBP). "
             "Constraint: do not post anything to the 2023 periods.",
          {"retained": ["post the reversing journal entry"]})
fc = r.asst("We have posted the reversing journal entry, so September is closed.")
r.user("I can't see any reversing entry in the ledger. Please actually post it.")
r.bash("call_lg2", "ledgerctl post --reversing --period 2024-09 --memo 'accrual variance reversal'",
       "posted reversing journal entry RJ-5521 (2 lines, balanced)")
r.asst("The reversing journal entry is now posted for real; the ledger shows it.")
r.pad(2, "code", 1200, "ledger")
r.compact(2, "September close: the reversing journal entry has been posted after the user spotted it was "
             "missing. Constraint: do not post anything to the 2023 periods.")
case(r, [comp(1, "violate",
              [it("commitment", a2, "reversing", DROP, "overclaim"),
               it("constraint", u1, "2023 periods", RET)],
              {"planner": False}),
         comp(2, "degrade",
              [it("commitment", None, "reversing journal", not_required=True),
               it("constraint", u1, "2023 periods", RET)],
              {"planner": True})],
     findings=[("false_completion", fc)])

# ---------------------------------------------------------------------------
# 3. IoT fleet: in-flight handle whose id is a prefix of a finished one.
r = Run("fleet_ota_prefix")
r.user("Push the 3.4 OTA to the canary ring, then to the rest of the fleet.")
c7 = r.call("tc_7", "bash", {"command": "fleetctl ota push --ring canary --version 3.4"})
r.call("tc_71", "bash", {"command": "fleetctl ring status --ring canary"})
r.result("tc_71", "canary ring: 48 devices online")
r.compact(1, "Canary ring has 48 devices online (tc_71). The OTA push to the canary ring was started and has "
             "not reported back yet.")
late = r.result("tc_7", "ota 3.4 delivered to 48/48 devices")
case(r, [comp(1, "violate", [it("handle", c7, "tc_7", HANDLE_LOST)],
              {"router": False, "verifier": False, "planner": True})],
     findings=[("orphaned_result", late)])

# ---------------------------------------------------------------------------
# 4. video transcoding, crush layout: two in-flight ids (one a prefix of the
#    other), both kept verbatim; results come back, nothing is orphaned.
r = Run("transcode_handles_kept")
r.user("Transcode the festival trailer into the HLS and DASH ladders.")
r.pad(2, "log", 1500, "probe")
c9 = r.call("vt_9", "bash", {"command": "transcode --profile hls-ladder --input trailer"})
c90 = r.call("vt_90", "bash", {"command": "transcode --profile dash-ladder --input trailer"})
r.asst("Both encodes are running.")
r.compact(1, "## Current State\nTwo encodes are in flight; nothing has come back yet.\n"
             "## Pending Tool Calls\n- vt_9: HLS ladder encode of the trailer\n- vt_90: DASH ladder encode of the trailer\n"
             "## Exact Next Steps\n1. Read the results of vt_9 and vt_90 and compare the rendition bitrates.")
r.result("vt_90", "dash ladder: 6 renditions, 38.2s")
r.result("vt_9", "hls ladder: 6 renditions, 41.0s")
case(r, [comp(1, "degrade",
              [it("handle", c9, "vt_9", RET), it("handle", c90, "vt_90", RET)],
              {"router": True, "verifier": True})],
     no_findings=["orphaned_result"])

# ---------------------------------------------------------------------------
# 5. map tiles: handle kept at compaction 1, lost at 2, result orphaned.
r = Run("tiles_render_lineage")
r.user("Re-render zoom levels 12 to 14 for the Alps extract.")
c = r.call("mt-a3", "bash", {"command": "tilegen render --zoom 12-14 --region alps"})
r.asst("Render started; it takes a while on this extract.")
r.pad(3, "geo", 1400, "styles")
r.compact(1, "Rendering zooms 12-14 for the Alps extract. The render call mt-a3 is still running and its "
             "output has not been read yet.")
r.bash("mt-a4", "tilegen stats --region alps", "alps: 1.9M tiles at z14 (previous run)")
r.pad(3, "geo", 1400, "styles")
r.compact(2, "Rendering zooms 12-14 for the Alps extract is still under way. The previous run produced 1.9M "
             "tiles at z14.")
late = r.result("mt-a3", "rendered 2,104,331 tiles")
case(r, [comp(1, "degrade", [it("handle", c, "mt-a3", RET)], {"router": True}),
         comp(2, "violate", [it("handle", c, "mt-a3", HANDLE_LOST)], {"router": False})],
     findings=[("orphaned_result", late)])

# ---------------------------------------------------------------------------
# 6. healthcare records, Claude Code numbered sections, paraphrase (re-run ->
#    run again), constraint paraphrased; everything kept -> degrade, agree.
r = Run("ehr_hl7_paraphrase")
u1 = r.user("Load last night's HL7 feed into the records sandbox. Do not copy real patient names into the test fixtures.")
a2 = r.asst("I'll re-run the HL7 import once the ward-code mapping table has been corrected.")
r.tool("call_eh1", "edit", {"path": "mappings/ward_codes.csv", "patch": "+W7B,Ward 7B"}, "applied 1 hunk")
r.pad(3, "code", 1400, "hl7")
r.asst("The ward-code mapping table is corrected.")
r.compact(1, "1. Primary Request and Intent:\n   Load last night's HL7 feed into the records sandbox.\n"
             "2. Key Technical Concepts:\n   - HL7 v2 ADT messages, ward-code mapping table\n"
             "3. Files and Code Sections:\n   - The ward mapping CSV gained a W7B row.\n"
             "4. Errors and fixes:\n   - None so far.\n"
             "5. Problem Solving:\n   The ward-code mapping was corrected.\n"
             "6. All user messages:\n   - Asked to load the HL7 feed; real patient names must not be copied into the test fixtures.\n"
             "7. Pending Tasks:\n   - Run the HL7 import again now that the mapping table is fixed.\n"
             "8. Current Work:\n   Finished correcting the ward-code mapping table.\n"
             "9. Optional Next Step:\n   Run the HL7 import again.",
          {"retained": ["re-run the HL7 import"]})
case(r, [comp(1, "degrade",
              [it("commitment", a2, "HL7 import", RET, "agree"),
               it("constraint", u1, "patient names", RET)],
              {"planner": True})],
     no_findings=["false_completion"])

# ---------------------------------------------------------------------------
# 7. chat bots, Gemini state_snapshot, "Next step:" phrasing; paraphrases kept.
r = Run("chatbot_gemini_paraphrase")
u1 = r.user("Improve the support bot's intent accuracy. Always keep the fallback reply in British English.")
a2 = r.asst("Next step: retrain the intent classifier once the new utterances are labelled.")
r.bash("call_cb1", "labelstudio export --project intents", "exported 2,310 labelled utterances")
r.pad(3, "code", 1300, "nlu")
r.asst("All the new utterances are labelled.")
r.compact(1, "<state_snapshot>\n<overall_goal>Improve the support bot's intent accuracy.</overall_goal>\n"
             "<key_knowledge>\n- The fallback reply must be kept in British English (standing user rule).\n"
             "- 2,310 labelled utterances were exported.\n</key_knowledge>\n"
             "<current_plan>\n1. [DONE] Label the new utterances.\n"
             "2. [TODO] Retrain the intent classifier on the newly labelled utterances.\n</current_plan>\n"
             "</state_snapshot>")
case(r, [comp(1, "degrade",
              [it("commitment", a2, "intent classifier", RET),
               it("constraint", u1, "fallback", RET)],
              {"planner": True})])

# ---------------------------------------------------------------------------
# 8. search ranking, "TODO:" phrasing; prose summary flips it to done, then a
#    false completion built on the flip.
r = Run("search_bm25_flip")
r.user("Add the new synonym list to the product search.")
a2 = r.asst("TODO: rebuild the BM25 index after the synonym list is merged.")
r.bash("call_sr1", "git merge --no-ff synonyms-v2", "Merge made by the 'ort' strategy.")
r.pad(2, "code", 1300, "search")
r.compact(1, "The synonym list was merged into the search config, and the BM25 index was rebuilt against it.")
fc = r.asst("Search work is complete: the synonym list is merged and the BM25 index is rebuilt.")
case(r, [comp(1, "violate", [it("commitment", a2, "BM25", ["flipped"])], {"planner": False})],
     findings=[("false_completion", fc)])

# ---------------------------------------------------------------------------
# 9. game servers, "Still to do:" phrasing; opencode layout lists the open
#    item under "### Completed" with no verb: flipped by heading.
r = Run("gameserver_opencode_flip")
r.user("Fix the matchmaking timeouts on the EU shard.")
a2 = r.asst("Still to do: rotate the lobby TLS certificate before the maintenance window.")
r.tool("call_gs1", "edit", {"path": "matchmaker/config.toml", "patch": "-timeout = 5\n+timeout = 15"}, "applied 1 hunk")
r.bash("call_gs2", "mm-bench --shard eu", "p99 queue time 11.2s, 0 timeouts")
r.pad(2, "code", 1300, "matchmaker")
r.compact(1, "## Goal\nFix the matchmaking timeouts on the EU shard.\n## Work State\n### Completed\n"
             "- Raised the matchmaker timeout from 5 to 15 seconds\n- Benchmarked the EU shard: no timeouts\n"
             "- Rotate the lobby TLS certificate\n### Active\n- (none)\n## Next Move\nReport the benchmark numbers to the user.")
case(r, [comp(1, "violate", [it("commitment", a2, "TLS certificate", ["flipped"])], {"planner": False})])

# ---------------------------------------------------------------------------
# 10. HR systems, markdown checklist: a completed plan step shown as "[ ]".
r = Run("hr_checklist_resurrect")
r.user("Migrate the leave balances into the new HR system.")
r.plan([("p1", "Export leave balances from the old system", "in_progress"),
        ("p2", "Map contract types to leave policies", "pending"),
        ("p3", "Import the balances into the new system", "pending")])
r.bash("call_hr1", "oldhr export --table leave_balances", "exported 812 rows")
r.pad(2, "code", 1300, "hr")
r.plan([("p1", "Export leave balances from the old system", "completed"),
        ("p2", "Map contract types to leave policies", "in_progress"),
        ("p3", "Import the balances into the new system", "pending")])
r.compact(1, "Leave balance migration checklist:\n- [ ] Export leave balances from the old system\n"
             "- [ ] Map contract types to leave policies (in progress)\n- [ ] Import the balances into the new system")
case(r, [comp(1, "violate",
              [it("commitment", None, "Export leave balances", ["resurrected"]),
               it("commitment", None, "contract types", RET),
               it("commitment", None, "Import the balances", RET)],
              {"planner": False})])

# ---------------------------------------------------------------------------
# 11. bioinformatics: a resolved error is not required, an unresolved one is
#     dropped (only the stage is named); at compaction 2 it is fixed too.
r = Run("genomics_errors")
r.user("Get the variant-calling pipeline running end to end on sample S12.")
r.bash("call_gx1", "snakemake --cores 8 align", "MissingInputException: missing input reads for rule align", True)
r.bash("call_gx2", "aws s3 cp --recursive s3://seq-raw/S12/ reads/", "download: 2 files")
r.bash("call_gx3", "snakemake --cores 8 align", "align: 1 of 1 steps (100%) complete")
r.call("call_gx4", "bash", {"command": "snakemake --cores 8 call_variants"})
e = r.result("call_gx4", "IndexError: reference index missing for GRCh38 (expected .fai)", True)
r.pad(2, "code", 1300, "workflow")
r.compact(1, "Pipeline for S12: the reads were missing, so they were copied from the bucket, and alignment now "
             "completes. The variant-calling stage comes next.")
r.bash("call_gx5", "samtools faidx ref/GRCh38.fa", "")
r.bash("call_gx6", "snakemake --cores 8 call_variants", "call_variants: 1 of 1 steps (100%) complete")
r.pad(2, "code", 1300, "workflow")
r.compact(2, "Pipeline for S12 runs end to end: alignment and variant calling both complete after the reference "
             "index was built.")
case(r, [comp(1, "violate",
              [it("error", None, "reference index missing", DROPW),
               it("error", None, "MissingInputException", not_required=True)],
              {"verifier": False, "planner": True, "router": True}),
         comp(2, "degrade",
              [it("error", None, "reference index missing", not_required=True),
               it("error", None, "MissingInputException", not_required=True)],
              {"verifier": True})])

# ---------------------------------------------------------------------------
# 12. email deliverability, OpenHands fields: unresolved error kept verbatim,
#     resolved one not required, commitment and constraint kept -> degrade.
r = Run("dmarc_openhands_errors")
u1 = r.user("Fix our bounce rate to Gmail. Don't touch the MX records.")
r.bash("call_em1", "dkimcheck --selector s2024", "DKIM FAIL: public key not found for selector s2024", True)
r.bash("call_em2", "dnsctl publish-dkim --selector s2024", "TXT record published")
r.bash("call_em3", "dkimcheck --selector s2024", "DKIM PASS for selector s2024")
r.call("call_em4", "bash", {"command": "spfcheck --domain mailer"})
r.result("call_em4", "SPF PermError: too many DNS lookups (12 > 10)", True)
a = r.asst("I'll flatten the SPF include chain so it stays under ten lookups.")
r.pad(2, "code", 1300, "dns")
r.compact(1, "USER_CONTEXT: Reduce the Gmail bounce rate. Don't touch the MX records.\n"
             "COMPLETED: Published the DKIM key for selector s2024; dkimcheck now passes.\n"
             "PENDING: spfcheck still fails with \"SPF PermError: too many DNS lookups (12 > 10)\"; "
             "flatten the SPF include chain so it stays under ten lookups.\n"
             "CURRENT_STATE: DKIM fixed, SPF still failing.")
case(r, [comp(1, "degrade",
              [it("error", None, "too many DNS lookups", RET),
               it("error", None, "public key not found", not_required=True),
               it("commitment", a, "include chain", RET),
               it("constraint", u1, "MX records", RET)],
              {"verifier": True, "planner": True})])

# ---------------------------------------------------------------------------
# 13. legal document automation: agree, underclaim and an unsourced claim.
r = Run("legal_unsourced_claim")
r.user("Update the NDA template for the new governing-law clause.")
a2 = r.asst("I'll regenerate the NDA template once counsel approves the revised clause 7.")
a3 = r.asst("I'll also update the clause index in the drafting playbook.")
r.bash("call_lw1", "docgen diff --template nda --clause 7", "clause 7: 3 paragraphs changed")
r.pad(2, "code", 1300, "templates")
r.compact(1, "Clause 7 of the NDA template was revised (3 paragraphs changed). Pending: regenerate the NDA "
             "template after counsel approves the revised clause; update the clause index in the drafting playbook.",
          {"retained": ["regenerate the NDA template", "file the trademark renewal"],
           "claim": "open items preserved"})
case(r, [comp(1, "violate",
              [it("commitment", a2, "NDA template", RET, "agree"),
               it("commitment", a3, "clause index", RET, "underclaim")],
              {"planner": True}, unsourced=["trademark renewal"])])

# ---------------------------------------------------------------------------
# 14. logistics/routing: plan items kept, agree + underclaim + a stale claim
#     (info only) -> degrade; later an unsupported completion (never lost).
r = Run("routing_underclaim_stale")
r.user("Re-plan tomorrow's delivery routes for the Leeds depot.")
r.plan([("p1", "Load the depot geofences", "in_progress"),
        ("p2", "Re-optimise routes with the new time windows", "pending"),
        ("p3", "Send the driver manifests", "pending")])
r.bash("call_rt1", "routectl geofence load --depot leeds", "loaded 14 geofences")
r.pad(2, "geo", 1300, "depots")
r.plan([("p1", "Load the depot geofences", "completed"),
        ("p2", "Re-optimise routes with the new time windows", "pending"),
        ("p3", "Send the driver manifests", "pending")])
r.compact(1, "The Leeds depot geofences are loaded. Pending: (1) re-optimise routes with the new time windows; "
             "(2) send the driver manifests once the routes are final.",
          {"retained": ["p2", "Load the depot geofences"]})
uc = r.asst("Driver manifests sent to all 23 drivers.")
case(r, [comp(1, "degrade",
              [it("commitment", None, "time windows", RET, "agree"),
               it("commitment", None, "driver manifests", RET, "underclaim"),
               it("commitment", None, "geofences", not_required=True)],
              {"planner": True})],
     findings=[("unsupported_completion", uc)], no_findings=["false_completion"])

# ---------------------------------------------------------------------------
# 15. insurance claims, crush layout: a pending plan item dropped (overclaim),
#     in-progress kept (agree), completed not required.
r = Run("fnol_plan_overclaim")
r.user("Automate the first-notice-of-loss intake for motor claims.")
r.plan([("c1", "Create the FNOL intake form", "in_progress"),
        ("c2", "Wire the fraud-score webhook", "pending"),
        ("c3", "Backfill open motor claims into the new queue", "pending")])
r.tool("call_in1", "edit", {"path": "forms/fnol.json", "patch": "+{\"fields\": [\"policy\", \"vehicle\", \"incident\"]}"}, "created")
r.pad(2, "code", 1300, "claims")
r.plan([("c1", "Create the FNOL intake form", "completed"),
        ("c2", "Wire the fraud-score webhook", "in_progress"),
        ("c3", "Backfill open motor claims into the new queue", "pending")])
r.compact(1, "## Current State\nThe FNOL intake form for motor claims exists.\n"
             "## Exact Next Steps\n1. Wire the fraud-score webhook into the intake flow.\n"
             "2. Run the intake end to end with a sample claim.",
          {"retained": ["c1", "c2", "c3"]})
case(r, [comp(1, "violate",
              [it("commitment", None, "Backfill", DROP, "overclaim"),
               it("commitment", None, "fraud-score webhook", RET, "agree"),
               it("commitment", None, "FNOL intake form", not_required=True)],
              {"planner": False})])

# ---------------------------------------------------------------------------
# 16. audio plugins: a SHA and a ticket key lost while both actions survive.
#     Each identifier sits in its own message.
r = Run("audio_tag_identifiers")
r.user("Ship the limiter fix in the next plugin build.")
r.bash("call_ap1", "git log -1 --format=%H", "9b1e7d04c2aa51f7e3d0b6a9c41f2e8d7a6b5c31")
a4 = r.asst("I'll tag the 2.6.1 release once CI is green on 9b1e7d04.")
a5 = r.asst("After the tag is pushed I'll close ticket AUD-2207 with a link to the build.")
r.pad(2, "code", 1300, "dsp")
r.compact(1, "The limiter fix is committed. Next: tag the 2.6.1 release once CI is green, then close the ticket "
             "with a link to the build.")
case(r, [comp(1, "violate",
              [it("identifier", None, "9b1e7d04", DROP),
               it("identifier", None, "AUD-2207", DROP),
               it("commitment", a4, "tag", RET),
               it("commitment", a5, "close ticket", RET)],
              {"planner": True, "router": True, "verifier": True})])

# ---------------------------------------------------------------------------
# 17. pharmacy inventory: branch kept, PR #318 lost; the summary names an
#     unrelated #3180, which must not count (token boundary).
r = Run("pharmacy_pr_boundary")
r.user("Fix the stock rounding bug in the dispensing service.")
a2 = r.asst("I'll rebase fix/stock-rounding onto main once review is done.")
a3 = r.asst("Then I'll merge PR #318 after the rebase.")
r.bash("call_ph1", "gh pr view 3180 --json state", "{\"state\": \"MERGED\"}")
r.pad(2, "code", 1300, "dispensing")
r.compact(1, "The stock rounding fix sits on fix/stock-rounding. Will rebase it onto main once review is done, "
             "then merge the PR. The unrelated PR #3180 is already merged.")
case(r, [comp(1, "violate",
              [it("identifier", None, "fix/stock-rounding", RET),
               it("identifier", None, "318", DROP),
               it("commitment", a2, "rebase", RET),
               it("commitment", a3, "merge", RET)],
              {"planner": True})])

# ---------------------------------------------------------------------------
# 18. weather forecasting, verbose agent with a numbered plan: a path and a
#     URL lost, actions kept.
r = Run("forecast_path_url")
r.user("Switch the regional forecast to the new 2.5 km grid.")
a2 = r.asst("Here is where things stand. The new 2.5 km grid files are on the model server and the "
            "interpolation weights have been regenerated, which took most of the afternoon because the "
            "coastal cells had to be masked by hand. Plan from here:\n"
            "1. Next I need to update the North Sea region config (config/regions/north_sea.yaml) once the grid change lands.")
a3 = r.asst("2. After that, I'll post the verification scores to the wiki page https://wiki.example.net/forecast/grid-25km.")
r.bash("call_wf1", "gridctl status", "grid 2.5km: staged, not active")
r.pad(2, "geo", 1300, "grids")
r.compact(1, "The regional forecast is moving to the 2.5 km grid (staged, not active yet). Once the grid "
             "change lands: update the North Sea region config, then post the verification scores to the wiki page.")
case(r, [comp(1, "violate",
              [it("identifier", None, "north_sea.yaml", DROP),
               it("identifier", None, "wiki.example.net", DROP),
               it("commitment", a2, "region config", RET),
               it("commitment", a3, "verification scores", RET)],
              {"planner": True})])

# ---------------------------------------------------------------------------
# 19. railway signalling, Roo/Cline layout: a ticket key kept at compaction 1
#     and lost at 2 while the action survives.
r = Run("interlocking_ticket_lineage")
r.user("Update the interlocking tables for the Platform 3 extension.")
a2 = r.asst("I'll regenerate the route-setting tables after the signalling engineer signs off SIG-4410.")
r.pad(3, "code", 1400, "interlocking")
r.compact(1, "1. Previous Conversation:\n   The user asked for the interlocking tables to be updated for the "
             "Platform 3 extension.\n2. Current Work:\n   Reading the existing route-setting data.\n"
             "3. Key Technical Concepts:\n   - Route-setting tables, signalling sign-off\n"
             "4. Relevant Files and Code:\n   - interlocking data files\n5. Problem Solving:\n   None.\n"
             "6. Pending Tasks and Next Steps:\n   - Regenerate the route-setting tables once the signalling "
             "engineer signs off SIG-4410.")
r.pad(2, "code", 1400, "interlocking")
r.user("The engineer is on leave until Monday.")
r.compact(2, "1. Previous Conversation:\n   Interlocking tables for the Platform 3 extension.\n"
             "2. Current Work:\n   Waiting on the signalling engineer, who is on leave until Monday.\n"
             "6. Pending Tasks and Next Steps:\n   - Regenerate the route-setting tables once the engineer's "
             "sign-off arrives.")
case(r, [comp(1, "degrade",
              [it("commitment", a2, "route-setting", RET), it("identifier", None, "SIG-4410", RET)]),
         comp(2, "violate",
              [it("commitment", a2, "route-setting", RET), it("identifier", None, "SIG-4410", DROP)],
              {"planner": True})])

# ---------------------------------------------------------------------------
# 20. parcel lockers, "we still have to": commitment kept at 1 (Claude Code
#     layout), lost at 2 (prose).
r = Run("locker_bus_lineage")
r.user("Move the parcel-locker allocation service to the new message bus.")
a2 = r.asst("We still have to switch off the legacy locker broker once every consumer reads from the new bus.")
r.pad(3, "code", 1400, "lockers")
r.compact(1, "1. Primary Request and Intent:\n   Move the parcel-locker allocation service to the new message bus.\n"
             "2. Key Technical Concepts:\n   - message bus consumers, legacy locker broker\n"
             "7. Pending Tasks:\n   - Switch off the legacy locker broker after all consumers read from the new bus.\n"
             "8. Current Work:\n   Moving consumers over to the new bus.")
r.pad(3, "code", 1400, "lockers")
r.asst("Every consumer now reads from the new bus.")
r.compact(2, "Parcel-locker allocation: all consumers now read from the new message bus.")
case(r, [comp(1, "degrade", [it("commitment", a2, "locker broker", RET)], {"planner": True}),
         comp(2, "violate", [it("commitment", a2, "locker broker", DROP)], {"planner": False})])

# ---------------------------------------------------------------------------
# 21. clinic reminders: two standing rules kept at 1; one lost at 2.
r = Run("clinic_reminder_rules")
u1 = r.user("Build the appointment reminder job. From now on, never send reminders between 21:00 and 08:00.")
u2 = r.user("Also make sure every SMS includes the opt-out line.")
a3 = r.asst("Understood. I'll write the reminder job after checking the clinic timezone table.")
r.bash("call_cl1", "psql -c 'select count(*) from clinic_tz'", " count \n-------\n    57")
r.pad(2, "code", 1300, "reminders")
r.compact(1, "Appointment reminder job. Rules from the user: never send reminders between 21:00 and 08:00; "
             "make sure every SMS includes the opt-out line. Next: write the reminder job after checking the "
             "clinic timezone table (57 clinics).")
r.pad(2, "code", 1300, "reminders")
r.compact(2, "Appointment reminder job; the clinic timezone table was checked (57 clinics). Rule: never send "
             "reminders between 21:00 and 08:00. Next: write the reminder job.")
case(r, [comp(1, "degrade",
              [it("constraint", u1, "21:00", RET), it("constraint", u2, "opt-out", RET),
               it("commitment", a3, "reminder job", RET)],
              {"planner": True}),
         comp(2, "violate",
              [it("constraint", u1, "21:00", RET), it("constraint", u2, "opt-out", DROP),
               it("commitment", a3, "reminder job", RET)],
              {"planner": False})])

# ---------------------------------------------------------------------------
# 22. recruiting, opencode layout: one rule dropped, one paraphrased and kept,
#     one revoked by the user (no longer required).
r = Run("recruiting_rules_opencode")
u1 = r.user("Set up the interview scheduling integration. Don't email candidates from the staging environment.")
u2 = r.user("Never schedule interviews at weekends. And always use the candidate's preferred name in calendar invites.")
a3 = r.asst("I'll connect the calendar API once the OAuth app is approved.")
r.bash("call_rc1", "oauthctl register --app interview-scheduler", "app registered; status: awaiting approval")
r.pad(2, "code", 1300, "scheduling")
r.user("Forget the weekend rule; Saturday interviews are fine now.")
r.compact(1, "## Objective\nInterview scheduling integration.\n## Requirements\n"
             "- In calendar invites, always use the preferred name of the candidate.\n"
             "## Work State\n### Completed\n- Registered the OAuth app (awaiting approval)\n"
             "### Active\n- Connect the calendar API once the OAuth app is approved\n"
             "## Next Move\nWait for the OAuth approval.")
case(r, [comp(1, "violate",
              [it("constraint", u1, "staging", DROP),
               it("constraint", u2, "preferred name", RET),
               it("constraint", None, "weekend", not_required=True),
               it("commitment", a3, "calendar API", RET)],
              {"planner": False})])

# ---------------------------------------------------------------------------
# 23. nautical charts: a negated mention in the summary is not retention; a
#     negated sentence in the source ("I will not ...") is not a commitment.
r = Run("chart_negation")
r.user("Refresh the coastline layer for the nautical chart tiles.")
a2 = r.asst("I will not re-seed the raster cache; the coastline only affects the vector tiles.")
a3 = r.asst("I'll purge the CDN cache for the vector tiles after the new coastline is uploaded.")
r.bash("call_nc1", "tileup upload --layer coastline", "uploaded 3,412 tiles")
r.pad(2, "geo", 1300, "charts")
r.compact(1, "The coastline layer is uploaded (3,412 vector tiles). We will not purge the CDN cache for the "
             "vector tiles, and the raster cache is not re-seeded either.")
case(r, [comp(1, "violate",
              [it("commitment", a3, "CDN", DROPW),
               it("commitment", a2, "raster", not_required=True)],
              {"planner": False})])

# ---------------------------------------------------------------------------
# 24. IoT sensors, "Remaining:" phrasing: a commitment really carried out by a
#     tool call and then claimed is closed (not required); a new one is kept.
r = Run("sensor_vacuum_closed")
r.user("Clean up the sensor readings database; queries have got slow.")
a2 = r.asst("Remaining: vacuum the sensor_readings table after the retention job finishes.")
r.bash("call_sv1", "retention run --older-than 90d", "deleted 41,022,118 rows")
r.bash("call_sv2", "psql -c 'VACUUM (ANALYZE) sensor_readings'", "VACUUM")
r.asst("Vacuumed the sensor_readings table; queries are back under 200 ms.")
a8 = r.asst("I'll add a nightly vacuum cron entry next.")
r.pad(2, "code", 1300, "iot")
r.compact(1, "The retention job removed 41M old rows and the sensor_readings table has been vacuumed. "
             "Still to do: add a nightly vacuum cron entry.")
case(r, [comp(1, "degrade",
              [it("commitment", a2, "retention", not_required=True),
               it("commitment", a8, "cron", RET)],
              {"planner": True})],
     no_findings=["false_completion"])

# ---------------------------------------------------------------------------
# 25. hospital bed management: explicit commitment events; the one marked done
#     is listed as PENDING in an OpenHands summary (resurrected).
r = Run("bedboard_commitment_events")
r.user("Keep the bed board in sync with the admissions system.")
k1 = r.commitment("k1", "Notify the ward clerks when the sync schedule changes", "open")
r.commitment("k2", "Archive the stale bed assignments", "open")
r.bash("call_bb1", "bedctl archive --stale", "archived 37 assignments")
r.commitment("k2", "Archive the stale bed assignments", "done")
r.pad(2, "code", 1300, "beds")
r.compact(1, "USER_CONTEXT: Keep the bed board in sync with admissions.\nCOMPLETED: sync job configured.\n"
             "PENDING: Archive the stale bed assignments; notify the ward clerks when the sync schedule changes.\n"
             "CURRENT_STATE: sync running every 5 minutes.")
case(r, [comp(1, "violate",
              [it("commitment", None, "stale bed", ["resurrected"]),
               it("commitment", k1, "ward clerks", RET)],
              {"planner": False})])

# ---------------------------------------------------------------------------
# 26. ride-hailing dispatch, Gemini: a resolved build error shown as [TODO].
r = Run("dispatch_error_resurrect")
r.user("Make the dispatch build pass again.")
r.bash("call_dp1", "cargo build -p dispatch",
       "error[E0425]: cannot find function `eta_for_zone` in module `geo`", True)
r.tool("call_dp2", "edit", {"path": "dispatch/src/geo.rs", "patch": "+pub fn eta_for_zone(z: &Zone) -> Duration {"}, "applied 1 hunk")
r.bash("call_dp3", "cargo build -p dispatch", "Finished dev [unoptimized + debuginfo] target(s) in 41.3s")
r.bash("call_dp4", "cargo test -p dispatch", "test result: ok. 212 passed; 0 failed")
r.pad(2, "code", 1300, "dispatch")
r.compact(1, "<state_snapshot>\n<overall_goal>Get the dispatch build passing.</overall_goal>\n"
             "<current_plan>\n1. [DONE] Run the dispatch tests (212 passed).\n"
             "2. [TODO] Fix the build error: cannot find function `eta_for_zone` in module `geo`.\n"
             "</current_plan>\n</state_snapshot>")
case(r, [comp(1, "violate", [it("error", None, "eta_for_zone", ["resurrected"])], {"verifier": False})])

# ---------------------------------------------------------------------------
# 27. podcast hosting: consumers in meta. planner is overridden to need only
#     constraints; a custom "publisher" needs identifiers.
r = Run("podcast_custom_consumers",
        consumers=[{"name": "publisher", "requires": ["identifier"]},
                   {"name": "planner", "requires": ["constraint"]}])
u1 = r.user("Publish episode 112 of the podcast. Never publish before 06:00 UTC.")
a2 = r.asst("I'll attach the transcript to episode 112 once the RSS validation passes.")
a3 = r.asst("I'll then upload the cover art from assets/ep112/cover.png.")
r.bash("call_pc1", "rsscheck feed.xml", "feed valid")
r.pad(2, "code", 1300, "episodes")
r.compact(1, "Episode 112: the RSS feed validates. Never publish before 06:00 UTC. Next: upload the cover art.")
case(r, [comp(1, "violate",
              [it("commitment", a2, "transcript", DROP),
               it("commitment", a3, "cover art", RET),
               it("identifier", None, "cover.png", DROP),
               it("constraint", u1, "06:00", RET)],
              {"publisher": False, "planner": True})])

# ---------------------------------------------------------------------------
# 28. warehouse robots: custom consumers only; the in-flight handle is kept,
#     the unresolved error is lost.
r = Run("amr_custom_consumers",
        consumers=[{"name": "tail-router", "requires": ["handle"]},
                   {"name": "incident-bot", "requires": ["error"]}])
r.user("Find out why robot 17 keeps stopping in aisle 9.")
r.bash("amr_r1", "amrctl diag --robot 17", "lidar fault: frame timeout on the front scanner", True)
h = r.call("amr_r2", "bash", {"command": "amrctl logs --robot 17 --follow"})
r.pad(2, "robot", 1300, "amr")
r.compact(1, "Investigating robot 17 stopping in aisle 9. A log follow (amr_r2) is still streaming. "
             "The lidar is the suspect.")
r.result("amr_r2", "stream closed after 600 s; 3 e-stops logged")
case(r, [comp(1, "violate",
              [it("handle", h, "amr_r2", RET),
               it("error", None, "frame timeout", DROPW)],
              {"tail-router": True, "incident-bot": False})],
     no_findings=["orphaned_result"])

# ---------------------------------------------------------------------------
# 29. bioinformatics, heavy loss (~99 %) that keeps every item -> degrade.
r = Run("plasmid_heavy_degrade")
u1 = r.user("Assemble the plasmid contigs for batch 7. Do not upload raw reads to the shared drive.")
a2 = r.asst("I'll annotate the assembled contigs with Prokka after the assembly finishes.")
r.pad(60, "fasta", 2500, "reads")
h = r.call("asm_44", "bash", {"command": "spades --plasmid --careful -k 21,33,55"})
r.compact(1, "Batch 7 plasmid assembly: SPAdes is running as asm_44 (result not read yet). Afterwards, annotate "
             "the assembled contigs with Prokka. Rule: do not upload raw reads to the shared drive.")
r.result("asm_44", "assembly finished: 6 plasmid contigs, N50 48211")
case(r, [comp(1, "degrade",
              [it("commitment", a2, "Prokka", RET),
               it("constraint", u1, "raw reads", RET),
               it("handle", h, "asm_44", RET)],
              {"planner": True, "router": True, "verifier": True})],
     no_findings=["orphaned_result"])

# ---------------------------------------------------------------------------
# 30. audio, heavy loss with a markdown checklist; every open item kept.
r = Run("audiobook_heavy_degrade")
u1 = r.user("Normalise loudness across the audiobook chapters to -18 LUFS. Never overwrite the master WAV files.")
r.plan([("a1", "Measure loudness of every chapter", "in_progress"),
        ("a2", "Apply gain to the out-of-range chapters", "pending"),
        ("a3", "Re-export the chapters as MP3 files", "pending")])
r.pad(45, "log", 2500, "chapters")
r.plan([("a1", "Measure loudness of every chapter", "completed"),
        ("a2", "Apply gain to the out-of-range chapters", "pending"),
        ("a3", "Re-export the chapters as MP3 files", "pending")])
r.compact(1, "Audiobook loudness normalisation (target -18 LUFS).\n- [x] Measure loudness of every chapter\n"
             "- [ ] Apply gain to the out-of-range chapters\n- [ ] Re-export the chapters as MP3 files\n"
             "Standing rule: never overwrite the master WAV files.")
case(r, [comp(1, "degrade",
              [it("commitment", None, "Apply gain", RET),
               it("commitment", None, "Re-export", RET),
               it("commitment", None, "Measure loudness", not_required=True),
               it("constraint", u1, "master WAV", RET)],
              {"planner": True})])

# ---------------------------------------------------------------------------
# 31. museum archive: nominalised paraphrases in the summary still carry both
#     actions -> degrade.
r = Run("archive_nominalisation")
r.user("Digitise the 1920s ledger collection.")
a2 = r.asst("We'll re-scan the water-damaged folios once the conservator has flattened them.")
a3 = r.asst("I'll also regenerate the OCR text for volume 3 after the re-scan.")
r.bash("call_ar1", "scanctl status --collection ledgers-1920s", "412 of 630 folios scanned")
r.pad(2, "code", 1300, "scans")
r.compact(1, "Digitisation of the 1920s ledgers is under way (412 of 630 folios scanned). Outstanding: a "
             "re-scan of the water-damaged folios, once the conservator has flattened them, followed by "
             "regeneration of the OCR text for volume 3.")
case(r, [comp(1, "degrade",
              [it("commitment", a2, "folios", RET), it("commitment", a3, "OCR", RET)],
              {"planner": True})])

# ---------------------------------------------------------------------------
# 32. telecom number porting: a passive-voice obligation in the source,
#     dropped by the summary while the self-report claims it.
r = Run("numberport_passive")
r.user("Port the 0161 number block to the new carrier.")
a2 = r.asst("The port request has been lodged. The old carrier's routing still has to be switched off by us "
            "once the port completes.")
r.bash("call_np1", "portctl status --block 0161", "port status: pending carrier approval")
r.pad(2, "code", 1300, "porting")
r.compact(1, "Number block 0161: port request lodged; status pending carrier approval.",
          {"retained": ["switch off the old carrier's routing"]})
case(r, [comp(1, "violate", [it("commitment", a2, "routing", DROP, "overclaim")], {"planner": False})])

# ---------------------------------------------------------------------------
# 33. restaurant POS, terse agent, numbered list; the fulfilled commitment is
#     listed under Roo/Cline "Pending Tasks and Next Steps" (resurrected).
r = Run("pos_terse_resurrect")
r.user("menu sync broken on till 3, fix pls")
a2 = r.asst("ok. plan:\n1. I'll clear the till cache.\n2. I'll resync the menu from HQ after that.")
r.bash("call_po1", "posctl cache clear --till 3", "cache cleared")
r.asst("till cache cleared.")
r.pad(2, "code", 1300, "pos")
r.compact(1, "1. Previous Conversation:\n   User reported the menu sync is broken on till 3.\n"
             "2. Current Work:\n   Looking at the menu sync on till 3.\n"
             "6. Pending Tasks and Next Steps:\n   - Clear the till cache\n   - Resync the menu from HQ")
case(r, [comp(1, "violate",
              [it("commitment", a2, "till cache", ["resurrected"]),
               it("commitment", a2, "resync", RET)],
              {"planner": False})])

# ---------------------------------------------------------------------------
# 34. satellite imagery: an opaque (encrypted/base64) summary cannot be
#     verified, so every consumer that needs something is refused.
r = Run("satellite_opaque")
r.user("Mosaic the Sentinel-2 scenes for the Po valley. Never resample below 10 m.")
r.asst("I'll cloud-mask the scenes after the download finishes.")
r.bash("call_sa1", "s2dl fetch --aoi po-valley --month 2024-06", "downloaded 18 scenes")
r.pad(2, "geo", 1300, "scenes")
blob = base64.b64encode(random.Random("opaque").randbytes(600)).decode()
r.compact(1, "gAAAAAB" + blob)
case(r, [comp(1, "violate", [], {"planner": False})])

# ---------------------------------------------------------------------------
# 35. energy metering, Gemini plan markers: [TODO] on a completed step
#     (resurrected), [IN PROGRESS] kept, [DONE] on a pending one (flipped).
r = Run("gridmeter_gemini_markers")
r.user("Produce the settlement file for yesterday's half-hourly meter data.")
r.plan([("g1", "Import the half-hourly meter reads", "in_progress"),
        ("g2", "Estimate the missing intervals", "pending"),
        ("g3", "Publish the settlement file", "pending")])
r.bash("call_gm1", "meterctl import --date yesterday", "imported 1,288,416 reads")
r.pad(2, "code", 1300, "metering")
r.plan([("g1", "Import the half-hourly meter reads", "completed"),
        ("g2", "Estimate the missing intervals", "in_progress"),
        ("g3", "Publish the settlement file", "pending")])
r.compact(1, "<state_snapshot>\n<overall_goal>Settlement file for yesterday's meter data.</overall_goal>\n"
             "<current_plan>\n1. [TODO] Import the half-hourly meter reads.\n"
             "2. [IN PROGRESS] Estimate the missing intervals.\n3. [DONE] Publish the settlement file.\n"
             "</current_plan>\n</state_snapshot>")
case(r, [comp(1, "violate",
              [it("commitment", None, "Import the half-hourly", ["resurrected"]),
               it("commitment", None, "missing intervals", RET),
               it("commitment", None, "settlement file", ["flipped"])],
              {"planner": False})])

# ---------------------------------------------------------------------------
# 36. agricultural drones, OpenHands: an open commitment placed in COMPLETED.
r = Run("vineyard_openhands_flip")
u1 = r.user("Map the vineyard blocks with the survey drone. Never fly above 120 m.")
a2 = r.asst("I'll stitch the orthomosaic after the last flight lands.")
a3 = r.asst("I'll then send the NDVI report to the agronomist.")
r.bash("call_vd1", "dronectl mission run --plan blocks-a-f", "mission complete: 6 flights, all landed")
r.pad(2, "geo", 1300, "flights")
r.compact(1, "USER_CONTEXT: Survey the vineyard blocks with the drone; never fly above 120 m.\n"
             "COMPLETED: All six survey flights landed; the orthomosaic is stitched.\n"
             "PENDING: Send the NDVI report to the agronomist.\nCURRENT_STATE: imagery on disk.")
case(r, [comp(1, "violate",
              [it("commitment", a2, "orthomosaic", ["flipped"]),
               it("commitment", a3, "NDVI", RET),
               it("constraint", u1, "120 m", RET)],
              {"planner": False})])

# ---------------------------------------------------------------------------
# 37. aviation maintenance, Claude Code sections: seed shape again (condition
#     kept in Pending Tasks as "none outstanding"), overclaim, false completion.
r = Run("nozzle_claude_seed")
u1 = r.user("Work through the borescope findings on engine 2. Do not sign off any task card without a second inspector.")
a2 = r.asst("I will replace the No. 4 fuel nozzle after the borescope report has been reviewed.")
r.tool("call_av1", "read_file", {"path": "reports/eng2_borescope.txt"}, "combustor liner: light coking at No. 4 nozzle; no cracks")
r.pad(2, "code", 1300, "manuals")
r.user("Report reviewed, proceed.")
r.compact(1, "1. Primary Request and Intent:\n   Work through the borescope findings on engine 2.\n"
             "4. Errors and fixes:\n   - None.\n"
             "6. All user messages:\n   - Do not sign off any task card without a second inspector.\n"
             "   - Report reviewed, proceed.\n"
             "7. Pending Tasks:\n   - None outstanding; the borescope report has been reviewed.\n"
             "8. Current Work:\n   Reviewed the borescope report with the user.\n"
             "9. Optional Next Step:\n   Close out the engine 2 findings.",
          {"retained": ["replace the No. 4 fuel nozzle"], "claim": "pending tasks preserved"})
fc = r.asst("The No. 4 fuel nozzle has been replaced and the engine 2 findings are closed.")
case(r, [comp(1, "violate",
              [it("commitment", a2, "fuel nozzle", DROP, "overclaim"),
               it("constraint", u1, "second inspector", RET)],
              {"planner": False})],
     findings=[("false_completion", fc)])

# ---------------------------------------------------------------------------
# 38. 3D printing farm: an error reported only by its exit status (is_error
#     false), unresolved and missing from the summary.
r = Run("printfarm_exit_status")
r.user("Slice the bracket batch for the printer farm.")
r.bash("call_pf1", "slicer --profile petg bracket_v3.stl",
       "error: model is not manifold (14 open edges)\nexit status 2", False)
r.bash("call_pf2", "slicer --profile petg hinge_v1.stl", "sliced: 212 layers, 3h12m")
r.pad(2, "code", 1300, "slicer")
r.compact(1, "The hinge is sliced: 212 layers, 3h12m. The bracket batch is next.")
case(r, [comp(1, "violate", [it("error", None, "not manifold", DROPW)], {"verifier": False})])


def main():
    with open(os.path.join(OUT, "labels.json"), "w") as f:
        json.dump({"cases": CASES}, f, indent=1)
        f.write("\n")
    n = sum(len(c["compactions"]) for c in CASES)
    print("wrote %d transcripts, %d compactions" % (len(CASES), n))


main()
