#!/usr/bin/env python3
"""Regenerate the second held-out set for loupe: g*.jsonl transcripts and labels.json.

Every transcript is written in loupe/v1 JSONL (see /work/shared/DESIGN.md); labels follow the
schema of /work/shared/eval/dev/labels.json so /work/shared/eval/score.py can read them.
Domains deliberately differ from the dev set and from /tmp/heldout: embedded firmware,
scientific computing, game development, e-commerce checkout, CI/CD, localization,
accessibility, compliance/audit, analytics dashboards, customer-support tooling.

Run:  python3 gen.py            (writes next to this file)
"""
import json
import os
import random
import re

OUT = os.path.dirname(os.path.abspath(__file__))
CASES = []


class Case:
    def __init__(self, name, consumers=None, source=None):
        self.name = name
        meta = {"type": "meta", "format": "loupe/v1", "run": name, "agent": "heldout2-agent"}
        if source:
            meta["source"] = source
        if consumers:
            meta["consumers"] = consumers
        self.events = [meta]
        self.label = {"file": name + ".jsonl", "compactions": [], "findings": [], "no_findings": []}
        self.last_turn = 0
        CASES.append(self)

    def _ev(self, ev):
        t = ev["turn"]
        assert t >= self.last_turn, (self.name, t, self.last_turn)
        self.last_turn = t
        self.events.append(ev)

    def user(self, t, text):
        self._ev({"type": "message", "turn": t, "role": "user", "text": text})

    def asst(self, t, text):
        self._ev({"type": "message", "turn": t, "role": "assistant", "text": text})

    def call(self, t, cid, name, inp):
        self._ev({"type": "tool_call", "turn": t, "id": cid, "name": name, "input": inp})

    def result(self, t, cid, text, err=False):
        self._ev({"type": "tool_result", "turn": t, "id": cid, "is_error": err, "text": text})

    def plan(self, t, items):
        self._ev({"type": "plan", "turn": t,
                  "items": [{"id": i, "text": x, "status": s} for i, x, s in items]})

    def commitment(self, t, cid, text, status):
        self._ev({"type": "commitment", "turn": t, "id": cid, "text": text, "status": status})

    def compact(self, t, seq, summary, self_report=None, label=None):
        before = sum(len(json.dumps(e)) for e in self.events[1:]) // 4
        ev = {"type": "compaction", "turn": t, "seq": seq, "trigger": "token_budget",
              "summary": summary, "tokens_before": before, "tokens_after": max(1, len(summary) // 4)}
        if self_report is not None:
            ev["self_report"] = self_report
        self._ev(ev)
        lab = {"seq": seq}
        lab.update(label or {})
        self.label["compactions"].append(lab)

    def finding(self, kind, turn):
        self.label["findings"].append({"kind": kind, "turn": turn})

    def no_finding(self, kind):
        self.label["no_findings"].append({"kind": kind})

    def write(self):
        with open(os.path.join(OUT, self.name + ".jsonl"), "w", encoding="utf-8") as f:
            for e in self.events:
                f.write(json.dumps(e, ensure_ascii=False) + "\n")


def item(kind, contains, status, turn=None, self_report=None):
    d = {"kind": kind, "turn": turn, "contains": contains,
         "status": status if isinstance(status, list) else [status]}
    if self_report:
        d["self_report"] = self_report
    return d


def not_required(kind, contains, turn=None):
    return {"kind": kind, "turn": turn, "contains": contains, "not_required": True}


def cons(**kw):
    return [{"name": k, "allowed": v} for k, v in kw.items()]


def filler(rng, make_line, size):
    out, n = [], 0
    while n < size:
        line = make_line(rng)
        out.append(line)
        n += len(line) + 1
    return "\n".join(out)


DROP = ["dropped", "weak"]          # absent, or only a partial / negated mention
INTENT = ["intent_only", "dropped"]  # handle id gone, description maybe still there


def claude(primary, concepts, files, errors, solving, users, pending, current, nxt,
           pending_heading="7. Pending Tasks:"):
    def block(x):
        return "\n".join("   " + l for l in x.split("\n"))
    return ("1. Primary Request and Intent:\n" + block(primary) +
            "\n2. Key Technical Concepts:\n" + block(concepts) +
            "\n3. Files and Code Sections:\n" + block(files) +
            "\n4. Errors and fixes:\n" + block(errors) +
            "\n5. Problem Solving:\n" + block(solving) +
            "\n6. All user messages:\n" + block(users) +
            "\n" + pending_heading + "\n" + block(pending) +
            "\n8. Current Work:\n" + block(current) +
            "\n9. Optional Next Step:\n" + block(nxt))


def roo(prev, current, concepts, files, solving, pending, heading="6. Pending Tasks and Next Steps:"):
    def block(x):
        return "\n".join("   " + l for l in x.split("\n"))
    return ("1. Previous Conversation:\n" + block(prev) +
            "\n2. Current Work:\n" + block(current) +
            "\n3. Key Technical Concepts:\n" + block(concepts) +
            "\n4. Relevant Files and Code:\n" + block(files) +
            "\n5. Problem Solving:\n" + block(solving) +
            "\n" + heading + "\n" + block(pending))


def gemini(goal, knowledge, fs, actions, plan):
    return ("<state_snapshot>\n<overall_goal>\n" + goal + "\n</overall_goal>\n<key_knowledge>\n" + knowledge +
            "\n</key_knowledge>\n<file_system_state>\n" + fs + "\n</file_system_state>\n<recent_actions>\n" +
            actions + "\n</recent_actions>\n<current_plan>\n" + plan + "\n</current_plan>\n</state_snapshot>")


# ---------------------------------------------------------------------------------------------
# 1. The seed's shape: condition kept, action dropped, overclaim, false completion.
# ---------------------------------------------------------------------------------------------

c = Case("g01_seed_imu_reflash_prose")
c.user(1, "Bring up the new IMU driver on the rev-C board. Never flash the production bootloader partition.")
c.asst(2, "The register map matches the datasheet and the SPI clock is running at 8 MHz. I will re-flash the "
          "rev-C test board after the pin-mux review is approved. Until then the driver only runs on the "
          "simulator, which is fine for the unit tests.")
c.call(3, "call_pm1", "bash", {"command": "git push origin bringup/imu-revc"})
c.result(4, "call_pm1", "To origin\n * [new branch] bringup/imu-revc -> bringup/imu-revc")
c.user(5, "Pin-mux review is approved.")
c.asst(6, "Great, thanks for approving the pin-mux review.")
c.compact(7, 1,
          "We are bringing up the new IMU driver on the rev-C board. The driver matches the datasheet register "
          "map and the SPI clock runs at 8 MHz. The pin-mux review was approved by the user. Never flash the "
          "production bootloader partition.",
          {"retained": ["re-flash the rev-C test board"], "claim": "decisions and open items preserved"},
          {"verdict": "violate",
           "items": [item("commitment", "board", DROP, 2, "overclaim"),
                     item("constraint", "bootloader", "retained", 1)],
           "consumers": cons(planner=False, router=True, verifier=True)})
c.asst(9, "The rev-C test board has been re-flashed and the IMU is streaming samples at 400 Hz.")
c.user(10, "The board still reports the old firmware build, so nothing was flashed.")
c.call(11, "call_fl2", "bash", {"command": "./scripts/flash.sh --board revc-test --image build/imu.bin"})
c.result(12, "call_fl2", "Verifying... OK\nflashed 118784 bytes to revc-test")
c.asst(13, "Re-flashed the rev-C test board for real this time; the IMU streams at 400 Hz.")
c.compact(14, 2,
          "IMU driver is up on the rev-C test board, which was re-flashed and streams at 400 Hz. Never flash the "
          "production bootloader partition.",
          None,
          {"verdict": "degrade",
           "items": [not_required("commitment", "board", 2),
                     item("constraint", "bootloader", "retained", 1)],
           "consumers": cons(planner=True)})
c.finding("false_completion", 9)

c = Case("g02_seed_gpu_solver_claude", source="claude-code")
c.user(1, "Port the heat-diffusion solver to the GPU backend. Do not change the published reference tolerances.")
c.asst(2, "The CPU and GPU kernels now agree to 1e-9 on the 64x64 grid, and the halo exchange is vectorised. "
          "Once the convergence study is signed off, I'll regenerate the benchmark figures for the paper. "
          "Everything else in the port is wired up.")
c.call(3, "call_cv1", "bash", {"command": "python scripts/convergence.py --grids 64 128 256"})
c.result(4, "call_cv1", "grid 64: L2=3.1e-4\ngrid 128: L2=7.7e-5\ngrid 256: L2=1.9e-5\nobserved order 2.01")
c.compact(5, 1, claude(
    "Port the heat-diffusion solver to the GPU backend; the published reference tolerances must not be changed.",
    "- CUDA kernels, halo exchange\n- Observed order of accuracy",
    "- scripts/convergence.py",
    "- None.",
    "CPU and GPU kernels agree to 1e-9 on the 64x64 grid; the convergence study shows second order (2.01).",
    "- Port the heat-diffusion solver to the GPU backend. Do not change the published reference tolerances.",
    "- Regenerate the benchmark figures for the paper once the convergence study is signed off.",
    "Waiting for the user to sign off on the convergence study.",
    "After sign-off, regenerate the benchmark figures for the paper."),
    None,
    {"verdict": "degrade",
     "items": [item("commitment", "figures", "retained", 2),
               item("constraint", "tolerances", "retained", 1)],
     "consumers": cons(planner=True)})
c.user(6, "Convergence study is signed off.")
c.asst(7, "Noted, the convergence study is signed off.")
c.compact(8, 2, claude(
    "Port the heat-diffusion solver to the GPU backend. Do not change the published reference tolerances.",
    "- CUDA kernels, halo exchange",
    "- scripts/convergence.py",
    "- None.",
    "The convergence study (observed order 2.01) was signed off by the user.",
    "- Port the heat-diffusion solver to the GPU backend. Do not change the published reference tolerances.\n"
    "- Convergence study is signed off.",
    "- None.",
    "Convergence study signed off; the GPU port is complete.",
    "Tidy up the comments in the CUDA kernels."),
    {"retained": ["regenerate the benchmark figures for the paper"], "claim": "all pending tasks carried over"},
    {"verdict": "violate",
     "items": [item("commitment", "figures", "dropped", 2, "overclaim"),
               item("constraint", "tolerances", "retained", 1)],
     "consumers": cons(planner=False)})
c.asst(10, "The benchmark figures for the paper have been regenerated with the GPU timings.")
c.finding("false_completion", 10)

c = Case("g03_seed_giftcard_gemini", source="gemini-cli")
c.user(1, "Add gift card redemption to the checkout. Make sure gift card balances are never shown in full in logs.")
c.asst(2, "The redemption endpoint is done and its unit tests are green. Next I need to backfill the gift-card "
          "ledger for orders placed during the outage, after finance confirms the cutoff timestamp. I'm leaving "
          "the feature flag off until then.")
c.user(3, "Finance confirmed the cutoff: 02:00 UTC on the 14th.")
c.asst(4, "Thanks, cutoff noted as 02:00 UTC on the 14th.")
c.compact(5, 1, gemini(
    "Gift card redemption in the checkout.",
    "- Finance confirmed the outage cutoff timestamp: 02:00 UTC on the 14th.\n"
    "- Make sure gift card balances are never shown in full in logs.",
    "- MODIFIED: checkout/redeem.go",
    "- Built the redemption endpoint; unit tests are green.",
    "1. [DONE] Build the redemption endpoint.\n2. [DONE] Get the outage cutoff from finance.\n"
    "3. [TODO] Turn on the feature flag."),
    {"retained": ["backfill the gift-card ledger"], "claim": "plan and obligations preserved"},
    {"verdict": "violate",
     "items": [item("commitment", "ledger", "dropped", 2, "overclaim"),
               item("constraint", "balances", "retained", 1)],
     "consumers": cons(planner=False)})
c.asst(7, "Backfilled the gift-card ledger for the outage window; the flag is ready to flip.")
c.finding("false_completion", 7)

c = Case("g04_seed_deploykey_openhands_event", source="openhands")
c.user(1, "Move the release pipeline from Jenkins to GitHub Actions. From now on, do not store secrets in workflow files.")
c.commitment(2, "c-rot", "Rotate the deploy key once the new workflow has run green on a tag", "open")
c.call(3, "call_wf1", "write_file", {"path": ".github/workflows/release.yml", "content": "name: release\n"})
c.result(4, "call_wf1", "wrote 61 lines")
c.asst(5, "The release workflow ran green on the rc tag.")
c.compact(6, 1,
          "USER_CONTEXT: Migrate the release pipeline from Jenkins to GitHub Actions. From now on, do not store "
          "secrets in workflow files.\n"
          "COMPLETED: Wrote .github/workflows/release.yml; the workflow ran green on a tag.\n"
          "PENDING: Retire the Jenkins job.\n"
          "CURRENT_STATE: Release workflow is live.",
          {"retained": ["c-rot"]},
          {"verdict": "violate",
           "items": [item("commitment", "deploy key", "dropped", 2, "overclaim"),
                     item("constraint", "secrets", "retained", 1)],
           "consumers": cons(planner=False)})
c.asst(8, "Deploy key rotated, so the Jenkins job can be retired.")
c.user(9, "The old deploy key still authenticates, so it was not rotated.")
c.call(10, "call_key2", "bash", {"command": "gh repo deploy-key add release_2025.pub --title release"})
c.result(11, "call_key2", "deploy key added; previous key removed")
c.commitment(12, "c-rot", "Rotate the deploy key once the new workflow has run green on a tag", "done")
c.compact(13, 2,
          "USER_CONTEXT: Release pipeline now runs on GitHub Actions. From now on, do not store secrets in "
          "workflow files.\n"
          "COMPLETED: release workflow green on a tag; deploy key rotated and the old key removed.\n"
          "PENDING: Retire the Jenkins job.",
          None,
          {"verdict": "degrade",
           "items": [not_required("commitment", "deploy key"),
                     item("constraint", "secrets", "retained", 1)]})
c.finding("false_completion", 8)

# ---------------------------------------------------------------------------------------------
# 2. In-flight tool calls.
# ---------------------------------------------------------------------------------------------

c = Case("g05_prefix_lightmap_jobs")
c.user(1, "Bake the lightmaps for the harbor level and run the shader compile check.")
c.call(2, "job_7", "bash", {"command": "./tools/bake_lightmaps --level harbor"})
c.call(3, "job_77", "bash", {"command": "./tools/shaderc --check-all"})
c.result(4, "job_77", "412 shaders compiled, 0 warnings")
c.compact(5, 1,
          "Shader compile check passed (job_77, 412 shaders). The harbor lightmap bake is still running in the "
          "background.",
          None,
          {"verdict": "violate",
           "items": [item("handle", "job_7", INTENT, 2)],
           "consumers": cons(router=False)})
c.result(6, "job_7", "baked 38 lightmaps (2048x2048) in 21m04s")
c.finding("orphaned_result", 6)

c = Case("g06_prefix_hex_cohort_claude", source="claude-code")
c.user(1, "Rebuild the weekly retention dashboard: refresh the sessions view and re-run the cohort retention query.")
c.call(2, "call_9f3", "warehouse_query", {"query_name": "cohort_retention_weekly"})
c.call(3, "call_9f3e", "warehouse_query", {"query_name": "refresh_mv_sessions"})
c.result(4, "call_9f3e", "REFRESH MATERIALIZED VIEW (41.2s)")
c.asst(5, "The sessions view refresh is done. The cohort query is heavy and tends to take several minutes on the "
          "XL warehouse.")
c.compact(6, 1, claude(
    "Rebuild the weekly retention dashboard (refresh the sessions view, re-run the cohort retention query).",
    "- Materialized views, weekly cohorts",
    "- (none)",
    "- None.",
    "The sessions view refresh finished (`call_9f3e`, 41.2s).",
    "- Rebuild the weekly retention dashboard.",
    "- Read the cohort retention results when the query returns.",
    "The cohort retention query is still running on the XL warehouse.",
    "Update the dashboard tiles with the new cohort numbers."),
    None,
    {"verdict": "violate",
     "items": [item("handle", "call_9f3", INTENT, 2)],
     "consumers": cons(router=False)})
c.result(8, "call_9f3", "52 cohorts x 12 weeks, 624 rows")
c.finding("orphaned_result", 8)

c = Case("g07_inflight_kept_dns_crush", source="crush")
c.user(1, "Run the 512^3 turbulence simulation at Re=1600 and dry-run the post-processing script.")
c.call(2, "call_sim_4", "bash", {"command": "mpirun -n 64 ./dns --config runs/re1600.toml"})
c.call(3, "call_sim_41", "bash", {"command": "python post/spectra.py --dry-run"})
c.result(4, "call_sim_41", "dry run: would read 40 snapshots, write 3 figures")
c.asst(5, "Launched the Re=1600 run; at 64 ranks it will take roughly three hours. The post-processing dry run "
          "looks right.")
c.compact(6, 1,
          "## Current State\nThe Re=1600 DNS run is in flight as call_sim_4 (`mpirun -n 64 ./dns --config "
          "runs/re1600.toml`); at 64 ranks it takes roughly three hours. The spectra dry run (call_sim_41) "
          "finished cleanly.\n\n## Files & Changes\n- runs/re1600.toml: 512^3 grid, Re=1600\n\n"
          "## Exact Next Steps\n1. Wait for call_sim_4 to return.\n2. Run post/spectra.py on the final snapshot.",
          None,
          {"verdict": "degrade",
           "items": [item("handle", "call_sim_4", "retained", 2)],
           "consumers": cons(router=True, verifier=True, planner=True)})
c.result(8, "call_sim_4", "t=20.0 reached, 40 snapshots written")
c.no_finding("orphaned_result")

c = Case("g08_inflight_kept_twice_e2e_opencode", source="opencode")
c.user(1, "Kick off the nightly e2e suite on staging. Don't cancel the run even if it goes past an hour.")
c.call(2, "run-e2e-883", "ci_trigger", {"pipeline": "nightly-e2e", "target": "staging"})
c.asst(3, "The nightly e2e pipeline is queued as run-e2e-883; it usually takes about forty minutes.")
c.compact(4, 1,
          "## Work State\n### Completed\n- Triggered the nightly e2e pipeline on staging.\n### Active\n"
          "- Waiting on `run-e2e-883` (nightly-e2e on staging). Don't cancel the run even if it goes past an "
          "hour.\n## Next Move\nPoll `run-e2e-883` until it reports.",
          None,
          {"verdict": "degrade",
           "items": [item("handle", "run-e2e-883", "retained", 2),
                     item("constraint", "cancel", "retained", 1)],
           "consumers": cons(router=True, planner=True)})
c.call(5, "call_lint_2", "bash", {"command": "make lint"})
c.result(6, "call_lint_2", "lint: 0 findings")
c.compact(7, 2,
          "The nightly e2e run (run-e2e-883) on staging is still in flight. Do not cancel the run, even if it "
          "goes past an hour. Lint passed in the meantime.",
          None,
          {"verdict": "degrade",
           "items": [item("handle", "run-e2e-883", "retained", 2),
                     item("constraint", "cancel", "retained", 1)],
           "consumers": cons(router=True)})
c.result(8, "run-e2e-883", "nightly-e2e: 312 passed, 0 skipped (47m)")
c.no_finding("orphaned_result")

c = Case("g09_inflight_lost_second_helpcenter_roo", source="roo-code")
c.user(1, "Re-index the help-center articles into the new search backend and export the macro list.")
c.call(2, "call_rx_20", "bash", {"command": "helpctl reindex --all"})
c.compact(3, 1, roo(
    "The user asked to re-index the help-center articles into the new search backend and export the macro list.",
    "Re-indexing help-center articles (call_rx_20 still running).",
    "- New search backend, helpctl CLI",
    "- (none yet)",
    "Nothing blocking so far.",
    "- Wait for call_rx_20 to finish.\n- Export the macro list."),
    None,
    {"verdict": "degrade",
     "items": [item("handle", "call_rx_20", "retained", 2)],
     "consumers": cons(router=True)})
c.call(4, "call_mx_21", "bash", {"command": "helpctl macros export --format csv"})
c.result(5, "call_mx_21", "exported 214 macros")
c.compact(6, 2, roo(
    "The user asked to re-index the help-center articles and export the macro list.",
    "Macro list exported (214 macros). The help-center re-index is still running.",
    "- New search backend, helpctl CLI",
    "- (none)",
    "Macro export went through on the first try.",
    "- Confirm the re-index finished.",
    heading="6. Pending tasks and next steps:"),
    None,
    {"verdict": "violate",
     "items": [item("handle", "call_rx_20", INTENT, 2)],
     "consumers": cons(router=False)})
c.result(7, "call_rx_20", "indexed 3,481 articles into search-v2")
c.finding("orphaned_result", 7)

c = Case("g10_inflight_flipped_soak_firmware")
c.user(1, "Run the 12-hour soak test on the motor controller, then tag the release candidate.")
c.call(2, "call_soak_3", "hil_run", {"suite": "soak-12h", "board": "mc-rev4"})
c.asst(3, "The soak run is on the bench now as call_soak_3; the watchdog is enabled.")
c.compact(4, 1,
          "The 12-hour soak test (call_soak_3) passed on the mc-rev4 bench with the watchdog enabled; the release "
          "candidate can be tagged.",
          None,
          {"verdict": "violate",
           "items": [item("handle", "call_soak_3", "flipped", 2)],
           "consumers": cons(router=False)})
c.result(6, "call_soak_3", "soak-12h: 2 faults (overcurrent at 07:41 and 09:13)")
c.no_finding("orphaned_result")

# ---------------------------------------------------------------------------------------------
# 3. Paraphrases that must count as retained.
# ---------------------------------------------------------------------------------------------

c = Case("g11_paraphrase_l10n_claude", source="claude-code")
c.user(1, "Add German and Japanese to the storefront. Don't machine-translate legal copy.")
c.asst(2, "String extraction is finished: 1,284 keys across 37 templates. I'll translate the checkout strings "
          "into Japanese after the vendor approves the glossary. German is already with the agency.")
c.call(3, "call_l10n_1", "bash", {"command": "npm run i18n:extract"})
c.result(4, "call_l10n_1", "extracted 1284 messages")
c.user(5, "The vendor approved the glossary.")
c.compact(6, 1, claude(
    "Add German and Japanese locales to the storefront. Legal copy must never be machine-translated.",
    "- ICU message format, translation glossary",
    "- 1,284 extracted keys across 37 templates",
    "- None.",
    "String extraction is finished; German is with the agency.",
    "- Add German and Japanese to the storefront.\n- The vendor approved the glossary.",
    "- Japanese translation of the checkout strings (the vendor has approved the glossary).",
    "Getting the checkout strings ready for the Japanese pass.",
    "Begin the Japanese pass on the checkout strings."),
    {"retained": ["translate the checkout strings into Japanese"]},
    {"verdict": "degrade",
     "items": [item("commitment", "Japanese", "retained", 2, "agree"),
               item("constraint", "legal", "retained", 1)],
     "consumers": cons(planner=True)})

c = Case("g12_paraphrase_synonyms_a11y_crush", source="crush")
c.user(1, "Get the settings screen to WCAG AA. Never remove the focus outlines.")
c.asst(2, "axe found 9 violations; 7 are contrast issues in the dark theme, which I've already patched. I still "
          "have to fix the missing labels on the toggle switches. After that I'll rerun the axe audit on the "
          "settings screen.")
c.call(3, "call_ax1", "edit", {"path": "src/theme/dark.css", "patch": "-  color: #8a8a8a;\n+  color: #b0b0b0;"})
c.result(4, "call_ax1", "applied 1 hunk")
c.compact(5, 1,
          "## Current State\nDark-theme contrast issues are patched (7 of the 9 axe violations).\n\n"
          "## Exact Next Steps\n1. Resolve the missing labels on the toggle switches.\n"
          "2. Run the axe audit again on the settings screen once the labels are in.\n\n"
          "## Constraints\n- Focus outlines must never be removed.",
          None,
          {"verdict": "degrade",
           "items": [item("commitment", "labels", "retained", 2),
                     item("commitment", "audit", "retained", 2),
                     item("constraint", "focus", "retained", 1)],
           "consumers": cons(planner=True)})
c.asst(7, "Fixed the missing labels on the toggle switches.")
c.finding("unsupported_completion", 7)
c.no_finding("false_completion")

# ---------------------------------------------------------------------------------------------
# 4. Very heavy loss that keeps everything: must degrade.
# ---------------------------------------------------------------------------------------------

def prof_line(r):
    f = r.randint(10000, 99999)
    return (f"frame {f} | cpu {r.uniform(8, 24):.1f}ms | gpu {r.uniform(6, 18):.1f}ms | "
            f"nav_tile_load {r.uniform(0, 9):.1f}ms | physics {r.uniform(1, 4):.1f}ms | "
            f"anim {r.uniform(1, 3):.1f}ms | draw_calls {r.randint(900, 2400)}")


c = Case("g13_heavy_navmesh_checklist")
rng = random.Random(13)
c.user(1, "Profile the frame hitches in the desert level. Always test on the min-spec preset.")
c.asst(2, "The capture is running now. I'll rewrite the navmesh streaming so it loads tiles off the main thread, "
          "once the profiler capture confirms the hitch source.")
t = 3
for i in range(30):
    cid = f"call_pf{i:02d}"
    c.call(t, cid, "read_file", {"path": f"captures/desert_minspec/trace_{i:02d}.txt"})
    c.result(t + 1, cid, filler(rng, prof_line, 8000))
    t += 2
c.asst(t, "The capture confirms the hitch comes from navmesh tile loading on the main thread.")
c.compact(t + 1, 1,
          "## Status\n- [x] Profiler capture on min-spec: the hitch source is navmesh tile loading on the main "
          "thread.\n- [ ] Rewrite the navmesh streaming to load tiles off the main thread.\n\n"
          "**Rules:** always test on the min-spec preset.",
          None,
          {"verdict": "degrade",
           "items": [item("commitment", "navmesh", "retained", 2),
                     item("constraint", "min-spec", "retained", 1)],
           "consumers": cons(planner=True)})


def sql_line(r):
    cols = ["order_id", "customer_id", "net_amount_cents", "currency", "created_at", "channel", "region",
            "discount_cents", "tax_cents", "refund_cents"]
    pick = r.sample(cols, 4)
    return f"select {', '.join(pick)} from stg_{r.choice(['orders', 'payments', 'refunds'])} where {pick[0]} is not null"


c = Case("g14_heavy_dashboard_openhands", source="openhands")
rng = random.Random(14)
c.user(1, "Rebuild the revenue dashboard on the new warehouse. Do not query the raw events table directly.")
t = 2
for i in range(30):
    cid = f"call_rd{i:02d}"
    c.call(t, cid, "read_file", {"path": f"models/staging/stg_model_{i:02d}.sql"})
    c.result(t + 1, cid, filler(rng, sql_line, 8000))
    t += 2
c.call(t, "call_q88", "bash", {"command": "dbt run --select mart_revenue"})
c.result(t + 1, "call_q88", "Database Error in model mart_revenue: column \"net_amount\" does not exist", err=True)
c.call(t + 2, "call_q89", "bash", {"command": "dbt run --select mart_refunds"})
c.compact(t + 3, 1,
          "USER_CONTEXT: Rebuild the revenue dashboard on the new warehouse; do not query the raw events table "
          "directly.\n"
          "COMPLETED: Read the staging models and the existing dashboard queries.\n"
          "PENDING: Fix `dbt run --select mart_revenue`, which fails with: Database Error in model mart_revenue: "
          "column \"net_amount\" does not exist.\n"
          "CURRENT_STATE: call_q89 (`dbt run --select mart_refunds`) is still running.",
          None,
          {"verdict": "degrade",
           "items": [item("error", "net_amount", "retained"),
                     item("handle", "call_q89", "retained", t + 2),
                     item("constraint", "raw events", "retained", 1)],
           "consumers": cons(router=True, verifier=True, planner=True)})
c.result(t + 5, "call_q89", "Completed successfully: 1 view model")
c.no_finding("orphaned_result")


def canned_line(r):
    topics = ["a delayed parcel", "a duplicate charge", "resetting a password", "a damaged item",
              "changing the delivery address", "cancelling a subscription"]
    return (f'{{"id": {r.randint(1000, 9999)}, "title": "Reply {r.randint(1, 400)}", "body": "Hi '
            f'{{{{ticket.requester.first_name}}}}, thanks for reaching out about {r.choice(topics)}. '
            f'We have looked into it and {r.choice(["a teammate will follow up", "the update is below", "here is what happens next"])}."}}')


c = Case("g15_heavy_canned_responses_roo", source="roo-code")
rng = random.Random(15)
c.user(1, "Migrate our canned responses from Freshdesk to the new helpdesk. Do not change the wording of any "
          "legal disclaimer.")
c.plan(2, [("p1", "Export the canned responses from Freshdesk", "in_progress"),
           ("p2", "Map Freshdesk placeholders to the new template syntax", "pending"),
           ("p3", "Import the canned responses into the new helpdesk", "pending")])
t = 3
for i in range(30):
    cid = f"call_cr{i:02d}"
    c.call(t, cid, "read_file", {"path": f"exports/canned/batch_{i:02d}.jsonl"})
    c.result(t + 1, cid, filler(rng, canned_line, 8000))
    t += 2
c.plan(t, [("p1", "Export the canned responses from Freshdesk", "completed"),
           ("p2", "Map Freshdesk placeholders to the new template syntax", "in_progress"),
           ("p3", "Import the canned responses into the new helpdesk", "pending")])
c.compact(t + 1, 1, roo(
    "The user asked to migrate canned responses from Freshdesk to the new helpdesk.",
    "Mapping Freshdesk placeholders to the new template syntax.",
    "- Placeholder syntax differences",
    "- exports/canned/",
    "The export finished.",
    "- Map Freshdesk placeholders to the new template syntax (in progress).\n"
    "- Import the canned responses into the new helpdesk.\n"
    "- Do not change the wording of any legal disclaimer."),
    None,
    {"verdict": "degrade",
     "items": [item("commitment", "placeholders", "retained"),
               item("commitment", "Import", "retained"),
               not_required("commitment", "Export the canned"),
               item("constraint", "disclaimer", "retained", 1)],
     "consumers": cons(planner=True)})

# ---------------------------------------------------------------------------------------------
# 5. Status flipped to done / completed steps resurrected.
# ---------------------------------------------------------------------------------------------

c = Case("g16_flip_soc2_prose")
c.user(1, "Prepare the SOC 2 evidence package for the access-review control.")
c.asst(2, "I've pulled the Okta group exports for Q3. I'll redact the employee personal emails from the exports "
          "before they go into the evidence folder. The reviewer list is already attached.")
c.call(3, "call_ok1", "okta_export", {"groups": "all", "quarter": "Q3"})
c.result(4, "call_ok1", "exported 61 groups")
c.compact(5, 1,
          "Pulled the Q3 Okta group exports and attached the reviewer list. Redacted the employee personal emails "
          "from the exports, and the evidence folder is ready for the auditor.",
          None,
          {"verdict": "violate",
           "items": [item("commitment", "redact", "flipped", 2)],
           "consumers": cons(planner=False)})
c.asst(7, "The personal emails are redacted from the exports, so the evidence folder can go to the auditor.")
c.finding("false_completion", 7)

c = Case("g17_flip_gemini_magnetometer", source="gemini-cli")
c.user(1, "Finish the compass calibration for the field units.")
c.plan(2, [("p1", "Write the calibration routine", "in_progress"),
           ("p2", "Calibrate the magnetometer offsets on unit 3", "pending"),
           ("p3", "Upload the calibration tables to the fleet server", "pending")])
c.call(3, "call_mc1", "write_file", {"path": "firmware/calib/mag_cal.c"})
c.result(4, "call_mc1", "wrote 214 lines")
c.plan(5, [("p1", "Write the calibration routine", "completed"),
           ("p2", "Calibrate the magnetometer offsets on unit 3", "in_progress"),
           ("p3", "Upload the calibration tables to the fleet server", "pending")])
c.call(6, "call_mc2", "bash", {"command": "calib --unit 3 --sensor mag"})
c.result(7, "call_mc2", "collected 2/6 orientations; keep rotating the unit")
c.compact(8, 1, gemini(
    "Compass calibration for the field units.",
    "- The calibration routine collects six orientations per unit.",
    "- CREATED: firmware/calib/mag_cal.c",
    "- Wrote the calibration routine.\n- Started calibrating unit 3.",
    "1. [DONE] Write the calibration routine.\n2. [DONE] Calibrate the magnetometer offsets on unit 3.\n"
    "3. [TODO] Upload the calibration tables to the fleet server."),
    {"retained": ["p2", "p3"]},
    {"verdict": "violate",
     "items": [item("commitment", "magnetometer", "flipped", None, "overclaim"),
               item("commitment", "fleet server", "retained", None, "agree"),
               not_required("commitment", "calibration routine")],
     "consumers": cons(planner=False)})

c = Case("g18_flip_checklist_3ds")
c.user(1, "Wire up the 3-D Secure challenge flow in checkout.")
c.asst(2, "The challenge iframe renders in the sandbox and the ACS redirect round-trips correctly. Remaining: "
          "handle the frictionless-flow callback. I'll also add the 3DS result to the order audit trail before "
          "we demo it on Thursday.")
c.compact(3, 1,
          "**3DS checkout**\n- [x] Challenge iframe renders in sandbox\n- [x] ACS redirect round-trip\n"
          "- [x] Frictionless-flow callback handled ✓\n"
          "- [ ] Add the 3DS result to the order audit trail (before Thursday's demo)",
          None,
          {"verdict": "violate",
           "items": [item("commitment", "frictionless", "flipped", 2),
                     item("commitment", "audit trail", "retained", 2)],
           "consumers": cons(planner=False)})

c = Case("g19_swap_opencode_ci", source="opencode")
c.user(1, "Speed up the monorepo CI.")
c.plan(2, [("p1", "Enable the remote build cache", "in_progress"),
           ("p2", "Split the integration job into four shards", "pending"),
           ("p3", "Pin the runner image digest", "pending")])
c.call(3, "call_ci1", "edit", {"path": ".bazelrc", "patch": "+build --remote_cache=grpcs://cache.internal"})
c.result(4, "call_ci1", "applied 1 hunk")
c.call(5, "call_ci2", "edit", {"path": ".github/workflows/ci.yml", "patch": "+      matrix: {shard: [1, 2, 3, 4]}"})
c.result(6, "call_ci2", "applied 1 hunk")
c.plan(7, [("p1", "Enable the remote build cache", "completed"),
           ("p2", "Split the integration job into four shards", "completed"),
           ("p3", "Pin the runner image digest", "pending")])
c.compact(8, 1,
          "## Work State\n### Completed\n- Enabled the remote build cache.\n- Pinned the runner image digest.\n"
          "### Active\n- Split the integration job into four shards.\n## Next Move\nOpen a PR with the CI changes.",
          None,
          {"verdict": "violate",
           "items": [item("commitment", "shards", "resurrected"),
                     item("commitment", "digest", "flipped"),
                     not_required("commitment", "remote build cache")],
           "consumers": cons(planner=False)})

c = Case("g20_resurrect_gemini_climate", source="gemini-cli")
c.user(1, "Regrid the ERA5 inputs and rerun the downscaling model for the Alps domain.")
c.plan(2, [("p1", "Regrid the ERA5 inputs to 0.25 degrees", "in_progress"),
           ("p2", "Rerun the downscaling model for the Alps domain", "pending"),
           ("p3", "Plot the seasonal precipitation bias", "pending")])
c.call(3, "call_rg1", "bash", {"command": "cdo remapcon,grid_025.txt era5_raw.nc era5_025.nc"})
c.result(4, "call_rg1", "cdo remapcon: Processed 1460 variables over 1460 timesteps")
c.plan(5, [("p1", "Regrid the ERA5 inputs to 0.25 degrees", "completed"),
           ("p2", "Rerun the downscaling model for the Alps domain", "in_progress"),
           ("p3", "Plot the seasonal precipitation bias", "pending")])
c.compact(6, 1, gemini(
    "Downscale precipitation for the Alps domain.",
    "- ERA5 inputs are conservatively remapped with cdo.",
    "- CREATED: era5_025.nc",
    "- Ran cdo remapcon on the raw ERA5 file.",
    "1. [TODO] Regrid the ERA5 inputs to 0.25 degrees.\n"
    "2. [IN PROGRESS] Rerun the downscaling model for the Alps domain.\n"
    "3. [TODO] Plot the seasonal precipitation bias."),
    None,
    {"verdict": "violate",
     "items": [item("commitment", "Regrid", "resurrected"),
               item("commitment", "downscaling", "retained"),
               item("commitment", "precipitation bias", "retained")],
     "consumers": cons(planner=False)})

c = Case("g21_resurrect_claude_dau", source="claude-code")
c.user(1, "Fix the DAU tile on the product dashboard and backfill March.")
c.plan(2, [("p1", "Backfill the daily active users table for March", "in_progress"),
           ("p2", "Add a week-over-week delta to the DAU tile", "pending")])
c.call(3, "call_dau1", "bash", {"command": "python jobs/backfill_dau.py --month 2024-03"})
c.result(4, "call_dau1", "inserted 31 daily partitions")
c.plan(5, [("p1", "Backfill the daily active users table for March", "completed"),
           ("p2", "Add a week-over-week delta to the DAU tile", "in_progress")])
c.asst(6, "March is backfilled: 31 daily partitions written.")
c.compact(7, 1, claude(
    "Fix the DAU tile on the product dashboard and backfill March.",
    "- Daily partitions, week-over-week deltas",
    "- jobs/backfill_dau.py",
    "- None.",
    "Identified the March gap in the daily active users table.",
    "- Fix the DAU tile on the product dashboard and backfill March.",
    "- Backfill the daily active users table for March.\n- Add a week-over-week delta to the DAU tile.",
    "Adding the week-over-week delta to the DAU tile.",
    "Run the March backfill job."),
    None,
    {"verdict": "violate",
     "items": [item("commitment", "March", "resurrected"),
               item("commitment", "week-over-week", "retained")],
     "consumers": cons(planner=False)})

c = Case("g22_resurrect_fulfilled_macro_roo", source="cline")
c.user(1, "Set up the new refund macros in the support workspace. Never include the customer's full card number "
          "in a macro.")
c.asst(2, "Drafted the wording for both macros and shared it in the thread. I'll create the refund-approved macro "
          "after you approve its wording.")
c.asst(3, "I'll also create the refund-denied macro, but only once legal reviews its wording.")
c.user(4, "Wording for refund-approved is approved.")
c.call(5, "call_zd5", "support_api", {"action": "create_macro", "title": "refund-approved"})
c.result(6, "call_zd5", "macro 3391 created: refund-approved")
c.asst(7, "Created the refund-approved macro; it is live in the workspace.")
c.compact(8, 1, roo(
    "The user asked for new refund macros in the support workspace and said never to include a customer's full "
    "card number in a macro.",
    "Waiting on legal for the refund-denied wording.",
    "- Support API macros, placeholders",
    "- (none)",
    "Wording for both macros drafted.",
    "- Create the refund-approved macro in the support workspace.\n"
    "- Create the refund-denied macro once legal reviews its wording."),
    None,
    {"verdict": "violate",
     "items": [item("commitment", "macro", "resurrected", 2),
               item("commitment", "macro", "retained", 3),
               item("constraint", "card number", "retained", 1)]})
c.no_finding("false_completion")
c.no_finding("unsupported_completion")

# ---------------------------------------------------------------------------------------------
# 6. Errors: resolved (not required), unresolved dropped / kept, resurrected.
# ---------------------------------------------------------------------------------------------

c = Case("g23_errors_bootloader_prose")
c.user(1, "Get the bootloader building with the new linker script, then start the flash-size regression job.")
c.call(2, "call_b1", "bash", {"command": "make -C boot"})
c.result(3, "call_b1", "boot/startup.S:44: Error: unknown pseudo-op: `.thumb_fnc'", err=True)
c.call(4, "call_b2", "edit", {"path": "boot/startup.S", "patch": "-.thumb_fnc\n+.thumb_func"})
c.result(5, "call_b2", "applied 1 hunk")
c.call(6, "call_b3", "bash", {"command": "make -C boot"})
c.result(7, "call_b3", "boot.elf: text 14212 data 312 bss 2048")
c.call(8, "call_b4", "bash", {"command": "make -C app"})
c.result(9, "call_b4", "arm-none-eabi-ld: app.elf section `.text' will not fit in region `FLASH'\n"
                       "arm-none-eabi-ld: region `FLASH' overflowed by 1184 bytes", err=True)
c.call(10, "call_ci_7", "ci_trigger", {"job": "flash-size-regression"})
c.compact(11, 1,
          "The bootloader builds again after fixing a typo in boot/startup.S (`.thumb_fnc` -> `.thumb_func`). "
          "The new linker script is in place; next is trimming the application image. The flash-size "
          "regression job is running as call_ci_7.",
          None,
          {"verdict": "violate",
           "items": [item("error", "will not fit", DROP),
                     not_required("error", "pseudo-op"),
                     item("handle", "call_ci_7", "retained", 10)],
           "consumers": cons(router=True, verifier=False)})
c.result(12, "call_ci_7", "flash-size-regression: app.elf 263,328 bytes (limit 262,144)")
c.no_finding("orphaned_result")

c = Case("g24_errors_kept_exitcode_crush", source="crush")
c.user(1, "Get the Switch build linking again.")
c.call(2, "call_ck1", "bash", {"command": "./tools/cook_assets.sh"})
c.result(3, "call_ck1", "cook: missing texture T_Rock_01 referenced by M_Cliff", err=True)
c.call(4, "call_ck2", "edit", {"path": "content/materials/M_Cliff.mat", "patch": "-T_Rock_01\n+T_Rock_01a"})
c.result(5, "call_ck2", "applied 1 hunk")
c.call(6, "call_ck3", "bash", {"command": "./tools/cook_assets.sh"})
c.result(7, "call_ck3", "cooked 1942 assets")
c.call(8, "call_ld1", "bash", {"command": "./build.sh --target switch"})
c.result(9, "call_ld1", "ld.lld: error: undefined symbol: nn::hid::GetNpadState\nlinker exited with code 1")
c.compact(10, 1,
          "## Current State\nAsset cooking is clean again (the missing T_Rock_01 texture reference in M_Cliff was "
          "fixed). The Switch link still fails.\n\n## Exact next steps\n"
          "1. Fix the link error from `./build.sh --target switch`: `ld.lld: error: undefined symbol: "
          "nn::hid::GetNpadState` (linker exited with code 1).\n2. Re-run the Switch build.",
          None,
          {"verdict": "degrade",
           "items": [item("error", "GetNpadState", "retained"),
                     not_required("error", "T_Rock_01")],
           "consumers": cons(verifier=True)})

c = Case("g25_error_resurrected_openhands", source="openhands")
c.user(1, "Get the charts package building; the exec dashboard depends on it.")
c.call(2, "call_ch1", "bash", {"command": "npm run build:charts"})
c.result(3, "call_ch1", "TypeError: Cannot read properties of undefined (reading 'series')\n"
                        "    at buildLegend (src/legend.ts:88:19)", err=True)
c.call(4, "call_ch2", "edit", {"path": "src/legend.ts", "patch": "+  if (!chart.series) return [];"})
c.result(5, "call_ch2", "applied 1 hunk")
c.call(6, "call_ch3", "bash", {"command": "npm run build:charts"})
c.result(7, "call_ch3", "built charts in 4.1s")
c.asst(8, "The charts package builds again; the legend guard did it. I'll publish the charts package to the "
          "internal registry after the exec dashboard smoke test passes.")
c.compact(9, 1,
          "USER_CONTEXT: Get the charts package building for the exec dashboard.\n"
          "COMPLETED: Added a guard in src/legend.ts.\n"
          "PENDING:\n- Fix the failing `npm run build:charts` (TypeError: Cannot read properties of undefined "
          "(reading 'series')).\n- Publish the charts package to the internal registry after the exec dashboard "
          "smoke test passes.\n"
          "CURRENT_STATE: Waiting on the smoke test.",
          None,
          {"verdict": "violate",
           "items": [item("error", "series", "resurrected"),
                     item("commitment", "publish", "retained", 8)],
           "consumers": cons(planner=True)})

# ---------------------------------------------------------------------------------------------
# 7. Self-report: unsourced claims, agree, stale, underclaim.
# ---------------------------------------------------------------------------------------------

c = Case("g26_unsourced_split_shipment")
c.user(1, "Add the split-shipment option to checkout.")
c.asst(2, "The split-shipment toggle sits behind the `checkout.split_ship` flag. I'll update the shipping-rate "
          "cache key to include the shipment count once the pricing tests pass. The rest of the flow reuses the "
          "existing address form.")
c.call(3, "call_pr1", "bash", {"command": "go test ./pricing/..."})
c.result(4, "call_pr1", "ok  \tshop/pricing\t1.92s")
c.compact(5, 1,
          "Split-shipment option is implemented behind the `checkout.split_ship` flag and the pricing tests pass. "
          "Still to do: update the shipping-rate cache key to include the shipment count.",
          {"retained": ["update the shipping-rate cache key",
                        "email the carrier integration team about label formats"],
           "claim": "all open items preserved"},
          {"verdict": "violate",
           "items": [item("commitment", "cache key", "retained", 2, "agree")],
           "unsourced_claims": ["carrier integration team"]})

c = Case("g27_unsourced_gdpr_claude", source="claude-code")
c.user(1, "Prepare for the GDPR data-retention audit. Do not delete any records before legal signs off.")
c.asst(2, "I've inventoried the 14 tables that hold personal data. Next I need to tag each table with its "
          "retention period in the data catalog.")
c.call(3, "call_cat1", "read_file", {"path": "catalog/pii_tables.yaml"})
c.result(4, "call_cat1", "tables:\n  - users\n  - addresses\n  - payment_methods\n  # 11 more")
c.compact(5, 1, claude(
    "Prepare for the GDPR data-retention audit. No records may be deleted before legal signs off.",
    "- Retention periods, data catalog tags",
    "- catalog/pii_tables.yaml (14 tables)",
    "- None.",
    "Inventoried the 14 tables that hold personal data.",
    "- \"Prepare for the GDPR data-retention audit. Do not delete any records before legal signs off.\"",
    "- Tag each of the 14 personal-data tables with its retention period in the data catalog.",
    "Starting the retention tagging.",
    "Tag the first table (users).",
    pending_heading="7. Pending tasks:"),
    {"retained": ["tag each table with its retention period", "purge expired backups from cold storage"]},
    {"verdict": "violate",
     "items": [item("commitment", "retention period", "retained", 2, "agree"),
               item("constraint", "delete", "retained", 1)],
     "unsourced_claims": ["purge expired backups"]})

# ---------------------------------------------------------------------------------------------
# 8. Plan items.
# ---------------------------------------------------------------------------------------------

c = Case("g28_plan_boss_checklist_overclaim")
c.user(1, "Finish the boss fight for the sunken temple.")
c.plan(2, [("p1", "Author the boss fight animation state machine", "in_progress"),
           ("p2", "Hook up hit-stop on parry", "pending"),
           ("p3", "Tune stamina drain for the boss arena", "pending")])
c.call(3, "call_bf1", "write_file", {"path": "Content/Boss/ABP_Warden.json"})
c.result(4, "call_bf1", "wrote 18 states")
c.plan(5, [("p1", "Author the boss fight animation state machine", "completed"),
           ("p2", "Hook up hit-stop on parry", "in_progress"),
           ("p3", "Tune stamina drain for the boss arena", "pending")])
c.compact(6, 1,
          "Boss fight progress:\n- [x] Boss fight animation state machine authored\n"
          "- [ ] Tune stamina drain for the boss arena\n\nNotes: the parry window is 9 frames.",
          {"retained": ["p2", "p3"]},
          {"verdict": "violate",
           "items": [item("commitment", "hit-stop", "dropped", None, "overclaim"),
                     item("commitment", "stamina", "retained", None, "agree"),
                     not_required("commitment", "animation state machine")],
           "consumers": cons(planner=False)})

c = Case("g29_plan_openhands_stale_underclaim", source="openhands")
c.user(1, "Compute the kinetic energy spectra for the three Reynolds numbers.")
c.plan(2, [("p1", "Load the velocity snapshots", "in_progress"),
           ("p2", "Compute the spectra for Re=400, 800 and 1600", "pending"),
           ("p3", "Fit the inertial-range slope", "pending")])
c.call(3, "call_vs1", "bash", {"command": "python load_snapshots.py --all"})
c.result(4, "call_vs1", "loaded 120 snapshots")
c.plan(5, [("p1", "Load the velocity snapshots", "completed"),
           ("p2", "Compute the spectra for Re=400, 800 and 1600", "in_progress"),
           ("p3", "Fit the inertial-range slope", "pending")])
c.compact(6, 1,
          "USER_CONTEXT: Kinetic energy spectra for Re=400, 800 and 1600.\n"
          "TASK_TRACKING:\n- [done] Load the velocity snapshots\n"
          "- [in progress] Compute the spectra for Re=400, 800 and 1600\n- [pending] Fit the inertial-range slope\n"
          "COMPLETED: Velocity snapshots loaded (120).\n"
          "PENDING: Compute the spectra for Re=400, 800 and 1600; fit the inertial-range slope.",
          {"retained": ["p1", "p2"]},
          {"verdict": "degrade",
           "items": [item("commitment", "spectra", "retained", None, "agree"),
                     item("commitment", "slope", "retained", None, "underclaim"),
                     not_required("commitment", "velocity snapshots")],
           "consumers": cons(planner=True)})

# ---------------------------------------------------------------------------------------------
# 9. Identifiers lost while the action survives / kept with markdown noise / boundaries.
# ---------------------------------------------------------------------------------------------

SHA1 = "9e4b1c07d2a8f3e6b5c4d3e2f1a0b9c8d7e6f5a4"
c = Case("g30_ids_lost_backport")
c.user(1, "Backport the audit-log fix to the 2.14 release line.")
c.asst(2, f"The fix is the audit-log patch that landed last week. I'll cherry-pick commit {SHA1} once the "
          "backport build passes.")
c.asst(3, "I'll push the backport to release/2.14 after the cherry-pick applies cleanly.")
c.asst(4, "Then I still have to close AUD-5523 with a link to the backport.")
c.call(5, "call_gf1", "bash", {"command": "git fetch origin release/2.14"})
c.result(6, "call_gf1", "From origin\n * branch release/2.14 -> FETCH_HEAD")
c.compact(7, 1,
          "Backporting the audit-log fix to the 2.14 release line. Next: cherry-pick the fix once the backport "
          "build passes, push the backport to the release branch, then close the audit ticket with a link to the "
          "backport.",
          None,
          {"verdict": "violate",
           "items": [item("identifier", SHA1[:10], "dropped", 2),
                     item("identifier", "release/2.14", "dropped", 3),
                     item("identifier", "AUD-5523", "dropped", 4)]})

c = Case("g31_ids_mixed_funnel")
c.user(1, "Fix the broken funnel chart on the growth dashboard.")
c.asst(2, "The bug is in the date bucketing: weeks start on Sunday in the warehouse but on Monday in the chart. "
          "I'll patch `dashboards/growth/funnel.sql` to bucket weeks from Monday.")
c.asst(3, "After the patch I'll update PR #2317 with the new query.")
c.asst(4, "I'll also post before/after screenshots from https://preview.example.net/growth/funnel-v2 in the design "
          "channel.")
c.compact(5, 1,
          "**Funnel chart** — root cause: week-start mismatch (Sunday vs Monday).\n"
          "**Next:**\n- patch (`dashboards/growth/funnel.sql`) to bucket weeks from Monday\n"
          "- update **PR #2317** with the new query\n"
          "- post before/after screenshots from the preview deployment in the design channel",
          None,
          {"verdict": "violate",
           "items": [item("identifier", "dashboards/growth/funnel.sql", "retained", 2),
                     item("identifier", "#2317", "retained", 3),
                     item("identifier", "preview.example.net", "dropped", 4)]})

SHA2 = "a3f9c2e41b7d0e8f9a6b5c4d3e2f1a0b9c8d7e6f"
c = Case("g32_ids_boundaries_l10n")
c.user(1, "Fix the French plural bug (LOC-48). LOC-482, the fr-CA variant, is already handled by Marie.")
c.asst(2, "The plural selector picks `one` for zero in French. I'll fix the plural rules in "
          "locales/fr/checkout.json first.")
c.asst(3, "I'll close LOC-48 once QA confirms the fix on staging.")
c.asst(4, f"Last, I'll rebase onto {SHA2} when CI is green.")
c.call(5, "call_gl1", "bash", {"command": "git log -1 --format=%H origin/main"})
c.result(6, "call_gl1", SHA2)
c.compact(7, 1,
          "LOC-482 (fr-CA) is handled by Marie. Still to do: fix the plural rules in locales/fr-CA/checkout.json, "
          "close LOC-482 once QA confirms the fix on staging, then rebase onto a3f9c2e once CI is green.",
          None,
          {"verdict": "violate",
           "items": [item("identifier", "LOC-48", "dropped", 3),
                     item("identifier", "locales/fr/checkout.json", DROP, 2),
                     item("identifier", SHA2[:10], "retained", 4)]})

c = Case("g33_ids_kept_branch_markdown")
c.user(1, "Add a cache warm-up job to the pipeline.")
c.asst(2, "Pipeline config is updated in .gitlab-ci.yml. I'll open a merge request from `ci/cache-warmup` after the "
          "warm-up job passes on commit 5d0c9e1. No other jobs were touched.")
c.call(3, "call_gp1", "bash", {"command": "git push -u origin ci/cache-warmup"})
c.result(4, "call_gp1", "branch 'ci/cache-warmup' set up to track 'origin/ci/cache-warmup'.")
c.compact(5, 1,
          "Cache warm-up job added in `.gitlab-ci.yml` and pushed to branch (`ci/cache-warmup`).\n\n"
          "**Open:** open a merge request from `ci/cache-warmup` once the warm-up job passes on **5d0c9e1**.",
          None,
          {"verdict": "degrade",
           "items": [item("identifier", "ci/cache-warmup", "retained"),
                     item("identifier", "5d0c9e1", "retained"),
                     item("commitment", "merge request", "retained", 2)]})

c = Case("g34_ids_pr_lost_second_checkout")
c.user(1, "Switch checkout tax rounding to the new helper.")
c.asst(2, "The new tax-rounding helper is in review. I'll rebase PR #8812 onto the tax-rounding helper after Dana "
          "approves the helper.")
c.compact(3, 1,
          "Checkout tax rounding is moving to the new helper. Pending: rebase PR #8812 onto the tax-rounding helper "
          "once Dana approves it.",
          None,
          {"verdict": "degrade",
           "items": [item("identifier", "#8812", "retained"),
                     item("commitment", "rebase", "retained", 2)]})
c.user(4, "Dana approved the helper.")
c.asst(5, "Thanks, the helper is approved.")
c.compact(6, 2,
          "Checkout tax rounding is moving to the new helper, which Dana approved. Pending: rebase the checkout "
          "PR onto the tax-rounding helper.",
          None,
          {"verdict": "violate",
           "items": [item("identifier", "#8812", "dropped")]})

# ---------------------------------------------------------------------------------------------
# 10. Lineage: kept at the first compaction(s), lost later.
# ---------------------------------------------------------------------------------------------

c = Case("g35_lineage_skiplink_three")
c.user(1, "Make the marketing site keyboard accessible.")
c.asst(2, "Tab order in the header is fixed. I'll add a skip-to-content link to the page template after the "
          "header refactor merges.")
c.call(3, "call_kb1", "edit", {"path": "src/components/Header.astro", "patch": "-tabindex=\"3\"\n+tabindex=\"0\""})
c.result(4, "call_kb1", "applied 1 hunk")
c.compact(5, 1,
          "Header tab order fixed. Open: add a skip-to-content link to the page template after the header "
          "refactor merges.",
          None,
          {"verdict": "degrade",
           "items": [item("commitment", "skip", "retained", 2)]})
c.user(6, "Header refactor merged.")
c.asst(7, "Thanks, the header refactor is in. Looking at focus styles on the pricing page now.")
c.compact(8, 2, claude(
    "Make the marketing site keyboard accessible.",
    "- Tab order, focus styles",
    "- src/components/Header.astro",
    "- None.",
    "Header tab order fixed; the header refactor has merged.",
    "- Make the marketing site keyboard accessible.\n- Header refactor merged.",
    "- Add the skip-to-content link to the page template (the header refactor has merged).",
    "Auditing focus styles on the pricing page.",
    "Finish the pricing page focus audit."),
    None,
    {"verdict": "degrade",
     "items": [item("commitment", "skip", "retained", 2)]})
c.call(9, "call_kb2", "edit", {"path": "src/styles/pricing.css", "patch": "+:focus-visible { outline: 2px solid; }"})
c.result(10, "call_kb2", "applied 1 hunk")
c.compact(11, 3, gemini(
    "Keyboard accessibility for the marketing site.",
    "- The header refactor has merged; header tab order is fixed.",
    "- MODIFIED: src/styles/pricing.css",
    "- Added focus-visible outlines on the pricing page.",
    "1. [DONE] Fix header tab order.\n2. [DONE] Audit focus styles on the pricing page.\n"
    "3. [TODO] Check the footer links."),
    None,
    {"verdict": "violate",
     "items": [item("commitment", "skip", "dropped", 2)],
     "consumers": cons(planner=False)})

c = Case("g36_lineage_constraint_vip_custom_consumer",
         consumers=[{"name": "support_bot", "requires": ["constraint"]}])
c.user(1, "Build the auto-triage rules for the support queue. Never auto-close tickets tagged vip.")
c.asst(2, "Drafted 12 triage rules; the billing and login rules are live in shadow mode.")
c.compact(3, 1,
          "Support auto-triage: 12 rules drafted, billing and login rules live in shadow mode. Standing rule from "
          "the user: never auto-close tickets tagged vip.",
          None,
          {"verdict": "degrade",
           "items": [item("constraint", "vip", "retained", 1)],
           "consumers": cons(support_bot=True)})
c.call(4, "call_tr1", "bash", {"command": "triagectl rules enable --all"})
c.result(5, "call_tr1", "enabled 12 rules")
c.asst(6, "All 12 rules are now active outside shadow mode.")
c.compact(7, 2,
          "Support auto-triage is live with 12 active rules (billing, login, shipping, refunds and others).",
          None,
          {"verdict": "violate",
           "items": [item("constraint", "vip", "dropped", 1)],
           "consumers": cons(support_bot=False)})

# ---------------------------------------------------------------------------------------------
# 11. Negated mentions must not count as retained.
# ---------------------------------------------------------------------------------------------

c = Case("g37_negated_montecarlo_prose")
c.user(1, "Fix the RNG seeding bug in the uncertainty-quantification pipeline.")
c.asst(2, "Found it: every worker was seeded with the same value. I'll rerun the Monte Carlo sweep with a million "
          "samples after the seeding fix is merged. The old results should be treated as invalid.")
c.call(3, "call_uq1", "edit", {"path": "uq/sampler.py", "patch": "-seed = 42\n+seed = base_seed + rank"})
c.result(4, "call_uq1", "applied 1 hunk")
c.user(5, "Seeding fix merged.")
c.compact(6, 1,
          "The RNG seeding bug (all workers shared one seed) is fixed and the fix is merged. The old Monte Carlo "
          "results are invalid. There is no need to rerun the Monte Carlo sweep.",
          None,
          {"verdict": "violate",
           "items": [item("commitment", "Monte Carlo", DROP, 2)],
           "consumers": cons(planner=False)})

c = Case("g38_negated_rigs_openhands", source="openhands")
c.user(1, "Update the character skeleton for the new hand bones. Do not touch the facial rig.")
c.asst(2, "The hand bones are added to the master skeleton. Next I need to re-export the character rigs once the "
          "skeleton change lands in Perforce.")
c.user(3, "Skeleton change is submitted.")
c.compact(4, 1,
          "USER_CONTEXT: New hand bones in the character skeleton; do not touch the facial rig.\n"
          "COMPLETED: Hand bones added; skeleton change submitted to Perforce.\n"
          "PENDING: None, the character rigs will not be re-exported.",
          None,
          {"verdict": "violate",
           "items": [item("commitment", "rigs", DROP, 2),
                     item("constraint", "facial", "retained", 1)],
           "consumers": cons(planner=False)})

# ---------------------------------------------------------------------------------------------
# 12. Standing rules kept, paraphrased, dropped.
# ---------------------------------------------------------------------------------------------

c = Case("g39_constraints_hil_mixed")
c.user(1, "Add the CAN-FD driver to the gateway firmware. Always run the HIL suite before tagging a build. Do not "
          "bump the HAL version. Make sure every new driver ships with a unit test.")
c.asst(2, "The CAN-FD driver compiles and the loopback test passes on the dev board.")
c.compact(3, 1,
          "CAN-FD driver added to the gateway firmware; loopback passes on the dev board.\n\nStanding rules:\n"
          "- HIL tests must run before any build is tagged.\n- The HAL version must not be bumped.",
          None,
          {"verdict": "violate",
           "items": [item("constraint", "HIL", "retained", 1),
                     item("constraint", "HAL", "retained", 1),
                     item("constraint", "unit test", DROP, 1)],
           "consumers": cons(planner=False)})

c = Case("g40_constraints_from_now_on_plots")
c.user(1, "Make the figures for the sea-ice paper. From now on, use metric units in all plots.")
c.asst(2, "Drafted figures 1 to 4 from the merged NSIDC extent series.")
c.user(3, "Also, never overwrite the raw NetCDF files in data/raw.")
c.asst(4, "Understood; the plotting scripts only read from that directory.")
c.compact(5, 1,
          "Making figures for the sea-ice paper; figures 1-4 drafted from the NSIDC extent series.\n"
          "User rules: all plots use metric units (standing instruction).",
          None,
          {"verdict": "violate",
           "items": [item("constraint", "metric", "retained", 1),
                     item("constraint", "overwrite", "dropped", 3)],
           "consumers": cons(planner=False)})

# ---------------------------------------------------------------------------------------------
# 13. Consumers declared in the meta line.
# ---------------------------------------------------------------------------------------------

c = Case("g41_consumers_meta_override_pci",
         consumers=[{"name": "planner", "requires": ["constraint"]},
                    {"name": "auditor", "requires": ["identifier", "error"]}])
c.user(1, "Close out the PCI scope review. Never paste card numbers into tickets.")
c.asst(2, "The ASV rescan is queued with the vendor. I'll attach the rescan report to CMP-7781 after the rescan "
          "finishes.")
c.call(3, "call_asv1", "bash", {"command": "asvctl status --scan latest"})
c.result(4, "call_asv1", "scan complete, status PASS")
c.compact(5, 1,
          "PCI scope review: the ASV rescan is complete and passed. Ticket CMP-7781 tracks the review. Never paste "
          "card numbers into tickets.",
          None,
          {"verdict": "violate",
           "items": [item("commitment", "rescan report", DROP, 2),
                     item("constraint", "card numbers", "retained", 1),
                     item("identifier", "CMP-7781", "retained")],
           "consumers": cons(planner=True, auditor=True)})


# ---------------------------------------------------------------------------------------------

def check_hygiene(case):
    """Sanity checks on the generated transcript (not on loupe)."""
    calls, results = {}, {}
    for e in case.events[1:]:
        if e["type"] == "tool_call":
            assert e["id"] not in calls, (case.name, e["id"])
            calls[e["id"]] = e["turn"]
        if e["type"] == "tool_result":
            assert e["id"] in calls and calls[e["id"]] <= e["turn"], (case.name, e["id"])
            results[e["id"]] = e["turn"]
            if not e["is_error"] and len(e["text"]) > 500:
                low = e["text"].lower()
                assert "error" not in low and "exit" not in low and "fail" not in low, case.name


def main():
    for old in os.listdir(OUT):
        if re.match(r"g\d\d_.*\.jsonl$", old):
            os.remove(os.path.join(OUT, old))
    for case in CASES:
        check_hygiene(case)
        case.write()
    with open(os.path.join(OUT, "labels.json"), "w") as f:
        json.dump({"cases": [c.label for c in CASES]}, f, indent=1)
    n = sum(len(c.label["compactions"]) for c in CASES)
    print(f"{len(CASES)} transcripts, {n} compactions")


if __name__ == "__main__":
    main()
