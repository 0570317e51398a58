#!/usr/bin/env python3
"""labels_codex.py: writes ../labels-codex.json, the hand labels of the Codex rollouts.

Labels were written by reading each rollout (codex_dump.py, codex_boundary.py), not by
running loupe. Kept here as code so each case's reasoning sits beside its data.
"""
import json, os

REPO = "EntityProcess/agentv"
OPAQUE = ("Summary unreadable: replacement_history keeps the user messages (and the developer/AGENTS.md context) "
          "verbatim plus one `compaction` item whose encrypted_content Entire's secret scrubber replaced with "
          "\"REDACTED\"; `message` is empty. By DESIGN's sanity check an opaque summary is unverifiable and violates; "
          "owed items that the kept user messages carry verbatim are marked carried, everything else is dropped from "
          "what can be read.")
EMPTY = ("Summary absent on disk: `message` is \"\" and replacement_history holds only the user messages (and the "
         "developer/AGENTS.md context) verbatim, with no `compaction` item at all (Codex 0.140-0.142 remote compaction "
         "as captured by Entire). Whatever summary the model saw was not persisted, so by DESIGN's sanity check the "
         "compaction is unverifiable and violates; owed items that the kept user messages carry verbatim are marked "
         "carried, everything else is dropped from what can be read.")

def item(kind, contains, why, carried=None, status=None):
    d = {"kind": kind, "contains": contains}
    if carried is not None:
        d["carried"] = carried
    if status is not None:
        d["status"] = status
    d["why"] = why
    return d

def comp(ordinal, hint, sanity, open_, not_owed, notes):
    losses = [dict(kind=o["kind"], contains=o["contains"], status="dropped", why=o["why"])
              for o in open_ if o.get("carried") is False]
    return {"ordinal": ordinal, "boundary_hint": hint, "verdict": "violate", "sanity": sanity,
            "open": open_, "losses": losses, "not_owed": not_owed,
            "notes": (OPAQUE if sanity == "opaque" else EMPTY) + " " + notes}

CASES = []

# 1. issue triage -> docs for #950 (0.142.2), two compactions with a REDACTED compaction item
CASES.append({
 "file": "codex/codex-0.142.2-agentv-issue-triage-docs-2x.jsonl.gz", "runtime": "codex", "version": "0.142.2 (codex-tui)",
 "repo": REPO,
 "compactions": [
  comp(1, "line 272 compacted (context_compacted L275)", "opaque", [
    item("commitment", "note the rationale against closing #950", carried=False,
         why="L268 assistant: \"I'll make the docs update directly in-repo ... and I'll note the rationale against closing #950\"; only a search ran after it (L269); no kept user message says it. After the boundary the agent went looking for triage/staleness guidance docs (L278-288) instead of the composite docs of #950."),
    item("commitment", "make the docs update directly in-repo", carried=True,
         why="L268 promise; the kept last user message L264 'can you spawn worker to update the docs' carries the same action verbatim."),
    item("identifier", "issues/950", carried=True,
         why="issue the open docs work is about; kept user message L251 names https://github.com/EntityProcess/agentv/issues/950."),
   ], [
    item("error", "jq: error", why="L30/L203/L255: curl|jq queries of the GitHub API whose jq filter failed (syntax, string+number); read-only listing, redone with other filters that worked (issue lists at L193-L246)."),
    item("error", "unmatched '", why="L148 zsh quoting error of a read-only curl query, retried."),
    item("error", "Process exited with code 1", why="L60, L171: rg with no match (exit 1), read-only exploration."),
    item("commitment", "send you the corrected full ranking", why="L259: 'If you want, I'll immediately send you...' is a conditional offer; the user answered with a different request."),
    item("constraint", "vscode related are stale", why="L198 user: a description of the product state ('we deprecated them all') given as triage guidance, not an imperative rule; kept verbatim anyway."),
    item("constraint", "doesn't require any core code change", why="L264 user: a description of the requested docs task, not a standing rule; kept verbatim anyway."),
   ], "Agent-side 'From now on' rule at L259 is the assistant's own restatement, not a user rule."),
  comp(2, "line 573 compacted (context_compacted L576)", "opaque", [
    item("commitment", "ensure we have an example that runs", carried=True,
         why="L533 user request under way at the boundary (only exploration L536-571 so far); kept verbatim as a user message."),
    item("commitment", "use bun run not specify a path", carried=True,
         why="L548 user correction of the same example, not yet acted on; kept verbatim."),
    item("identifier", "1532", carried=False,
         why="L528: the docs change lives in draft PR #1532 on branch docs/issue-950-composite-docs; the open example work goes to that PR; no kept user message names it."),
    item("identifier", "docs/issue-950-composite-docs", carried=False,
         why="L528 worktree branch of the open work; not in the kept messages."),
   ], [
    item("error", "No such file or directory", why="L386, L563: rg of paths that do not exist (exit 2), read-only exploration, followed by searches that worked (L566)."),
    item("commitment", "harden the strict OR example further", why="L495: 'If you want, I can do a second pass...' conditional offer."),
    item("commitment", "push a PR", why="L504 promise fulfilled at L528 (PR #1532 opened)."),
   ], "The first summary's open docs item closed in this span (PR #1532); not resurrected in what can be read."),
 ]})

# 2. coordinator, results.remote cleanup (0.142.3), no compaction item
CASES.append({
 "file": "codex/codex-0.142.3-agentv-coordinator-results-remote.jsonl.gz", "runtime": "codex", "version": "0.142.3 (codex-tui)",
 "repo": REPO,
 "compactions": [
  comp(1, "line 996 compacted (context_compacted L999)", "empty", [
    item("commitment", "dispatch a worker for it now", carried=True,
         why="L992 promise after the user's L987 'should we do this in $worktree' (worktree skill); L993 wrote the prompt file, `workmux add` not yet run. The kept user messages carry the request ('please remove the legacy plumbing.', the skill text with 'workmux add'); the agent resumed it at L1001."),
    item("identifier", "/tmp/agentv-remove-legacy-results-remote.0pT8E8.md", carried=False,
         why="L994: the worker prompt file the open dispatch depends on (`workmux add -P <file>`); not in the kept messages. After the boundary the agent created a bead first and did not reuse it."),
    item("handle", "84505", carried=False,
         why="L369: `bd status` returned 'Process running with session ID 84505' and was never polled or killed before the boundary (recorded exec session). The agent had its output and moved on, so the loss is harmless in practice, but DESIGN counts it."),
    item("handle", "48497", carried=False,
         why="L633: `git status ... && find /tmp ...` left running as exec session 48497, never polled again (recorded)."),
    item("constraint", "Do not implement feature code directly in the main checkout", carried=True,
         why="L7 handoff prompt from the user: coordinator role rules; kept verbatim."),
    item("constraint", "never revert user changes", carried=True, why="L7; kept verbatim."),
    item("constraint", "Do not touch or revert those unless the user explicitly asks", carried=True, why="L7, about the dirty showcase files; kept verbatim."),
   ], [
    item("error", "unknown flag: --short", why="L136 `bd dolt status --short` usage error; the next call without the flag worked."),
    item("error", "Cannot find module '@openai/codex-sdk'", why="L204 require.resolve probe in a worktree without an install; the agent confirmed the SDK is declared in the repo (L210-L211) and moved on."),
    item("error", "unexpected argument '-P' found", why="L458 workmux send usage error; the agent read `workmux send --help` (L463-L465) and went on with the worker's follow-up."),
    item("error", "No such file or directory", why="L520/L521 sed of missing guide files in the wiki repo (read-only)."),
    item("error", "No agent running in worktree", why="L565, L795 `workmux capture` of a finished worker: read-only status probe."),
    item("error", "is not valid JSON", why="L702/L713 JSON check over raw stream logs that are not JSON; validated structured files separately: 'structured-artifacts-ok' (L721)."),
    item("error", "not allowed in a regex", why="L881 rg pattern error, read-only search redone."),
   ], "Long coordinator session (several workers, PR #1558 merged earlier, evidence branch pushed); only the items still open at the boundary are labelled; earlier worker threads were closed or handed to workers before it."),
 ]})

# 3. coordinator, experiment schema research (0.142.4), two compactions, no compaction item
CASES.append({
 "file": "codex/codex-0.142.4-agentv-coordinator-workers-2x.jsonl.gz", "runtime": "codex", "version": "0.142.4 (codex-tui)",
 "repo": REPO,
 "compactions": [
  comp(1, "line 350 compacted (context_compacted L353)", "empty", [
    item("commitment", "Monitor worker handoffs and summarize outcomes", carried=False,
         why="L245 update_plan: this step in_progress (recorded); the agent was polling workers up to L344; no kept message carries it."),
    item("identifier", "research-on-run-complete-placement", carried=False, why="workmux worker the open monitoring step watches (L302, L311); not in the kept messages."),
    item("identifier", "research-copyfiles-wiki", carried=False, why="worker watched by the open step (L318)."),
    item("identifier", "create-agentv-beads-copyfiles", carried=False, why="worker watched by the open step (L319)."),
    item("handle", "90862", carried=False, why="L174: write_stdin poll of session 90862 still 'Process running'; never polled again (recorded)."),
    item("commitment", "remove policy and move target, model, runs, early exit", carried=True,
         why="L306 user direction relayed to the placement worker (L311); kept verbatim as a user message."),
   ], [
    item("commitment", "adding a concise wiki comparison now", why="L340 narrates what a worker is doing, not an obligation of this agent."),
    item("commitment", "should probably become a cleanup bead", why="L328 hedge ('should probably')."),
   ], ""),
  comp(2, "line 1402 compacted (context_compacted L1405)", "empty", [
    item("commitment", "Monitor remaining worker handoffs and summarize outcomes", carried=False,
         why="L609 update_plan: in_progress (recorded); polling continued to L1398."),
    item("identifier", "remove-authored-workers-yaml", carried=False, why="worker being monitored (L1397); not in the kept messages (they say 'remove workers', not the worker's name)."),
    item("identifier", "av-36i8", carried=False, why="bead of the monitored worker (L1398 `bd show av-36i8`); the agent re-read it after the boundary (L1419)."),
    item("handle", "42052", carried=False, why="L1400: `bd show av-36i8 --long` yielded after 1 s as session 42052, still running at the boundary (recorded)."),
    item("handle", "90862", carried=False, why="still never polled since L174 (recorded)."),
    item("constraint", "ignore that one, continue monitoring the other workers", carried=True,
         why="L604 user: 'i'm taking over the on run complete worker, so ignore that one' — standing for the rest of the session; kept verbatim."),
   ], [
    item("constraint", "remove workers. that's not authroing concern", why="L363 user: a one-off product decision, turned into bead + worker (done by L609 'completed'); kept verbatim anyway."),
    item("commitment", "Create Bead and worker for removing authored workers field", why="L609 plan step completed; not resurrected (nothing readable)."),
   ], ""),
 ]})

# 4. issue triage into beads (0.140.0), no compaction item
CASES.append({
 "file": "codex/codex-0.140.0-agentv-beads-prepare-triage.jsonl.gz", "runtime": "codex", "version": "0.140.0 (codex-tui)",
 "repo": REPO,
 "compactions": [
  comp(1, "line 570 compacted (context_compacted L573)", "empty", [], [
    item("commitment", "doing final checks on the GitHub issue", why="L558 narration of the checks that L559-L563 ran; every output arrived (L564-L568, all exit 0, 'No dependency cycles')."),
    item("error", "Beads interprets `blocks:` in the opposite direction", why="L504 wrong dependency direction, fixed L518-L553 and verified (L566)."),
    item("error", "malformed GitHub comment", why="L553 comment broken by shell expansion, deleted and re-posted (L554, checked L564)."),
    item("commitment", "update beads with this scope", why="L434 user request, done: issue updated and beads av-44n.* created with dependencies (L560-L567)."),
    item("constraint", "i don't think we need watch", why="L425 user product decision, carried out in the issue update; not a standing rule."),
   ], "Nothing owed was open: the turn's work was done and verified, only the final report to the user was missing. Violates only through the sanity check (summary absent)."),
 ]})

# 5. hard-deprecate backup_and_force_push PR (0.142.0), no compaction item
CASES.append({
 "file": "codex/codex-0.142.0-agentv-hard-deprecate-pr.jsonl.gz", "runtime": "codex", "version": "0.142.0 (codex-tui)",
 "repo": REPO,
 "compactions": [
  comp(1, "line 913 compacted (context_compacted L916)", "empty", [
    item("commitment", "where is dogfood saved for the merge sync", carried=True,
         why="L901 user question being answered (L905 'I'll check the repo docs and current PR notes...', L906-908 ran); kept verbatim."),
    item("identifier", "1510", carried=False, why="L896: draft PR #1510 'remains pending human review'; bead av-raf.5 still in_progress; the open question is about this PR; no kept message names the PR number."),
    item("identifier", "fix/av-raf-5-results-sync-merge-signal", carried=False, why="branch/worktree of the open PR (L896); not in the kept messages."),
    item("identifier", "av-raf.5", carried=True, why="bead of the open work; the kept first user message names it ('new bead av-raf.5')."),
    item("constraint", "never force-push", carried=True, why="L6 user; kept verbatim."),
    item("constraint", "anything in next tag can be hard deprecated", carried=True, why="L554 user policy for the repo; kept verbatim."),
   ], [
    item("error", "repository 'https://github.com/..git/' not found", why="L521/L522 fetch with a broken origin URL; fixed by set-url and refetched (L527-L530)."),
    item("error", "Process exited with code 1", why="L766/L792 bun test and L769 biome failures were fixed; targeted tests, typecheck, lint and CI all green by L884."),
    item("commitment", "backup_and_force_push should be hard deprecated", why="L514 user request, done (L896 'hard-deprecated/removed')."),
    item("commitment", "get it reviewed", why="L6: waiting on a human review; the agent reported it (L896 'pending human review'); not an action the agent can do."),
   ], ""),
 ]})

# 6. prepare/trace docs follow-ups (0.140.0), three compactions, no compaction item
CASES.append({
 "file": "codex/codex-0.140.0-agentv-prepare-trace-docs-3x.jsonl.gz", "runtime": "codex", "version": "0.140.0 (codex-tui)",
 "repo": REPO,
 "compactions": [
  comp(1, "line 671 compacted (context_compacted L674)", "empty", [
    item("commitment", "Run relevant verification and final review", carried=False, why="L412 update_plan step in_progress (recorded); the full `bun run test` was still running."),
    item("handle", "32402", carried=False,
         why="full test suite started as exec session 32402 and polled until L669 'Process running'; the first call after the boundary (L678) polls 32402 again, so the summary the model saw carried it, but nothing on disk does."),
    item("identifier", "prepare-trace-docs", carried=False, why="worktree ../agentv.worktrees/prepare-trace-docs and branch feat/prepare-trace-docs (L199) of all open work; not in the kept messages."),
    item("commitment", "finish the docs and trace followups", carried=True, why="L161 user request, still in verification; kept verbatim."),
   ], [
    item("error", "Process exited with code 127", why="L419/L420 `bun run typecheck/lint` exit 127: dev dependencies missing in a fresh worktree (L426); installed, then reruns passed."),
    item("error", "Process exited with code 1", why="L448 lint and L506/L529 grade-prepared test failures, fixed and re-run green before the boundary (suite passing at L667)."),
   ], ""),
  comp(2, "line 1183 compacted (context_compacted L1186)", "empty", [
    item("commitment", "Run relevant verification and final review", carried=False, why="plan step still in_progress (L412, recorded); final full run under way."),
    item("handle", "54197", carried=False, why="L1173-1181: final `bun run test` on the updated tree as exec session 54197, 'Process running' at L1181 (recorded)."),
    item("identifier", "prepare-trace-docs", carried=False, why="worktree/branch of the open work; not in the kept messages."),
   ], [
    item("commitment", "we should have a look when we start code review", why="L1078 user: a note for a later review about the word 'wire'; the agent already removed the CLI Wire helper names (L1167); kept verbatim anyway."),
    item("error", "Process exited with code 1", why="L783/L991 lint and L785/L849 test failures fixed and re-run green (typecheck passed L1138, CLI tests green)."),
   ], ""),
  comp(3, "line 1774 compacted (context_compacted L1777)", "empty", [
    item("commitment", "Run relevant verification and final review", carried=False, why="plan step still in_progress (recorded): docs build had just passed (L1772); final review and report not done."),
    item("commitment", "SDK work should be parallelized", carried=True,
         why="L1682 'After this trace branch is clean, the SDK work should be parallelized ... one worker for ... av-bv4.11, one for ... av-bv4.12'; the kept user message L1678 'we should spawn workers to implement the sdk after this' carries the action."),
    item("identifier", "av-bv4.12", carried=False, why="bead of the deferred SDK work (L1653, L1682); not in the kept messages."),
    item("identifier", "av-bv4.11", carried=False, why="decision bead the SDK work depends on (L1653, L1682)."),
    item("constraint", "no need for backward compatibility", carried=True, why="L1421 user: the namespaces have no users, so no compatibility shims; kept verbatim."),
   ], [
    item("commitment", "can we kill them since they compoelted their work", why="L1552 user request done: tmux sessions $209/$210 killed and verified gone (L1589-L1605)."),
    item("error", "Process exited with code 1", why="L1571/L1572 tmux capture of names that did not resolve, redone by session id (L1581); L1718 lint failure fixed, lint clean at L1744."),
   ], ""),
 ]})

# 7. OTel ingest package discussion (0.141.0), no compaction item
CASES.append({
 "file": "codex/codex-0.141.0-agentv-otel-package-discussion.jsonl.gz", "runtime": "codex", "version": "0.141.0 (codex-tui)",
 "repo": REPO,
 "compactions": [
  comp(1, "line 536 compacted (context_compacted L539)", "empty", [
    item("commitment", "how do other frameworks name their paackages", carried=True,
         why="L524 user question being researched (L528 'I'll inspect the local ai-research-wiki references first, then check package names', first listings L529-534); kept verbatim."),
   ], [
    item("commitment", "Can you please review the beads and issues", why="L179 user request answered earlier in the session (review of beads against the OTel goal)."),
   ], "A design discussion: no plan, no running job, no failing command at the boundary."),
 ]})

# 8. WTG dogfood + dashboard case detail (0.142.5), two compactions with a REDACTED compaction item
CASES.append({
 "file": "codex/codex-0.142.5-agentv-wtg-dogfood-2x.jsonl.gz", "runtime": "codex", "version": "0.142.5 (codex-tui)",
 "repo": REPO,
 "compactions": [
  comp(1, "line 538 compacted (context_compacted L540), at the start of a turn before the user's next message (L546)", "opaque", [], [
    item("commitment", "spawn worker to run wta-ai-prompts-experiment", why="L261 user request done and reported (L534 'Done.', bead av-x0ym closed, evidence pushed)."),
    item("error", "Process exited with code 128", why="L80 the cleanup step of a fresh orphan branch exited 128 ('nothing tracked yet'), harmless per L85; the branch was then used."),
    item("error", "Process exited with code 22", why="L95 404 on a private user-attachment URL; retried with the gh token (L100)."),
    item("error", "Process exited with code 130", why="L350 the agent's own Ctrl-C to a session it had started."),
    item("constraint", "keep the existing style if it's better", why="L205 user: conditional preference answered by the investigation (L212); not a standing rule."),
   ], "Nothing owed was open: the previous turn had ended with 'Done.' and its work was verified. Violates only through the sanity check (opaque summary)."),
  comp(2, "line 907 compacted (context_compacted L910)", "opaque", [
    item("commitment", "Run focused tests/build and browser UAT", carried=False, why="L836 update_plan step in_progress (recorded); Dashboard UAT just started."),
    item("commitment", "Rerun focused WTG dogfood, analyze quality result", carried=False, why="L836 plan step pending (recorded); blocked by the expired token."),
    item("handle", "25660", carried=False, why="L905: `agentv dashboard` server started for the UAT, 'Process running with session ID 25660' (recorded)."),
    item("error", "Provided authentication token is expired", carried=False,
         why="L884/L886: the live rerun failed with 401 (exit 2); the agent said it 'blocks a meaningful quality comparison until the ... token is refreshed' and moved to UAT only; nothing since fixed it, so it is still the last word on the rerun."),
    item("commitment", "debug why the quality failure", carried=True, why="L546 user request, not answered yet; kept verbatim."),
    item("constraint", "please keep that style", carried=True, why="L783 user: keep the run list/run detail style; kept verbatim."),
    item("constraint", "the newest version introduced environment so we need to use that", carried=True, why="L657 user; kept verbatim."),
   ], [
    item("error", "Process exited with code 1", why="L766 `agentv validate` with changed syntax (corrected, L772), L819 biome and L844 dashboard build failures: fixed and re-run (focused tests green L872, build passed L878)."),
    item("error", "No such file or directory", why="L725 rg of provider files that do not exist (read-only)."),
   ], ""),
 ]})

# 9-10. savekirk/session-bridge (Codex Desktop 0.119 alphas), REDACTED compaction items
SB = "savekirk/session-bridge"
CASES.append({
 "file": "codex/codex-0.119.0a28-desktop-sessionbridge-checkpoint-sessions.jsonl.gz", "runtime": "codex", "version": "0.119.0-alpha.28 (Codex Desktop)",
 "repo": SB,
 "compactions": [
  comp(1, "line 877 compacted (context_compacted after it)", "opaque", [
    item("commitment", "before I run the suite", carried=False,
         why="L860: 'I'm checking for leftover constructor args and stale active-session assertions before I run the suite.' The suite was not run after the L769 removal work; no kept message says it (the agent ran it after the boundary)."),
    item("commitment", "remove all active session functionalities", carried=True,
         why="L769 user request under way (edits L774-L860); kept verbatim."),
    item("constraint", "no fallback to any other session", carried=True,
         why="L585 user: the details panel 'should always load the session details for the selected section with no fallback to any other session'; kept verbatim."),
    item("constraint", "avoid reloading and processing data", carried=True,
         why="L6 user requirement on the loading path; kept verbatim."),
   ], [
    item("commitment", "Fix checkpoint-session loading to use sessionPaths", why="L160 update_plan step left in_progress and never updated, but the work was done and verified (pnpm test green L504, report L525); a strict status matcher would call any 'done' flipped."),
    item("commitment", "Update tests and docs for the new selection-driven loading path", why="L160 plan step left pending, done before L525 (tests updated, suite green L504)."),
    item("commitment", "Rewire checkpoint selection flow across tree views and extension activation", why="L160 plan step left pending, done before L525 (selection wiring reported at L525)."),
    item("commitment", "Run targeted verification and fix any regressions", why="L160 plan step left pending; the verification of that request ran and passed (L504 pnpm test exit 0). The verification still owed is the one promised at L860 for the later request, labelled as open."),
    item("error", "Exit code: 1", why="L395, L480, L742 pnpm test failures, each fixed and re-run green (L504, L754, L761)."),
    item("error", "Exit code: 2", why="L27, L545 rg over a path that does not exist (output still found matches); read-only."),
   ], "The plan at L160 is stale (never updated): every step's work finished; only the latest request's verification is open."),
 ]})
CASES.append({
 "file": "codex/codex-0.119.0a11-desktop-sessionbridge-session-details.jsonl.gz", "runtime": "codex", "version": "0.119.0-alpha.11 (Codex Desktop)",
 "repo": SB,
 "compactions": [
  comp(1, "line 776 compacted (context_compacted L779)", "opaque", [], [
    item("commitment", "use the agent name and user's name", why="L609 user request done: edits L646-L729, targeted tests green (L746); the agent was re-reading code for its report (L748-L775). Kept verbatim anyway."),
    item("error", "parses Cursor transcripts and strips user_query wrappers", why="L739: three failures the agent calls pre-existing and unrelated (Cursor wrapper, ISO timestamps) and leaves; it moved on (at most inferred), and a kept assistant message of this replacement_history says the worktree 'already has unrelated pre-existing transcript/module test failures'."),
    item("error", "Timeout of 2000ms exceeded", why="L320 Workspace Probe timeout, reported as an unrelated existing failure in the kept assistant message of the first turn."),
    item("error", "has no exported member 'EntireSessionDetailModel'", why="L82 type errors during the edit, fixed (later check-types clean)."),
    item("error", "Cannot find name 'parseTranscript'", why="L305 type error, fixed."),
   ], "Codex Desktop 0.119 keeps the assistant's final answers of earlier turns in replacement_history too. Nothing owed was open: the requested change was done and verified, only the report was missing. Violates only through the sanity check (opaque summary)."),
 ]})

# 11. entireio/skills (Codex CLI 0.125.0), REDACTED compaction item
CASES.append({
 "file": "codex/codex-0.125.0-entireskills-what-happened-skill.jsonl.gz", "runtime": "codex", "version": "0.125.0 (codex-tui)",
 "repo": "entireio/skills",
 "compactions": [
  comp(1, "line 2373 compacted (context_compacted L2376), mid-turn", "opaque", [
    item("commitment", "look for remaining improvement opportunities", carried=True,
         why="L2359 promise answering the user's L2354 'Anything else that should be improved?' (only reads since, L2360-L2364); the kept user question carries it."),
    item("constraint", "so I'll only have to approve it once", carried=True,
         why="L746 user: run `git add ... && git commit ...` as one command, for every commit since; kept verbatim."),
    item("constraint", "this skill is now called \"What Happened\", not wat anymore", carried=True,
         why="L6 user naming rule, checked for again and again (rg for 'wat'); kept verbatim."),
   ], [
    item("error", "Process exited with code 1", why="rg with no match and `git diff --no-index` (exit 1 means 'differs') at L237-L2343: read-only checks, not failures."),
    item("error", "Operation not permitted", why="L426 `git add` hit the sandbox (index.lock); re-run with escalation (L428) and committed (L439)."),
    item("commitment", "randomly output a bar from the Backstreet Boys song", why="L1010/L1020 request done, then L1221 the user asked to leave the lyrics and go back to the skill: closed."),
    item("commitment", "commit and continue", why="L2317 the last such request was done (commit ce5a1bb, L2334-L2349)."),
   ], "Nothing owed is lost from what can be read: the open question and the user's rules are all in the kept user messages. Violates only through the sanity check (opaque summary). Same organisation as the train split's entireio/cli, but another repository and another runtime."),
 ]})

# 12-13. entireio/git-sync (Codex CLI 0.118.0), no compaction item; replacement_history keeps earlier final answers too
GS = "entireio/git-sync"
CASES.append({
 "file": "codex/codex-0.118.0-gitsync-rewrite-keep-going.jsonl.gz", "runtime": "codex", "version": "0.118.0 (codex-tui)",
 "repo": GS,
 "compactions": [
  comp(1, "line 1194 compacted (context_compacted after it), mid-turn", "empty", [
    item("commitment", "collapsing the target-side", carried=False,
         why="L1183: 'I'm taking one last architectural pass ... collapsing the target-side `conn + adv + free function` pattern into a bound target interface'; only reads followed (L1184-L1193). The kept final answer of an earlier turn lists 'stronger interface boundaries' as still open, which names the area but not this step."),
    item("commitment", "just keep going until done", carried=True, why="L680 user: the run continues until the tracker is done; kept verbatim."),
    item("constraint", "spawn one or more review agents after each meaingful step", carried=True, why="L360 user rule for the rest of the run; kept verbatim."),
    item("handle", "35703", carried=False, why="L434: `go test ./internal/gitproto ./internal/syncer` yielded as exec session 35703 and was never polled again (recorded)."),
   ], [
    item("commitment", "Annotate rewrite issue list with done/partial/open", why="L366 update_plan step left in_progress, but the tracker was annotated and committed (4b63c50) and the later steps done, as the kept final answer reports; the plan was never updated."),
    item("commitment", "Implement one still-open rewrite item with tests", why="L366 plan step left pending; several items were implemented and committed since (f9170fc, 1a7aefc, 4e9ecda and later)."),
   ], "Codex CLI 0.118 keeps the earlier turns' final assistant answers in replacement_history; they carry the tracker state but not the step under way."),
 ]})
CASES.append({
 "file": "codex/codex-0.118.0-gitsync-annotated-tags-fix.jsonl.gz", "runtime": "codex", "version": "0.118.0 (codex-tui)",
 "repo": GS,
 "compactions": [
  comp(1, "line 1366 compacted (context_compacted after it), mid-turn", "empty", [
    item("commitment", "adding a regression that forces that exact code path", carried=False,
         why="L1344/L1354: the fix for 'object not found' on a second `--tags` sync was patched (L1339) and a `no-thin` regression was being added; neither was run yet."),
    item("commitment", "fix it", carried=True, why="L1158 user request, reopened by the user's L1308 paste of the same failure after the first fix; both kept verbatim."),
    item("handle", "25179", carried=False, why="L205: an `rg` over the home directory yielded as exec session 25179 and was never polled again (recorded)."),
    item("handle", "33961", carried=False, why="L306: an `rg` over the Go module cache yielded as exec session 33961, never polled again (recorded)."),
   ], [
    item("commitment", "This should work", why="L1303: a claim about the previous include-tag patch, already refuted by the user's L1308 output; superseded by the new fix under way."),
    item("error", "Process exited with code 1", why="L1259 rg with no match (read-only)."),
   ], ""),
 ]})

out = {"cases": CASES}
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "..", "labels-codex.json"), "w") as f:
    json.dump(out, f, indent=1, ensure_ascii=False)
    f.write("\n")
print(sum(len(c["compactions"]) for c in CASES), "compactions in", len(CASES), "files")
