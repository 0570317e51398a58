#!/usr/bin/env python3
"""Writes ../labels-claude-code.json: the hand labels of the realtest5 Claude Code split.

Labelled blind, by reading each source (tools/cc_dump.py, tools/tasks.py, tools/asyncs.py and
the raw records) and its summary, following /work/shared/DESIGN.md. loupe was not built or run on
these files and its rule code was not read. Line numbers (Lnnn) are 1-based lines of the raw (and
redacted) file. Run: python3 tools/labels_cc.py (from realtest5/).
"""
import json, os

LWS = 'local-web-services/local-web-services'


def it(kind, contains, why, **kw):
    d = {'kind': kind, 'contains': contains}
    d.update(kw)
    d['why'] = why
    return d


cases = []

# ---------------------------------------------------------------- lws, session 38e358ca (70/4873b05af4)
cases.append({
    'file': 'claude-code/cc-2.1.39-lws-e2e-steps-refactor-agents-running.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.39', 'repo': LWS,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '95007ac5-4ed6-4815-9387-471cd13fe483',
        'trigger': 'auto', 'pre_tokens': 167505, 'verdict': 'degrade',
        'open': [
            it('commitment', 'Migrate all 20 services to steps/ directories', carried=True,
               why='TaskCreate #2 (L78), in_progress at L97, never completed before the boundary (recorded). Summary Pending Tasks: "Task 2 (Migrate services): Still in_progress"'),
            it('commitment', 'Update END_TO_END.md documentation', carried=True,
               why='TaskCreate #4 (L82), in_progress at L260 (recorded); the agent had only read the file. Summary Pending Tasks "Task 4 (Update END_TO_END.md): In_progress", Current Work, Next Step'),
            it('commitment', 'Run make check and make test-e2e', carried=True,
               why='TaskCreate #5 (L84), pending (recorded). Summary Pending Tasks "Task 5 (Run make check and make test-e2e): Pending" and Next Step'),
            it('handle', 'a7e2613', carried=True,
               why='async agent "Fix SNS step file imports" launched L211; its completion was only enqueued (queue-operation L229), never delivered to the model before the boundary (the agent says at L235 it works on "while the background agents finish"). The summary names the id as still running in Current Work and Pending Tasks; after it the agent reads it with TaskOutput (L275)'),
            it('handle', 'a2bc9b1', carried=True,
               why='async agent "Fix StepFunctions step imports" launched L215; completion enqueued L223, not delivered before the boundary. Summary names it verbatim; TaskOutput at L277'),
            it('commitment', 'Implement the following plan', carried=True,
               why="L3: the user's only message, a plan to execute (stated). Summary Primary Request lists its requirements"),
        ],
        'losses': [],
        'not_owed': [
            it('error', 'command not found: python',
               why='L177: `python scripts/migrate_steps.py` exit 127; rerun as `uv run python …` at L178 succeeded (396 step files)'),
            it('constraint', 'No wildcard imports',
               why="words of the pasted plan (L3), not the user's own standing rule; the summary carries them anyway"),
            it('constraint', 'Keep existing Docker tags',
               why='plan text (L3: "Keep existing Docker tags (`@requires_docker`, `@requires_nodejs_image`) unchanged"), not a user rule; carried in Primary Request anyway'),
            it('commitment', 'Let me spot-check a few files',
               why='L181: narration of the next step the same response did (Reads L182-L196)'),
            it('commitment', 'Replace httpx in root e2e conftest.py',
               why='TaskCreate #1 completed at L95 (and #3 "Update architecture tests" at L258); the summary shows both done (not resurrected)'),
        ],
        'notes': 'Plan execution (E2E steps/ refactor, 396 generated files). Auto-compaction with two async fix-up agents whose completion notices sat in the queue undelivered, task #4 in progress, #5 pending. The summary keeps all of it with the agent ids verbatim. Degrade.',
    }],
})

# ---------------------------------------------------------------- lws, session ea66a7bf (50/409da9b103)
cases.append({
    'file': 'claude-code/cc-2.1.39-lws-docker-data-planes-per-resource-replan.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.39', 'repo': LWS,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'ad0f21a4-e8b8-4b24-8a3f-aea92ff0ff60',
        'trigger': 'auto', 'pre_tokens': 168026, 'verdict': 'degrade',
        'open': [
            it('commitment', 'should create a container called docdb-foo', carried=True,
               why='L645, the last user message: container names must map to the user-provided identifier (docdb create-db-cluster --db-cluster-identifier foo -> docdb-foo); the agent entered plan mode for it (L649) and had not implemented it (stated request). Summary quotes it as Message 5, Pending Tasks and Next Step'),
            it('commitment', 'Let me plan this out', carried=True,
               why='L648: the agent takes on a plan for on-demand per-resource containers; in plan mode at the boundary, plan not yet written/ExitPlanMode not called. Summary Current Work and Next Step: "Write the final plan to the plan file and call ExitPlanMode"'),
        ],
        'losses': [],
        'not_owed': [
            it('handle', 'toolu_014SQbaYng2x8jboajS1FeWu',
               why="L706: the Plan sub-agent Task call has no tool_result on disk before the boundary, only PreToolUse (L707), 120 agent_progress lines and a PostToolUse:Task hook_progress at L829, one line before the boundary: it had returned (the unwritten last record). The summary describes the plan agent's output (container naming lws-{service_prefix}-{resource_id}, dynamic ports, five phases). Not in flight"),
            it('commitment', 'only pull when I run the setup commands',
               why='L543: a request about the feature being built; done before the boundary (DockerServiceManager.start() raises instead of pulling, L547-L602, tests pass). The summary carries it as Feedback 1 anyway'),
            it('commitment', 'started by themselves',
               why='L607: a bug report (containers start at ldk dev), not a rule; superseded by the per-resource redesign request at L645'),
            it('commitment', 'Run verification (make check)',
               why='TaskCreate #5 completed at L536 (all five tasks of the first plan completed); the summary says all checks pass (not resurrected)'),
            it('error', 'imported but unused',
               why='L226: ruff F401 in six new test files; imports removed (L228-L240), later make check lints clean'),
            it('error', 'duplicates=9',
               why="L344: the Makefile's CPD check (duplicates must be 0) failing; refactored, duplicates=0 at L374"),
            it('error', 'Missing function or method docstring',
               why='L374/L405: pylint C0116 in docker_service.py; docstrings added, pylint 10.00/10 at L463'),
            it('error', 'toolu_01B9V6vNvbMocAt6xcjuVFtA',
               why="L642: the user rejected the Explore Task call (interrupt), then gave a new direction at L645; not a failure to carry"),
        ],
        'notes': 'Plan implemented and verified, then three rounds of user feedback; the last (L645) turns the design into per-resource containers named after the user\'s identifier, and the agent is in plan mode with a Plan sub-agent whose result is not on disk (PostToolUse hook at L829: it returned). The summary keeps the request, the planning step and the plan file. Degrade.',
    }],
})

# ---------------------------------------------------------------- lws, session fa72858c (a4/1e80de862b)
cases.append({
    'file': 'claude-code/cc-2.1.39-lws-apigateway-features-make-check.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.39', 'repo': LWS,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '00afb06b-c0d3-4354-8a95-3abde6accf00',
        'trigger': 'auto', 'pre_tokens': 168392, 'verdict': 'degrade',
        'open': [
            it('commitment', 'Run linting and tests to verify', carried=True,
               why='TaskCreate #7 (L88), in_progress at L291, never completed before the boundary (recorded). Summary Pending Tasks: run make format, run make check; Current Work and Next Step the same'),
            it('commitment', 'Implement the following plan', carried=True,
               why="L3: the user's only message (API Gateway binary payloads, CORS, multi-value params, authorizers). Summary Primary Request"),
            it('error', 'register_function', carried=True,
               why="L546: make check, 10 unit tests failing ('LambdaRegistry' object has no attribute 'register_function') and the one-class-per-file architecture test. Test files rewritten (L561-L578) but the next make check (L581) stopped at ruff and the one after (L582) at black, so the tests were never re-run before the boundary: fix applied, verification pending (stated). The summary names the AttributeError and the one-class rule, says fixed, and lists 'Run make check to verify all unit/integration/architecture tests pass' as pending: carried, as in realtest4's dual case. After the boundary 2284 pass"),
            it('error', '4 files would be reformatted', carried=True,
               why="L582: `uvx ruff check --fix src tests && make check`; its progress records (L583-L584) end with black's 'would reformat … 4 files would be reformatted' (format-check failing). Still the last word on make check at the boundary. Summary Errors ('Black formatting needed … current pending issue'), Current Work and Next Step ('Run make format && make check') quote it"),
        ],
        'losses': [],
        'not_owed': [
            it('handle', 'toolu_01YKVME2EsX4TLfu5Br9i74A',
               why="L582: the last Bash call has no tool_result on disk, only two bash_progress lines (L583-L584) whose output already holds the command's end (ruff: 5 fixed, all checks passed; black --check: 4 files would be reformatted, which stops make). The compactor saw its output (the summary quotes it verbatim) and after the boundary the agent runs `make format`, not the call again. The unwritten last record, as in realtest4; not in flight"),
            it('error', 'Import block is un-sorted',
               why='L581: ruff I001 in make check; the variant at L582 (`ruff check --fix` first) fixed it: its progress says "Found 5 errors (5 fixed, 0 remaining) … All checks passed!" (L583). The summary says fixed with ruff --fix (true)'),
            it('error', 'Line too long (102 > 100)',
               why='L296: ruff E501, fixed L305; ruff passes at L317'),
            it('error', 'proxy_request - C',
               why='L339: radon complexity C(14) and duplicated binary helpers; refactored, duplicates=0 and no C blocks at L429'),
            it('error', "Unused argument 'path'",
               why='L429: pylint W0613, fixed L435 (pylint 10.00/10 at L546)'),
            it('commitment', 'Write E2E tests for all four features',
               why='TaskCreate #6 completed at L289 (only the authorizer feature files were written). The summary reports the gap honestly and proposes creating the missing feature files after make check; the task itself was closed by its plan event, so it is not an open item'),
            it('commitment', 'write all 8 unit test files in parallel',
               why='L238: narration of the step the same turn carried out (test files written L240-L267)'),
        ],
        'notes': 'Plan execution (four API Gateway features). Auto-compaction in the middle of make check iterations: the last Bash call (ruff --fix && make check) has only progress lines on disk, ending with black reporting 4 files to reformat. The summary keeps the in-progress verification task, the pending format/check and the unverified test fixes. Degrade.',
    }],
})

# ---------------------------------------------------------------- lws, session 10a97f8f (c3/2c0e36976b)
cases.append({
    'file': 'claude-code/cc-2.1.39-lws-e2e-harness-arrange-act-assert.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.39', 'repo': LWS,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '325df2db-0a8c-4ee6-8d7e-14567d0ce37b',
        'trigger': 'auto', 'pre_tokens': 167499, 'verdict': 'degrade',
        'open': [
            it('commitment', 'I want to extend the assert', carried=True,
               why="L273, the user's last message: Arrange/Act/Assert comments in the tests, verify each action with a follow-up call (ssm put-parameter then get-parameter), and an 'assert' failure message when the check fails. Only conftest.py was edited before the boundary (L281), none of the 65 test files (stated request, open). Summary: Message 2 quoted verbatim, Pending Tasks, Current Work, Next Step"),
            it('commitment', 'then update all 65 test files', carried=True,
               why="L276: the agent's promise (conftest assert_invoke helper, then all 65 test files with # Arrange / # Act / # Assert and verification); the first half done, the 65 files not (stated). Summary Pending Tasks 'Update all 65 test files … none of the 65 test files have been updated yet'"),
        ],
        'losses': [],
        'not_owed': [
            it('handle', 'a65c365',
               why='async agent launched L160; completion enqueued L165 and read with TaskOutput (L188), notification delivered L256. Likewise a731b52 (L164 → TaskOutput L194), a28db61 (L170 → L200), ac36932 (L174 → L202). All finished'),
            it('commitment', 'Implement ssm and secretsmanager e2e tests',
               why='TaskCreate #3 completed at L192; all seven tasks of the plan completed by L211 and reported (L270). The summary says the first request is done (not resurrected)'),
            it('handle', 'toolu_01RDzeBF7K3yjg415kQpF8e4',
               why='L281: the last Edit (conftest.py, assert_invoke) has no tool_result on disk, only its PostToolUse:Edit hook_progress at L282, one line before the boundary: it had returned (the unwritten last record). The summary says conftest.py was updated'),
            it('commitment', 'Let me wait for the remaining two',
               why='L197: narration; the agents were read at L200/L202'),
            it('constraint', 'if the get parameter call fails in the assert',
               why='L273: part of a one-off request about the tests being changed now, not a standing rule; carried with the request anyway'),
        ],
        'notes': 'Plan (ldk stop + 65 E2E test files) done with four async agents, all read; then the user asks for Arrange/Act/Assert and verifying assertions, the agent edits conftest.py and the compaction hits. The summary keeps the request verbatim and the pending 65 files. Degrade.',
    }],
})

# ---------------------------------------------------------------- lws, session 41c74e72 (d5/62e30d11fd)
cases.append({
    'file': 'claude-code/cc-2.1.39-lws-per-resource-containers-preexisting-failures.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.39', 'repo': LWS,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '4068f93f-2b68-44fb-b5aa-f28d83fc528b',
        'trigger': 'auto', 'pre_tokens': 179599, 'verdict': 'degrade',
        'open': [
            it('commitment', 'Run tests and fix issues', carried=True,
               why='TaskCreate #7 (L143), in_progress at L370, not completed before the boundary (recorded; completed at L522, after it). Summary Pending Tasks "Task 7 (Run tests and fix issues) is still marked as in_progress", Next Step'),
            it('error', '7 failed, 2052 passed', carried=True,
               why="L500: make check exit 2 with 7 failing tests (RequestLoggingMiddleware, CLI service registration and one-class-per-file architecture tests, docker client socket tests). The agent was checking whether they pre-date its change (L502-L513) when the compaction hit: still the last word on make check (stated). The summary lists all 7 by name in Errors and Current Work as pre-existing, with the '7 failed, 2052 passed' line"),
            it('commitment', 'Implement the following plan', carried=True,
               why="L3: the user's only message (per-resource Docker containers); summary Primary Request"),
        ],
        'losses': [],
        'not_owed': [
            it('handle', 'toolu_01DXeGc6cAnBCy3A9gfvjUC5',
               why="L513: the last Bash call (`git stash && uv run pytest …middleware… | tail -10 && git stash pop`) has no tool_result on disk and nothing after it but the boundary (this project's hooks log PostToolUse for Task and Edit, not Bash; cf. the a4 file). The compactor had its result: the summary reports what it showed ('confirmed the middleware test failed on the original code too' by stashing). Read as the unwritten last record, like the other files of this split; a strict reader who counts every call without a result on disk would call it a dropped handle (the id is not in the summary, its intent is)"),
            it('error', 'File does not exist',
               why='L102: a failed Read of a guessed path (read-only exploration); the sibling Read at L104 was cancelled with it ("Sibling tool call errored")'),
            it('error', 'Found 2 matches of the string to replace',
               why='L303: Edit of ldk.py ambiguous; retried with more context at L305, succeeded'),
            it('error', 'not enough values to unpack',
               why='L374: RDS instance inheriting the cluster endpoint; fixed L381, the data-plane unit tests pass afterwards (summary: all 23 pass)'),
            it('error', 'would reformat',
               why='L390: black --check on 8 files; black run at L392, "All done" at L408'),
            it('error', 'wrong-import-position',
               why='L408: pylint C0413 (TYPE_CHECKING blocks); moved, pylint 10.00/10 at L500'),
            it('handle', 'a2db2dd',
               why='L35/L54: foreground Explore Task calls (agents a2db2dd, a3f0867) whose results came back in the same call (status=completed)'),
            it('commitment', 'Create ResourceContainerManager',
               why='TaskCreate #1 completed L151 (tasks #1-#6 all completed by L368); summary shows them done'),
        ],
        'notes': 'Plan execution (per-resource Docker containers). At the boundary make check fails on 7 tests the agent believes pre-existing, and its last call stashes the change to check that; the call has no result on disk, but the summary reports its outcome. The summary keeps the in-progress task and the 7 failures. Degrade. After the boundary the task is marked done and the user reports containers still start at ldk dev.',
    }],
})

# ---------------------------------------------------------------- lws, session 7f740c94 (3d/f54a24dbd2)
cases.append({
    'file': 'claude-code/cc-2.1.39-lws-conftest-allure-pr12-ci.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.39', 'repo': LWS,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'a418b7a3-86d3-4c7b-afb1-eed8b11e7415',
        'trigger': 'auto', 'pre_tokens': 167445, 'verdict': 'degrade',
        'open': [
            it('commitment', 'when they complete merge the PR and create a release', carried=True,
               why="L1109: raise a PR, wait for CI, merge it and create a release, fixing failures on the way (stated request). PR #12 created (L1157), CI failing, not merged, no release at the boundary. Summary quotes the request twice; Pending Tasks: fix, push, wait, merge, create a release"),
            it('error', 'Refreshing checks status every 10 seconds', carried=True,
               why="L1442: `gh pr checks 12 --watch` exit 1, test-e2e failing in 2 s (the workflow names an action repository that does not exist); still the last word on PR #12's CI at the boundary (stated). Summary Errors ('CURRENT unresolved error'), Current Work quotes the CI error, Next Step"),
            it('identifier', 'https://github.com/local-web-services/local-web-services/pull/12', carried=True,
               why='the PR the open request is about (L1157); named in Current Work'),
            it('identifier', 'merge-steps-into-conftest-allure', carried=True,
               why='the PR branch (L1124); named in Current Work'),
            it('commitment', 'i want a github action so I can see the report on a PR', carried=True,
               why="L504 (queued, delivered L639): Allure results for pytest and a GitHub Action to show the report on PRs; the Action is what is failing at the boundary (stated, open). Summary 'Tertiary task' and All User Messages"),
            it('constraint', 'I will only only have bdd tests', carried=True,
               why="L876: the user's choice when the two Allure plugins conflict (BDD tests only): a standing decision about the report, inferred at most. Summary: 'user explicitly chose BDD-only', quoted"),
        ],
        'losses': [],
        'not_owed': [
            it('handle', 'toolu_01J5p5bS5wqckyyxLquYvWve',
               why="L1449: the last call (WebSearch for the Allure action) has no tool_result on disk, the boundary follows at L1450. The compactor had its result: the summary reports what it found ('Web search revealed the correct repo is allure-framework/allure-action'), and after the boundary the agent does not repeat the search. The unwritten last record"),
            it('commitment', 'should you be following this guide',
               why="L1351: a question redirecting the agent to the official guide; answered by doing it (L1355-L1361). The summary keeps the guide's URL anyway"),
            it('error', 'no matches found',
               why='L170: `rm -rf tests/e2e/*/steps/` after the directories were already gone (zsh glob with no match); the agent had deleted them'),
            it('error', "No module named 'allure_pytest_bdd'",
               why='L804: bare python3 outside the venv; rerun with `uv run python3` at L805'),
            it('error', 'Your local changes to the following files would be overwritten by checkout',
               why='L1121: git checkout refused; stashed (L1122) and the branch created (L1124)'),
            it('error', 'toolu_01TrymbbRufwgjAcPLVj6tSG',
               why="L1294: first CI run, allure-report job failing (simple-elf action's dead image); the agent switched to another action (L1301) and then to the official one on the user's word: superseded by the open CI failure"),
            it('error', 'toolu_01XKqhu4hfhbMtdfhFzZywGS',
               why='L1348 (and L873): tool use rejected by the user, who then redirected; not failures to carry'),
            it('commitment', 'Run verification (make check and make test-e2e)',
               why='TaskCreate #4 completed at L419; all four plan tasks completed (the summary reports them done)'),
            it('handle', 'a9d507f',
               why='L465: a foreground Explore Task whose result came back in the same call'),
        ],
        'notes': "Plan (steps back into conftest.py) done, then three more requests: Allure for BDD tests, a GitHub Action for PR reports, and 'raise a PR … merge … create a release'. At the boundary PR #12's CI fails on a wrong action name and the agent's web search for the right one has no result on disk. The summary keeps the request, the PR, the branch and the failure. Degrade.",
    }],
})

# ---------------------------------------------------------------- lws, session 1c9632fc (56/5d8d2ebe9e)
cases.append({
    'file': 'claude-code/cc-2.1.39-lws-docker-lambda-containers-not-exiting.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.39', 'repo': LWS,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '468f1acc-91eb-48b0-9b3e-aae99a34029a',
        'trigger': 'auto', 'pre_tokens': 167950, 'verdict': 'degrade',
        'open': [
            it('commitment', 'docker images still not exiting', carried=True,
               why="L788, the user's last message, one line before the boundary: the Lambda containers still do not exit after an invocation (reported since L438 'the lambda does not terminate', L548, L597, L734). Unresolved at the boundary (stated: the user's pending request). Summary Errors 'UNRESOLVED - Containers still not exiting', Pending Tasks first item, Next Step quotes it"),
            it('constraint', 'I do not need backwards compatible', carried=True,
               why="L33 (queued, delivered L38): 'I want to replace the existing subprocess approach. I do not need backwards compatible' — a standing design decision (no imperative cue; inferred at most). Summary Primary Request quotes it verbatim"),
        ],
        'losses': [],
        'not_owed': [
            it('commitment', 'I want to see the lambda function arguements',
               why='L663: Lambda invocations in the web GUI with event and context; done (LdkLogger, log_lambda_invocation, L673-L780; tests pass L779). The summary lists it as solved'),
            it('commitment', 'killed when the timeout is reached',
               why='L224 (queued): kill the container on the function timeout; done at L243-L286. Solved in the summary'),
            it('commitment', 'should they?',
               why='L188: a question that the agent answered by making container start lazy (L191-L222); done'),
            it('commitment', 'pipx install --force',
               why="L785: the user pasted a shell command (then interrupted); not a request to the agent"),
            it('commitment', 'Have you reinstalled the package',
               why='L780: a question to the user, not an obligation of the agent'),
            it('error', 'File does not exist',
               why='L20/L29: Reads of guessed paths (read-only exploration); found via Glob/Grep'),
            it('error', "No such file or directory: 'cdk'",
               why="L159: a traceback the user pasted (not a tool result); explained as a stale-synth/CDK-not-installed issue unrelated to the change"),
            it('error', 'I/O operation on closed file',
               why='L496: pasted log; fixed by replacing the raw-socket exec (L503 onward), then by the docker CLI'),
        ],
        'notes': 'Plan (Docker Lambda runtime) and a long chain of user bug reports, all fixed except one: containers not exiting after an invocation, re-reported in the last user message right before the boundary (the compaction request is appended to it). The summary keeps it as the unresolved pending task. Degrade.',
    }],
})

# ---------------------------------------------------------------- lws, session 2c1da5b5 (d5/1c1722034f)
cases.append({
    'file': 'claude-code/cc-2.1.39-lws-cpd-pylint-plan-rejected-manual.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.39', 'repo': LWS,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'ce34e6ee-22a8-4c80-adcd-281a48542560',
        'trigger': 'manual', 'pre_tokens': 124134, 'verdict': 'degrade',
        'open': [
            it('commitment', 'I want to run and fix all regular pylint issues', carried=True,
               why="L319: add pylint (fix all regular issues), document it in the contributing doc and the Makefile, split make check into parallel GitHub Actions jobs (stated request). Only a plan exists at the boundary, and the user rejected ExitPlanMode (L563): nothing implemented. Summary: 'Second request (plan written but NOT approved)', the message verbatim, Pending Tasks Parts A and C"),
            it('commitment', 'I want to check for 5 lines or more of duplicates', carried=True,
               why="L362 (queued, delivered L363): tighten CPD to 5 lines; planned as Part B, not done (stated). Summary Pending Tasks 'Lowering CPD threshold from 15 to 5 and fixing 14 new duplicate pairs'"),
            it('commitment', 'why does assert_invoke return a string instead of an object', carried=True,
               why="L542 (queued): a question carrying a request (parse JSON in assert_invoke to drop json.load calls); the agent put it into the plan as Part D (L559), unimplemented (inferred: phrased as a question). Summary Pending Tasks Part D"),
            it('identifier', 'sorted-churning-garden.md', carried=True,
               why='the plan file holding the unapproved plan (L559); named in Pending Tasks and Current Work'),
        ],
        'losses': [],
        'not_owed': [
            it('error', 'toolu_013UYV5oDahjxnCBsypUPadA',
               why='L563: ExitPlanMode rejected by the user, then "[Request interrupted by user for tool use]" and /compact: a decision of the user, not a failure; the summary records that the plan is unapproved'),
            it('commitment', 'Verify with make cpd and make check',
               why='TaskCreate #6 completed at L312; the CPD plan (all six tasks) is done and reported; summary "First request (completed)"'),
            it('error', 'No changes to make',
               why='L93: an Edit whose old and new strings were equal; re-read and redone at L98'),
            it('error', 'toolu_01G9iGo1dguGLStb8XdK6GBk',
               why='L218: pytest failing on the provider-directory architecture test (_shared treated as a provider); fixed L225, 1729 tests pass at L266'),
            it('handle', 'a2c1241',
               why='L345 (and a725ebc L365, a9695b1 L392, a87d995 L394, a66ea76 L520, a326c49 L522): foreground Explore/Plan Task calls, results returned in the same call'),
            it('constraint', 'Suppress globally',
               why='L399: an AskUserQuestion answer choosing how to treat W0718 in the plan, not a standing rule; the summary carries it anyway'),
        ],
        'notes': "Manual /compact after the user rejected the agent's ExitPlanMode for a large plan (pylint, CPD at 5 lines, parallel CI, assert_invoke returning JSON). Nothing of the second request is implemented; the summary says so and keeps every part, the plan file and the answers. Degrade.",
    }],
})

# ---------------------------------------------------------------- lws, session b9ec1050 (eb/92d46a5ddb)
cases.append({
    'file': 'claude-code/cc-2.1.39-lws-four-prs-s3-multipart-naming-test.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.39', 'repo': LWS,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '31f268b2-321c-40fb-bfab-17657423592a',
        'trigger': 'auto', 'pre_tokens': 167362, 'verdict': 'degrade',
        'open': [
            it('commitment', 'PR 2: S3 Multipart Upload', carried=True,
               why='TaskCreate #2 (L117), in_progress at L356, not completed (recorded). Summary Pending Tasks and Current Work: PR 2 nearly complete, naming test to fix'),
            it('commitment', 'PR 3: Cognito Missing Operations', carried=True,
               why='TaskCreate #3 (L119), pending (recorded). Summary Pending Tasks lists PR 3 with its four operations'),
            it('commitment', 'PR 4: Lambda Event Source Mappings', carried=True,
               why='TaskCreate #4 (L121), pending (recorded). Summary Pending Tasks lists PR 4'),
            it('error', 'test_e2e_resource_names_have_prefix', carried=True,
               why="L496: `make check 2>&1 | tail -10` — the pipe masks the exit status (is_error false), but the output ends '1 failed, 2082 passed … make: *** [test] Error 1' with test_resource_naming failing (inferred: no error flag, the failure is in the text). Still the last word on make check. Summary Errors '(CURRENT)', Current Work and Next Step name the test, the file and the fix (key multi.bin needs the e2e- prefix)"),
            it('commitment', 'Implement the following plan', carried=True,
               why="L3: the user's only message (four PRs); summary Primary Request lists all four"),
        ],
        'losses': [],
        'not_owed': [
            it('handle', 'toolu_01MYNN8ms3h9wJ6frLcUns4i',
               why="L497: the last Bash call (pytest on test_resource_naming.py -v) has no tool_result on disk, the boundary follows at L498. The compactor had its output: the summary gives details the earlier tail did not show (key = \"multi.bin\" without the e2e- prefix, the ratchet at 7 now 8 violations), and after the boundary the agent edits that key directly (L507). The unwritten last record"),
            it('commitment', 'PR 1: DynamoDB ConditionCheck in TransactWriteItems',
               why='TaskCreate #1 completed at L354 (make check passing at L353); the summary reports PR 1 complete'),
            it('error', 'test_condition_check_with_expression_attribute_names_and_values',
               why='L166: unit test failing on the DynamoDB JSON format; fixed with _unwrap_item, all 5 pass at L223'),
            it('error', 'test_transact_write_mixed_operations',
               why='L225: an existing test broken by the now-evaluated ConditionCheck; mock updated L229, passing at L232'),
            it('error', 'Import block is un-sorted',
               why='L236: ruff on the new E2E test; fixed L238'),
            it('error', '2 files would be reformatted',
               why='L245: black; make format L246'),
            it('error', 'toolu_01R1gEnUDPnpWboobphdgoDL',
               why='L294: one-class-per-file architecture test; test consolidated (L300), make check passes at L353'),
            it('constraint', 'delivered as a **separate PR**',
               why="plan text (L3), not the user's own standing rule; no PR had been opened yet. The summary says 4-PR plan"),
            it('handle', 'ae7e469',
               why='L88: a foreground Explore Task, result in the same call'),
        ],
        'notes': 'Four-PR plan: PR 1 done, PR 2 code done and make check failing on the E2E resource-naming ratchet (hidden by `| tail`, so not an error record), PR 3-4 pending. The last call (the failing test, verbose) has no result on disk. The summary keeps all open tasks and the failure with its fix. Degrade.',
    }],
})

# ---------------------------------------------------------------- lws, session b578e9a4 (d2/5ac25fbcd1)
cases.append({
    'file': 'claude-code/cc-2.1.39-lws-e2e-fixes-s3-path-style-plan.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.39', 'repo': LWS,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'fc80f522-041b-4a0f-8482-b8275fbc06d5',
        'trigger': 'auto', 'pre_tokens': 167721, 'verdict': 'degrade',
        'open': [
            it('commitment', 'there should be an e2e test for this', carried=True,
               why="L837 (queued, delivered at L860 while the agent was in plan mode): an E2E test for the SFN → Lambda → S3 flow (stated request), not written at the boundary. Summary All User Messages, Pending Tasks, Next Step quote it"),
            it('commitment', 'getaddrinfo ENOTFOUND', carried=True,
               why="L661: the user's bug report (SFN calling a Lambda fails: getaddrinfo ENOTFOUND <bucket>.host.docker.internal) with 'why isnt this caught in testing?'; the agent diagnosed virtual-hosted-style S3 addressing (L769) and entered plan mode (L776); not fixed (stated: the user's pending problem). Summary Pending Tasks 'Fix S3 virtual-hosted-style addressing', Current Work"),
            it('identifier', 'sorted-churning-garden.md', carried=True,
               why='the plan file to be overwritten with the new plan (L781); named in Current Work'),
        ],
        'losses': [],
        'not_owed': [
            it('commitment', 'what additional architecture tests could be created',
               why='L79 (queued): architecture tests against these failures; done as TaskCreate #6, completed L622 (1732 tests pass). Reported done in the summary'),
            it('commitment', 'Run make test-e2e and make check to verify all fixes',
               why='TaskCreate #5 completed L522 (all 69 e2e tests pass L478); tasks #1-#6 all completed'),
            it('handle', 'b090e7a',
               why='background e2e run (L373) that failed (exit 2, notified L382, output read L467); superseded by the passing run bd8d4f5 (L473-L476). Every background job here (bd43f73, b7854ff, bd0e073, b1e49b5, b1b7419, bd2c662, bd8d4f5) ended and was notified before the boundary'),
            it('error', '_find_exit_after_resolve` is too complex',
               why='L554: ruff C901 in a new architecture test; refactored L559, lint clean L562'),
            it('handle', 'toolu_01BzeLmnFS737v9Syy7buQTK',
               why='L981: the last Read has no tool_result on disk, only its PostToolUse:Read hook_progress at L982: it returned (the unwritten last record)'),
            it('commitment', 'why isnt this caught in testing',
               why='L661: the question part was answered at L769 (unit tests use MockCompute, no SFN → Docker Lambda → S3 test); the fix and the test remain, listed as open above'),
        ],
        'notes': 'Plan (fix 22 E2E failures) done and verified, architecture tests added; then the user reports an S3 virtual-host DNS failure from a Docker Lambda and asks for an E2E test. The agent is in plan mode reading code at the boundary. The summary keeps both requests and the plan file. Degrade.',
    }],
})

# ---------------------------------------------------------------- lws, session b29a3983 (df/88efb3a290)
cases.append({
    'file': 'claude-code/cc-2.1.39-lws-dedup-then-janusgraph-plan.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.39', 'repo': LWS,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '05c6adbd-9048-450b-bf38-0e258dda66c3',
        'trigger': 'auto', 'pre_tokens': 168647, 'verdict': 'degrade',
        'open': [
            it('commitment', 'I want to swap neo4j for tinkerpop gremlin server', carried=True,
               why="L536: the user's new request; scoped by the AskUserQuestion answer at L654 ('full data plane but with janusgraph'). The agent is in plan mode exploring at the boundary, nothing written (stated, open). Summary Task 2 (IN PROGRESS - PLANNING) quotes both, Pending Tasks, Next Step"),
        ],
        'losses': [],
        'not_owed': [
            it('handle', 'toolu_01L8q1zv342emnd2n5FKWUEQ',
               why='L787: the last Read (ARCHITECTURE.md) has no tool_result on disk, only its PostToolUse:Read hook_progress at L788: it returned (the unwritten last record); the summary says the architecture doc was read'),
            it('commitment', 'Run full verification',
               why='TaskCreate #6 completed at L529; all six dedup tasks completed (duplicates=0). Summary "Task 1 (COMPLETED)"'),
            it('error', 'Undefined name `json`',
               why='L345: ruff F821 in glacier/routes.py after removing an import; re-added L351'),
            it('error', 'duplicates=15',
               why='L400: CPD at 15 lines; shared create helper added, duplicates=0 at L445'),
            it('error', 'Unused _socket_candidates imported',
               why="L445/L477: make check stops at two pylint warnings the agent showed to be pre-existing by stashing (L450) and popping (L457) its change; it moved on (tests pass L529) and reported them. The summary reports them as pre-existing; no open item of the run's work"),
            it('commitment', 'Implement the following plan',
               why='L40: the dedup plan, completed and verified before the new request (L536)'),
        ],
        'notes': 'Dedup plan completed (444 → 0 duplicate lines); then the user asks to swap Neo4j for a Gremlin server, answers "full data plane but with janusgraph", and the agent explores in plan mode until the auto-compaction. The summary keeps the request, the scope answer, the plan file and the next step. Degrade.',
    }],
})

# ---------------------------------------------------------------- lws, session 7ba27336 (e9/bbaee42e10)
cases.append({
    'file': 'claude-code/cc-2.1.39-lws-lambda-registry-s3-vhost-bg-tests-dropped.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.39', 'repo': LWS,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'e01f166e-dc86-4b52-9f2c-57e345f62ef3',
        'trigger': 'auto', 'pre_tokens': 171781, 'verdict': 'violate',
        'open': [
            it('handle', 'bfbb39c', carried=False,
               why="L347/L648: `uv run pytest tests/unit/ tests/integration/ -x -q` moved to the background as bfbb39c (result L648: 'Command running in background with ID: bfbb39c'); the agent's TaskOutput on it was rejected by the user's interrupt (L651) and nothing since read it, killed it or reported it done — no task-notification before the boundary (nor after it). A background job started and never seen finished: recorded"),
            it('handle', 'b452959', carried=False,
               why="L720/L1019: the same pytest run again in the background as b452959; TaskOutput at L1020 returned <retrieval_status>timeout</retrieval_status> (L1022), the output file was empty (L1024), and the agent ran targeted tests in the foreground instead (L1025-L1027) and closed task #7. Never notified, read to completion or killed: recorded"),
            it('commitment', 'are you sure an IP address as the S3 endpoint instead would work', carried=True,
               why="L1252, the user's last message: a question the agent was answering (reading the SDK's endpoint ruleset, L1256-L1264) when the compaction hit (the user's pending request, stated). Summary Current Work and Next Step quote it"),
            it('commitment', 'I have to make the change in this tooling', carried=True,
               why="L1040: the fix for virtual-hosted S3 must live in LWS, not in users' Lambda code (a lasting requirement on the open fix; inferred as a rule, stated as a request). Summary quotes it in three sections"),
            it('commitment', 'still doesnt work', carried=True,
               why="L1197: the S3 virtual-hosted-style failure (first reported L654: getaddrinfo ENOTFOUND …host.docker.internal) is still not fixed for the user (stated, open). Summary Pending Tasks 'Confirm the S3 virtual-hosted-style fix actually works for the user (user reported \"still doesnt work\" …)'"),
        ],
        'losses': [
            it('handle', 'bfbb39c', status='intent_only',
               why="the summary never names bfbb39c (nor any background job); the closest it comes is Pending Tasks 'Run make check (full test suite) — was attempted but interrupted; unit/integration tests for changed files pass (45 tests)', the intent without the id. After the boundary the agent cannot read or stop the job"),
            it('handle', 'b452959', status='dropped',
               why="not named in the summary, and nothing in it says a test run is still going in the background (it reports the targeted tests as passing and the plan as fully completed)"),
        ],
        'not_owed': [
            it('error', 'toolu_01W9u3YL8sP9gNfe3Fpp4kcE',
               why="L651: TaskOutput rejected because the user interrupted to report a new error (L654); not a failure of the work (the job it waited on is the open handle above)"),
            it('commitment', 'Run verification tests',
               why='TaskCreate #7 completed at L1033 (tasks #1-#7 all completed); the summary says the plan is fully completed (true by the task records)'),
            it('commitment', 'why cant the CDK code use the lws to create / configure the resources',
               why='L61: a question, answered before the user said "continue" (L68)'),
            it('commitment', 'how does localstack of minio handle this',
               why='L1229 (and L1222, L1236, L1244): questions answered in turn before the last one (L1252)'),
            it('handle', 'a8340a3',
               why='L716: a foreground Explore Task (and a2cd4c1 at L100); results came back in the same call'),
        ],
        'notes': "Plan (unify Lambda via LambdaRegistry) completed; then a long exchange on S3 virtual-hosted addressing from Docker Lambdas, still unsolved, with the user questioning the latest idea. Two background full-suite pytest runs were started and never seen finished (one's TaskOutput was interrupted by the user, the other's timed out and was replaced by a foreground run). The summary keeps every user request and question but names neither job: two recorded handles lost. Violate.",
    }],
})

# ================================================================ BigDanTheOne/docalign
DA = 'BigDanTheOne/docalign'

# ---------------------------------------------------------------- docalign, session 7cb54db1 (46/e41fe26d1b)
cases.append({
    'file': 'claude-code/cc-2.1.42-docalign-competitor-gap-research.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.42', 'repo': DA,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '5695a441-2ad7-458f-a50b-29dc00b19af8',
        'trigger': 'auto', 'pre_tokens': 178175, 'verdict': 'degrade',
        'open': [],
        'losses': [],
        'not_owed': [
            it('commitment', 'Update the gap analysis file only',
               why="L160: the user's AskUserQuestion answer (write the 30-gap inventory to the file, no implementation planning); done by the Write at L164. The summary: no pending tasks, 'Update the gap analysis file only' done"),
            it('handle', 'toolu_015aY9S8tJEskEs5rdHnAKCA',
               why='L164: the last Write (deterministic-gap-analysis.md v2) has no tool_result on disk, only its PostToolUse:Write hook_progress at L165, one line before the boundary: it returned (the unwritten last record); after the boundary the agent reports the file written'),
            it('handle', 'a041d30',
               why='async research agents a041d30, ad62e91, abfebd4, aa8c3e7, a99c5fd (L39-L55) and aed77d3, a5c6edc, a61db64, a7c619e (L105-L144): every one notified completed before the boundary (L60-L155)'),
            it('constraint', 'I want us to focus on deterministic stuff, not semantics',
               why='L98: the focus of the analysis the user asks for now (one-off), not a standing rule; the analysis was delivered. The summary carries it anyway'),
            it('commitment', 'You sure that this is a complete list of gaps',
               why='L133: a challenge answered by the second research round and the 30-gap answer (L158)'),
            it('error', 'File does not exist',
               why='L9/L25: Reads of guessed paths (read-only exploration); the right path was found (L26-L28)'),
            it('error', 'exceeds maximum allowed tokens',
               why="L82: a Read of an agent's output file too large to read at once; the agent waited for the notification instead (read-only)"),
        ],
        'notes': 'Competitor research with nine async agents (all finished), a 12-gap then 30-gap analysis, and the user choosing to update the analysis file only; the Write is done at the boundary (its result not on disk, PostToolUse logged). Nothing owed; the summary says so. Degrade.',
    }],
})

# ---------------------------------------------------------------- docalign, session d2807ac8 (eb/abd2067fbf)
DONT_LAUNCH = ("L290: 'Okay it took like an hour. There's definitely something wrong with the script or with something else. "
               "Don't launch it anymore; you get blocked and get stopped with no visible result. Try to investigate why this happens.' "
               "A standing rule (imperative 'Don't', lasting 'anymore'): do not run the extract script again. Never revoked: later the user "
               "returns to the slow extraction (L749) and concludes the extract CLI should not be needed (L756), which agrees with it")
cases.append({
    'file': 'claude-code/cc-2.1.45-docalign-dogfood-install-hooks-rule-dropped.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.45', 'repo': DA,
    'compactions': [
        {
            'ordinal': 1, 'boundary_hint': 'e71acf07-cd45-4155-ac09-dadc08658800',
            'trigger': 'manual', 'pre_tokens': 68509, 'verdict': 'degrade',
            'open': [],
            'losses': [],
            'not_owed': [
                it('commitment', 'remove all traces of DecAlign',
                   why='L8 (clarified L14, L46, L76, L97): remove DocAlign tags, .docalign.yml and frontmatter from README.md and docs/**; all done by L114 (frontmatter stripped from 19 files, verified). The summary: no pending tasks'),
                it('constraint', 'tasks/* are out of scope',
                   why='L46: the scope of the request being carried out now (README + docs/* only), not a lasting rule; the request is done. The summary keeps the final scope anyway'),
                it('constraint', 'No need ti remove References to DocAlign in READMEs',
                   why='L14: a scope permission for the same one-off request ("no need"), not a rule; carried anyway'),
                it('constraint', 'You must remove things like',
                   why="L14: 'must' introduces the list of things the one-off request removes; done, not a standing rule"),
                it('error', 'unexpected character after line continuation character',
                   why='L106: python3 -c with a shell-escaped !=; rerun as a heredoc at L107, succeeded (19 files cleaned)'),
                it('commitment', 'are you here?',
                   why='L3: a greeting'),
            ],
            'notes': 'Manual /compact after a finished cleanup (DocAlign annotations removed from its own docs, scope refined by the user four times). Nothing open. Degrade.',
        },
        {
            'ordinal': 2, 'boundary_hint': '511d6c6f-f487-4a34-9f8f-d64bf556d69f',
            'trigger': 'auto', 'pre_tokens': 168128, 'verdict': 'degrade',
            'open': [
                it('commitment', "let's just push changes that we made in this repo", carried=True,
                   why='L563: the last request; README.md and docs/** staged (L575) but not committed or pushed at the boundary (stated). Summary Pending Tasks "Commit and push the staged changes", Current Work, Next Step with the commit command'),
                it('constraint', "Don't launch it anymore", carried=True,
                   why=DONT_LAUNCH + ". Summary All user messages quotes it verbatim"),
            ],
            'losses': [],
            'not_owed': [
                it('commitment', 'pls write it as a self-contained markdown report',
                   why='L538: done (dogfood-report.md written L540-L543)'),
                it('commitment', 'I want you personally to go through the claims',
                   why='L166: done (the agent reviewed the findings, L421-L537, and wrote the report)'),
                it('commitment', "Let's brainstorm how we can potentially speed up this",
                   why='L556: answered at L558; the user then defers it ("We\'ll try to think on it", L563)'),
                it('commitment', 'run extraction for each of the files one by one',
                   why='L235/L240: the approach for that run; done in four batches (bdb2f1b, bad7bd2, bc5d96c, bf5399b), not a standing rule'),
                it('handle', 'bcf6530',
                   why='background extract batch stopped (killed notice L276/L279); the others (b84d73f, b5c3638, bdb2f1b, bad7bd2, bc5d96c, bf5399b) completed or failed with notices before the boundary'),
                it('error', 'Unknown command: extract',
                   why='L177: the stale global binary; built from source (L188) and used dist/cli/main.js'),
                it('error', 'toolu_0153v88UWn6YQBsjGSnbKYBr',
                   why="L205: batch extract exit 1 (two processes colliding); the user redirected to one-by-one extraction, which finished"),
                it('error', 'healthPercent',
                   why="L287/L416: `docalign scan --json` exits 1 whenever drift is found (the product's own contract, the summary notes it); its JSON was read and analysed, not a failure of the work"),
                it('error', 'Non-UTF-8 code starting with',
                   why='L423: a python heredoc without encoding; rerun with the file saved first (L424-L427), succeeded'),
                it('error', 'toolu_01EDAsyEJcfD5tLisvR2N2vx',
                   why='L277: tool use rejected by the user (who then reported the hour-long run); not a failure to carry'),
            ],
            'notes': "Dogfooding DocAlign on its own docs: slow extraction, the user's rule not to launch the extract script again, a report written, then 'push the changes' with files staged at the boundary. The summary keeps the push and quotes the rule. Degrade.",
        },
        {
            'ordinal': 3, 'boundary_hint': 'ec2eb7cb-4e63-4dc8-9fb4-59cfdff6f4d3',
            'trigger': 'auto', 'pre_tokens': 167026, 'verdict': 'violate',
            'open': [
                it('constraint', "Don't launch it anymore", carried=False,
                   why=DONT_LAUNCH + ". Still in force at this boundary"),
                it('constraint', 'You must fix the script, not do an ad hoc', carried=True,
                   why="L998 (and 'not ad hoc!' queued L1034): fix the install script / init.ts, never patch the user's settings file by hand — a lasting rule about how to fix (stated). Summary Primary Request, Errors, All user messages and Next Step quote both"),
                it('commitment', 'Let me fix `init.ts` properly', carried=True,
                   why='L1040: init.ts and install.sh edited (L1035-L1046), typecheck passes (L1049), not committed or pushed (stated). Summary Pending Tasks: commit init.ts and install.sh, verify the install flow'),
            ],
            'losses': [
                it('constraint', "Don't launch it anymore", status='dropped',
                   why="summary 2 quoted the rule; summary 3 (written from summary 2 and the span after it) no longer has it: its All user messages list jumps from the prior-session cleanup messages to 'yes', and nothing in it says not to run the extract script (it calls `docalign extract` a 'full rebuild' escape hatch only). A rule lost in the second summary of a chain"),
            ],
            'not_owed': [
                it('commitment', 'pls remove _team/, push, merge us to main',
                   why='L716: done (L739-L741: pushed, merged, pushed main; foreground call, its queue entry b8014cb is not a background job)'),
                it('commitment', 'rewrite the readme',
                   why='L785: done and later corrected to the install-script flow (L817-L850)'),
                it('commitment', 'you sure that that us all?',
                   why='L888: a question, answered by the investigation of unmerged worktree files'),
                it('error', 'File has been modified since read',
                   why='L1024: a Write refused because the file changed; re-read and edited at L1027-L1032'),
                it('error', 'File does not exist',
                   why='L791/L796: Reads of guessed paths (read-only)'),
                it('commitment', "let's just push changes that we made in this repo",
                   why='L563, owed at compaction 2: committed and pushed right after it (L586 onward); closed here'),
            ],
            'notes': "After the push: PR #19 review, _team/ removal, README rewrite, then a Claude Code hooks-format bug in the installer, fixed twice by hand until the user says 'You must fix the script, not do an ad hoc' / 'not ad hoc!'. The summary keeps that rule and the pending commit, but drops the user's earlier rule not to launch the extract script again, which summary 2 had quoted. Violate (one stated constraint dropped).",
        },
    ],
})

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'labels-claude-code.json')
with open(out, 'w', encoding='utf-8') as f:
    json.dump({'cases': cases}, f, ensure_ascii=False, indent=1)
    f.write('\n')
print(out, len(cases), 'cases', sum(len(c['compactions']) for c in cases), 'compactions')
