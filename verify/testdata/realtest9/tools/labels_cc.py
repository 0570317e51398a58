#!/usr/bin/env python3
"""Writes ../labels-claude-code.json: the hand labels of the realtest9 Claude Code split.

Labelled blind, by reading each source (tools/cc_dump.py, tools/brief_view.py, tools/bgjobs.py,
tools/tasks.py and the raw records) and its summary, following /work/shared/DESIGN.md. loupe was
not built or run on these files and its rule code was not read. Line numbers (Lnnn) are 1-based
lines of the raw (and redacted) file. Every `contains` is in the redacted source before its
boundary (tools/check_contains.py). Run: python3 tools/labels_cc.py (from realtest9/).
The basis of each open item (recorded / stated / inferred, DESIGN.md) is given in its `why`.
"""
import json, os

MG = 'ElixirTrials/medgemma-hackathon'


def it(kind, contains, why, **kw):
    d = {'kind': kind, 'contains': contains}
    d.update(kw)
    d['why'] = why
    return d


cases = []

# ---------------------------------------------------------------- session a1a154b0 (a5/671700453a/2)
cases.append({
    'file': 'claude-code/cc-2.1.49-medgemma-perf-plan-rewrite-phase2-next.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.49', 'repo': MG,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '24d5fed5-e8c7-4e39-81dc-16518177e091',
        'trigger': 'auto', 'pre_tokens': 168538, 'verdict': 'degrade',
        'open': [
            it('commitment', 'yes and then clear the context first', carried=True,
               why="L548, the user's last message (stated), answering the agent's L537 question 'Shall I update `PERF_PLAN.md` with these findings and then proceed to Phase 2 execution?'. At the boundary the plan file had been read (L549-L551) and a rewrite announced (L552); nothing of Phase 2 had been done. Summary: All User Messages quotes it; Pending Tasks 'Commit updated PERF_PLAN.md', 'Execute Phase 2'; Current Work and Optional Next Step spell out update / commit / clear / Phase 2"),
            it('commitment', 'proceed to Phase 2 execution', carried=True,
               why="L537: the agent's offer, accepted by the user's 'yes' at L548 (stated). Summary Pending Tasks '**Execute Phase 2**: Add env vars to conftest.py, add `slow` marker ...' and Optional Next Step"),
            it('commitment', "make a branch which we'll merge to this branch", carried=True,
               why="L225: the user wants the perf work on a new branch to be merged back into the current branch later (stated; the branch was made L227-L228, the merge is for after the work). Summary Analysis 'Create a branch (to merge into `feature/major-refactor-langgraph`)', All User Messages quotes it, Next Step names the branch"),
            it('commitment', 'should be more limited than an entire extraction-grounding loop', carried=True,
               why="L4, the user's first request (stated): limit the tests to a few criteria. Still to do at the boundary: it is PERF_PLAN.md's Phase 2 (test fixture limits), not started. Summary Analysis 'wanting them limited rather than running full extraction-grounding loops', All User Messages quotes it, Pending Tasks 'Execute Phase 2'"),
            it('identifier', 'feature/perf-test-limits-and-async-grounding', carried=True,
               why='L227-L228: the branch the open work is on (stated, from the open items above). Summary Optional Next Step "The branch is `feature/perf-test-limits-and-async-grounding` with 2 existing commits"'),
            it('constraint', 'with Sonnet 4.6', carried=True,
               why="L382 'review the plan, clear the context and begin execution (with Sonnet 4.6)' (inferred: a model choice for the execution, given in passing inside a one-off request; the agent cannot switch models itself). Summary All User Messages and Analysis quote '(with Sonnet 4.6)'"),
        ],
        'losses': [],
        'not_owed': [
            it('handle', 'toolu_015udXm1rm9UZBdQBFW7KiMk',
               why="L553: the unwritten last record. The Write of the new PERF_PLAN.md has no tool_use record and no tool_result on disk, only a PostToolUse:Write hook line naming this id (the hook fires after the tool ran); the summary reports the plan rewritten and not yet committed. Labelled not owed as in realtest4-7"),
            it('commitment', 'Now I\'ll rewrite the plan with Phase 1 findings',
               why='L552: narration of the next step the same response carries out (the Write at L553)'),
            it('commitment', 'Write me a root cause and comprehensive but concise report',
               why='L4: done, the report was given at L219 (a "Root Cause Report" in the reply) after the MLflow trace queries (L196-L216); the summary describes it (Analysis 3, "Root Cause Report")'),
            it('error', 'EISDIR: illegal operation on a directory',
               why='L100: a Read of a directory during exploration (read-only); the files were read by path after'),
            it('error', 'Sibling tool call errored',
               why='L102/L104/L111: parallel Reads cancelled because a sibling failed; re-read after'),
            it('error', 'File does not exist',
               why='L109: a Read of a guessed path (read-only exploration); the right files were found and read'),
        ],
        'notes': "MedGemma hackathon (clinical-trial protocol pipeline, LangGraph + FastAPI) performance session: root-cause report from MLflow traces, a new branch with PERF_PLAN.md, a Phase 1 investigation by several sub-agents (all returned: Task results status=completed), then the user's 'yes and then clear the context first'. The summary carries the request, every pending phase, the branch and the model choice. Degrade.",
    }],
})

# ---------------------------------------------------------------- session 7d735052 (0a/707194e390/1)
cases.append({
    'file': 'claude-code/cc-2.1.49-medgemma-modify-dialogs-playwright-validate.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.49', 'repo': MG,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '27018157-ae1d-4c41-90ab-77b1646ff2a9',
        'trigger': 'auto', 'pre_tokens': 167131, 'verdict': 'degrade',
        'open': [
            it('commitment', 'Validate with playwright that everything works', carried=True,
               why="L250, the user's last request (stated), under way at the boundary: both dialogs opened and entity Approve checked (L302-L349), criterion Approve not yet checked. Summary Pending Tasks 'The Playwright validation is still in progress' with the checklist, Current Work, Optional Next Step 'Continue Playwright validation by testing criterion Approve'"),
        ],
        'losses': [],
        'not_owed': [
            it('handle', 'toolu_01VxkhzV2zATXSaPnyksD5A5',
               why="L350: the unwritten last record: a Playwright click on the Criteria tab with no tool_result on disk before the boundary; the summary reports the tab displayed. Not owed, as in realtest4-7"),
            it('commitment', 'Now let me switch to the Criteria tab and test Approve there',
               why='L349: narration of the step the same response starts (the click at L350); the criterion Approve check is carried anyway under the validation request'),
            it('handle', 'bb2362a',
               why='L256: background `npm run dev ... & sleep 3`, completed (task-notification L257)'),
            it('handle', 'b1d663d',
               why='L262: background `npx vite --port 5173 & ...`, completed (task-notification L264)'),
            it('error', 'Found an unknown key',
               why='L219: biome 2.x rejected the project config; rerun with biome 1 (L221) worked, lint fixed and clean (L230-L233)'),
            it('error', 'No such file or directory',
               why='L240: a read-only `ls` from the wrong directory; the absolute-path ls at L241 listed all three files'),
            it('commitment', 'Let me start the dev server and test with Playwright',
               why='L253: narration, done (dev server on :5174, Playwright session L276-L350)'),
        ],
        'notes': "HITL review UI: a plan implemented as ten TaskCreate tasks (all completed, L49-L205), lint and tsc clean, then the user's 'Validate with playwright that everything works and looks good.' The summary carries the validation as in progress, with what was and was not checked. Degrade.",
    }],
})

# ---------------------------------------------------------------- session ea6cc712 (6e/bcd73f7fa1/2)
cases.append({
    'file': 'claude-code/cc-2.1.47-medgemma-ordinal-node-real-e2e-schema-error.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.47', 'repo': MG,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'd811f8be-f0e5-4101-94bb-768ae8583a46',
        'trigger': 'auto', 'pre_tokens': 168672, 'verdict': 'degrade',
        'open': [
            it('commitment', "Let's test for real", carried=True,
               why="L394, the user's last request (stated): run the ordinal node for real (live Gemini, Postgres) instead of with mocks. Under way and blocked at the boundary: the E2E script (L423) failed (L427). Summary Pending Tasks 'Successfully run `scripts/run_ordinal_e2e.py` against live Postgres + live Gemini API with real (non-mocked) LLM calls', 'Show the user real results', Current Work, Next Step quoting the user"),
            it('error', 'column "structured_criterion" of relation "criteria" does not exist', carried=True,
               why="L427: the real E2E run failed with psycopg2 UndefinedColumn; the last result before the boundary (stated: nothing since). Summary Errors '**DB schema behind (structured_criterion)** ... This was the **last error** before the summary was requested — NOT YET FIXED', Pending Tasks and Next Step"),
            it('identifier', 'scripts/run_ordinal_e2e.py', carried=True,
               why='L423-L426: the script the open request and error depend on (stated). Summary Pending Tasks and Current Work name it'),
            it('constraint', 'no mocking', carried=True,
               why="L394 'No no, no mocking. Let's test for real.' (inferred: said of this test run, a correction of the mocked E2E shown at L388, not phrased as lasting). Summary Pending Tasks 'real (non-mocked) LLM calls', All User Messages quotes it"),
        ],
        'losses': [],
        'not_owed': [
            it('error', 'E501 Line too long',
               why='L209/L212: ruff on graph.py docstrings; wrapped, ruff clean later in task 7 (completed L313)'),
            it('error', 'File has not been read yet',
               why='L296: Edit before Read; the file was read and edited after'),
            it('error', 'I001',
               why='L347: import sorting in the new full-cycle test; fixed, the full suite then passed (L355-L362 "207 passed")'),
            it('error', 'DATABASE_URL',
               why='L402: the first DB check failed for an unset DATABASE_URL; the agent sourced .env (L406-L410) and went on'),
            it('error', 'unit_concept_id',
               why='L411: UndefinedColumn for atomic_criteria.unit_concept_id; fixed by ALTER TABLE ("Columns added successfully." L417)'),
            it('commitment', 'Run the test and report',
               why='L369: done, "**1 passed in 3.26s**" reported at L375'),
            it('commitment', 'me the results',
               why='L380 "Show  me the results": done, the logs of each phase shown at L388 (then the user asked for a real run, open above)'),
            it('commitment', 'Let me write a real end-to-end script',
               why='L421: narration, done (Write L423, run L426); its failure is the open error above'),
        ],
        'notes': "MedGemma ordinal-resolution LangGraph node: plan implemented as seven tasks (all completed), a mocked full-cycle test (207 passed), then the user's 'No no, no mocking. Let's test for real.' The real run is blocked by a live DB schema behind the models; the summary carries the request, the still-failing error and the script. Degrade.",
    }],
})

# ---------------------------------------------------------------- session 9e308917 (9e/1f65531cc5/2)
cases.append({
    'file': 'claude-code/cc-2.1.47-medgemma-export-demographics-task14-pending.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.47', 'repo': MG,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'b6c6f7a9-c55c-4297-b508-1139992ac137',
        'trigger': 'auto', 'pre_tokens': 167302, 'verdict': 'degrade',
        'open': [
            it('commitment', 'Update tests and verify', carried=True,
               why="TaskCreate #14 (L413), status pending at the boundary (recorded). Summary Pending Tasks '**Task 14 (in_progress)**: Update tests and verify — need to run `uv run ruff check .` and `uv run pytest`...', Current Work, Next Step 'Complete Task #14'"),
            it('commitment', 'Add demographics handling to FHIR builder', carried=True,
               why="TaskCreate #13 (L411), in_progress since L449 and never marked completed (recorded). But the work was done: the Edit at L455-L457 adds `_build_demographic_characteristic()` and routes demographics to it in `_build_characteristic`, and the tool result says the file was updated. The summary lists #13 as completed ('#13: Added `_build_demographic_characteristic()` to fhir_group_builder.py'), which is true of the code; only the task state lagged. Labelled carried: a verifier that calls this flipped raises a false alarm (read the notes)"),
            it('commitment', 'Want me to fix the pipeline to populate', carried=True,
               why="L381 offer, accepted by the user's 'yes' (L387) (stated). Parts done (#10-#13), verification left (#14). Summary All User Messages '\"yes\" (to fixing the pipeline + exporters for demographics handling)', Current Work and Next Step"),
        ],
        'losses': [],
        'not_owed': [
            it('handle', 'ad5be6a',
               why='L12: async Explore agent, read with TaskOutput (L16, L21) and completed (task-notification L23 "completed")'),
            it('error', 'Import block is un-sorted',
               why='L144: ruff I001 in the new exporters; auto-fixed, ruff clean (task 9 completed L190)'),
            it('error', 'is too complex (12 > 10)',
               why='L148: ruff C901; helpers extracted, ruff clean after'),
            it('error', 'DetachedInstanceError',
               why='L218: the demo script read a detached instance; fixed by keeping the session open and rerun'),
            it('commitment', 'Add demographics handling to CIRCE builder',
               why='TaskCreate #12, completed at L447'),
            it('commitment', 'Run a few criteria through the backend and show me the table',
               why='L204: done, the demo script printed the tables (after the L218 fix)'),
            it('commitment', 'Check that the grounding and extraction is correctly',
               why='L243: done, answered at L381 (the research on entity_type / entity_domain) before the offer the user accepted'),
        ],
        'notes': "Phase 4 join-ready exports (CIRCE, FHIR Group, evaluation SQL): nine tasks completed, then the user's questions about age as a SNOMED concept and a 'yes' to fixing demographics in the pipeline and the exporters (tasks #10-#14). At the boundary #13 is in_progress in the task list though its Edit had been applied, and #14 is pending; the summary calls #13 done and #14 in progress. Degrade: everything owed is carried; #13's 'completed' matches what the Edit did.",
    }],
})

# ---------------------------------------------------------------- session dfc9fdff (d8/02a6e098a4/3)
cases.append({
    'file': 'claude-code/cc-2.1.47-medgemma-code-review-fixes-run-dev-all-done.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.47', 'repo': MG,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '59b5ba53-bc93-4ec2-a666-5d434b3f6396',
        'trigger': 'auto', 'pre_tokens': 169075, 'verdict': 'degrade',
        'open': [],
        'losses': [],
        'not_owed': [
            it('commitment', 'fix the issues you deem appropriate',
               why='L26: done: five TaskCreate tasks (L103-L111) all completed (L144-L347), the summary lists them with checkmarks'),
            it('commitment', 'execute make run-dev and follow the console',
               why='L207 (a queued message taken up mid-turn): done, `make run-dev` in the background (b23109b, L335), its output read twice (L338-L343), then stopped (L345-L346)'),
            it('handle', 'b23109b',
               why='L337: the background `make run-dev`, stopped by TaskStop ("Successfully stopped task: b23109b", L346)'),
            it('handle', 'a2aad45',
               why='L35: async Explore agent, completed (task-notification L52)'),
            it('handle', 'acd587d',
               why='L48: async agent, completed (task-notification L58)'),
            it('error', 'Cannot find implementation or library stub',
               why='L292: mypy import-not-found on events_py, judged pre-existing and unrelated (L293); the agent moved on (at most inferred, and the summary mentions "mypy shows only pre-existing errors")'),
            it('error', 'unrecognized arguments: -n',
               why='L305: pytest `-p no:xdist` with addopts -n; rerun from the service dir with --override-ini passed 36 tests (L316-L324)'),
            it('error', "No rule to make target",
               why="`make run-dev` from services/api-service; rerun from the project root (L335) started the stack"),
            it('commitment', 'Let me check if there are any runtime errors in the logs',
               why='L341: done (TaskOutput L342-L343), then the server was stopped'),
        ],
        'notes': "Code review and fixes, then 'execute make run-dev and follow the console'. Everything was finished before the boundary (tasks completed, dev stack run and stopped, three agents returned); the last turns only answer task-notifications. Empty preservation set; the summary says all done. Degrade. The MLflow 'Address already in use' on port 5001 is in the run-dev output (a TaskOutput read, not a failing call) and was judged pre-existing and non-fatal.",
    }],
})

# ---------------------------------------------------------------- session 2f2152e4 (rhea-project d0/77b607521b/0)
cases.append({
    'file': 'claude-code/cc-2.1.42-rhea-integrations-audit-chatgpt-cache-question.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.42', 'repo': 'serg-alexv/rhea-project',
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'da677f54-d002-460f-a076-caced7969466',
        'trigger': 'auto', 'pre_tokens': 167315, 'verdict': 'degrade',
        'open': [
            it('commitment', 'Can you extract chatgpt logs from a chrome cache files', carried=True,
               why="L528, the user's last message, sent right before the auto-compaction and not answered (stated; a request phrased as a question). Summary All User Messages quotes it; Current Work 'The ChatGPT data extraction question remains unanswered regarding Chrome cache specifically'; Optional Next Step explores Chrome's profile data"),
            it('error', 'docs/state.md too large', carried=True,
               why="L76: `rhea check` failed 'FAIL: docs/state.md too large (2270B > 2048B)' during the liveness audit; never fixed (the pasted plan says to document broken integrations, not fix them now), and the agent put 'Trim state.md' into NOW.md Tier 0 (inferred: a finding recorded and deferred by design, not a failure the run is stuck on). Summary Pending Tasks 'Tier 0: Trim state.md'"),
            it('error', 'rhea not found', carried=True,
               why="L38: the `rhea` CLI is not on PATH (inferred, as above: an audit finding, deferred). Summary Pending Tasks 'create rhea CLI wrapper'"),
        ],
        'losses': [],
        'not_owed': [
            it('constraint', "don't try to fix now",
               why='L4: inside the plan the user pasted ("Implement the following plan: …"), generated in plan mode: pasted text, not the user\'s own rule (DESIGN: not text the user pasted)'),
            it('commitment', 'Make "NOW.md" to schedule immidiate upgrade',
               why='L473: done, docs/NOW.md written (L519-L522) and reported (L523). Its tiers are a schedule for later, not promises of this run; the summary lists them anyway'),
            it('commitment', 'CLAUDE.md improvements',
               why='L294: done and reported at L460 ("Done. Changes made:"); the ChatGPT-log question in the same message answered at L453/L469 (encrypted, not readable)'),
            it('handle', 'bf344db',
               why='background search of the ChatGPT app data, completed (task-notification L464-L465), its output read at L466-L468'),
            it('error', 'Sibling tool call errored',
               why='L39-L41, L77-L82: parallel calls cancelled by a failing sibling; the agent re-ran what it needed'),
            it('error', 'No such file or directory',
               why='L506: a `cat` of a quoted ~ path (read-only exploration); the agent went on with the MCP log it had'),
        ],
        'notes': "Rhea (a personal agent-tooling project): an Integrations Audit implemented from a pasted plan, a fix-audit-failures plan, CLAUDE.md revisions, a search of the ChatGPT and Claude desktop app data for ideas and a NOW.md upgrade schedule, then the question 'Can you extract chatgpt logs from a chrome cache files or somwehow else?' right before the boundary. The summary carries the question as unanswered and the deferred audit failures in its Pending Tasks. Degrade.",
    }],
})

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'labels-claude-code.json')
with open(out, 'w') as f:
    json.dump({'cases': cases}, f, indent=1, ensure_ascii=False)
    f.write('\n')
print('wrote', out, sum(len(c['compactions']) for c in cases), 'compactions')
