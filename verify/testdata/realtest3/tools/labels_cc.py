#!/usr/bin/env python3
"""Writes ../labels-claude-code.json: the hand labels of the realtest3 Claude Code split.

Labelled blind, by reading each source (tools/cc_dump.py, tools/view.sh, tools/tasks.py,
tools/asyncs.py) and its summary, following /work/shared/DESIGN.md. loupe was not built or
run on these files and its rule code was not read. Line numbers (Lnnn) are 1-based lines of
the raw (and redacted) file. Run: python3 tools/labels_cc.py (from realtest3/).
"""
import json, os

A = 'dspurkayastha/Apollo'
R = 'RecoveryLM/recoverylm'
M = 'roo-oliv/monodreams'


def it(kind, contains, why, **kw):
    d = {'kind': kind, 'contains': contains}
    d.update(kw)
    d['why'] = why
    return d


cases = []

# ---------------------------------------------------------------- RecoveryLM
cases.append({
    'file': 'claude-code/cc-2.1.50-recoverylm-memory-feature-crypto-bug.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.50', 'repo': R,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'ea290af5-ba0f-4e58-bf12-711188d1eb5c',
        'trigger': 'auto', 'pre_tokens': 171935, 'verdict': 'degrade',
        'open': [
            it('commitment', 'Find the bug', carried=True,
               why="L516: the user's request ('This is broken regardless. Find the bug.') about the crypto OperationError at onboarding; the agent had only read files when the compaction hit. Summary: Pending Tasks 'ACTIVE BUG: Find and fix the crypto OperationError', Current Work and Next Step quote it"),
            it('identifier', 'feat/12-remi-memory', carried=True,
               why='L323: the work branch created for issue #12 (memory feature), still checked out; the summary names it in sections 5 and 9 of the analysis and in Problem Solving'),
        ],
        'losses': [],
        'not_owed': [
            it('error', "error TS2322",
               why="L379: typecheck exit 2 after tasks 1-2 ('Type JournalEntry[] is not assignable to type MemoryItem[]'), expected and fixed by task 3; clean typecheck at L420"),
            it('error', 'No task found with ID',
               why='L59-L67: TaskOutput on async agents failed (no task found / sibling errored); the three agents all notified completed (L53, L54, L62, re-delivered L102-L120)'),
            it('error', 'exceeds maximum allowed size',
               why="L70: Read of an agent output file too large; the agent went on with tail/grep (L75, L77) and got the results"),
            it('error', "The user doesn't want to proceed with this tool use",
               why='L99/L100 and L463: tool calls the user rejected (python one-liners, starting the dev server); the user then redirected. A rejection is not a failure still owed'),
            it('handle', 'ad7949a5ef73b99a4',
               why='async agent launched L18, completion notified (L62, L120); likewise ab4f7cb1c16bfcf0c and a51a59a8d7e93af9f'),
            it('handle', 'a1ee2e8fb93fbf01d',
               why='implementer agents of tasks 1-4 (a1ee2e8fb93fbf01d, aa09bbf5dce07b223, a1df93af45f522f80, ae57d00f06f52626a): foreground Task calls whose results came back (L365, L375, L413, L417); the queue enqueues only repeat their ids'),
            it('commitment', 'Want me to commit this on the current branch',
               why='L496: a question to the user about where to commit the CSS fix, never answered (the user reported a new bug instead). The summary notes the fix is uncommitted; not a promise'),
            it('commitment', 'Want me to open a PR',
               why='L450: an offer/question to the user; the user chose to test instead'),
            it('constraint', 'we need to double that at least',
               why="L270: a one-off request about the feature being built (raise the memory token budget), done (2400 tokens in the plan and code); not a standing rule"),
            it('constraint', 'What are you doing executing python?',
               why='L114: a question, not a rule'),
        ],
        'notes': 'Product review, 12 GitHub issues, then the memory feature (#12) on feat/12-remi-memory with five TaskCreate tasks (all completed), a landing-page CSS fix (uncommitted) and finally a crypto bug the user asks to find. The summary carries the active bug, the uncommitted fix, the branch and the issue numbers. Degrade.',
    }],
})

# ---------------------------------------------------------------- Apollo
cases.append({
    'file': 'claude-code/cc-2.1.42-apollo-phase1-safety-phase2-plan.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.42', 'repo': A,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '79218f55-2277-40a5-a4cd-e29f1804fa0a',
        'trigger': 'auto', 'pre_tokens': 183361, 'verdict': 'degrade',
        'open': [
            it('commitment', 'now lets move on to Phase 2', carried=True,
               why='L434: the user asks for Phase 2; the agent entered plan mode (L438) and has not written or presented the plan. Summary: Pending Tasks "Phase 2: Infrastructure Foundation — needs to be planned", Current Work "in plan mode", Next Step'),
            it('constraint', 'you need to align yourself to the Review.md', carried=True,
               why="L567: after rejecting the AskUserQuestion the user tells the agent to follow the docs (Review.md, Decisions.md, Mitigation_plan.md) for Phase 2 instead of re-asking scope; the summary quotes it twice (Current Work, Next Step). Basis inferred at most (a directive for the task at hand, no 'always/never')"),
        ],
        'losses': [],
        'not_owed': [
            it('error', "The user doesn't want to proceed with this tool use",
               why='L561: AskUserQuestion answered by the user with a redirection; not a failure'),
            it('error', "Cannot assign to 'NODE_ENV'",
               why="L165: TypeScript error (TS2540) in the new tests, fixed with vi.stubEnv; 352 tests and tsc clean at L189"),
            it('commitment', 'now commit this and push to remote',
               why='L330: done; commit b852cec pushed (L408, L428)'),
            it('commitment', "I'll commit everything together",
               why='L338: narration of the commit the same turn made (L357-L408)'),
            it('identifier', 'isWebhookStale',
               why='Step 6 staleness guard, reverted at the user\'s request (L275, L296ff.); closed. The summary correctly reports it reverted and says item 2.7 should be skipped'),
            it('identifier', 'sanitiseMetadataForAI',
               why='PII sanitiser removed after the user\'s objection (L219-L233); closed'),
            it('handle', 'a51ad25',
               why='foreground Explore agents a51ad25 and a7bf54e; results at L556 and L558'),
        ],
        'notes': 'Phase 1 of a mitigation plan implemented, audited with the user (two steps reverted), committed and pushed; then Phase 2 started in plan mode, an AskUserQuestion rejected with the instruction to follow the docs, and the Read of Mitigation_plan.md at the boundary (result at L571). The summary carries the Phase 2 request, plan mode, the plan-file name and the instruction. Degrade.',
    }],
})

cases.append({
    'file': 'claude-code/cc-2.1.45-apollo-docker-hardening-audit.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.45', 'repo': A,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'e920e963-b8e0-4ffd-b8b3-e48cb44bb64c',
        'trigger': 'auto', 'pre_tokens': 172250, 'verdict': 'degrade',
        'open': [
            it('commitment', 'check all the changes made in phase 10', carried=True,
               why="L245: the user asks for an audit of the Phase 10 changes against /docs; the agent was still reading the documents, no finding delivered. Summary: Pending Tasks 'ACTIVE: Complete the cross-reference audit', Current Work, Next Step quote it"),
        ],
        'losses': [],
        'not_owed': [
            it('handle', 'toolu_019Q2oUSqxXiFjurVnX5JCqY',
               why='L273: the last Read (Mitigation_implementation.md with an offset) has no tool_result on disk, only its PostToolUse hook progress (L274, the boundary\'s logicalParent): the result line was never written. The summary reports the file read through Phase 8; not in flight'),
            it('error', 'exceeds maximum allowed tokens',
               why='L269: Read of Mitigation_implementation.md too large, retried with offset/limit at L270 (success L272)'),
            it('error', 'No package.json (or package.yaml',
               why='L141: pnpm test from the repo root failed; rerun from apps/web passed (L143, 324 tests)'),
            it('commitment', 'Create seccomp-latex.json profile',
               why='TaskCreate #1-#9 all completed (L46-L120)'),
            it('handle', 'a8ada85',
               why='foreground Task agents a8ada85 and a538b95, results at L237 and L258'),
            it('commitment', 'I am not really docker savvy',
               why='L152: the user\'s questions, answered at L240'),
        ],
        'notes': 'Phase 10 (Docker hardening) implemented with nine tasks, all completed; the user asks questions (answered) then an audit against the governance docs, interrupted mid-reading by the auto compaction. Degrade.',
    }],
})

cases.append({
    'file': 'claude-code/cc-2.1.45-apollo-qa-checkpoints-audit.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.45', 'repo': A,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '3e3e8957-e7ae-49fc-872d-a10694ecb072',
        'trigger': 'auto', 'pre_tokens': 167160, 'verdict': 'degrade',
        'open': [
            it('commitment', 'now audit the changes made, find any and all errors. Fix them.', carried=True,
               why='L230: the audit request; every changed file read, nothing reported or fixed yet. Summary Pending Tasks and Next Step quote it and list the fixes to make'),
        ],
        'losses': [],
        'not_owed': [
            it('handle', 'toolu_01NxARDAQ8bEPG6D2kQgpbwx',
               why='L256: the last Read (project-workspace.tsx) has no tool_result on disk, only the hook progress line (L257): unwritten last record; the summary says all files were read'),
            it('commitment', 'Verify TypeScript compilation',
               why='TaskCreate #1-#9 all completed (#9 at L223 after a clean tsc at L218)'),
        ],
        'notes': 'BibTeX fix + four QA checkpoints implemented from a plan (nine tasks, all completed), then an audit request. The summary lists the issues the agent had noticed while reading (not yet told to the user) as fixes to make. Degrade.',
    }],
})

cases.append({
    'file': 'claude-code/cc-2.1.45-apollo-ci-fix-lint-warnings.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.45', 'repo': A,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '328d421c-0fc7-46b8-a694-7aa8cd6a247c',
        'trigger': 'auto', 'pre_tokens': 170217, 'verdict': 'degrade',
        'open': [
            it('commitment', "'bgError' is assigned a value but never used", carried=True,
               why="L584: the user's last message pastes five lint warnings (no words of its own: the request to fix them is implied, basis inferred). Summary Pending Tasks lists all five with files and lines; Next Step: fix, commit, push, verify CI"),
        ],
        'losses': [],
        'not_owed': [
            it('error', "has already completed with 'failure'",
               why='L216: first CI run failed (ERR_PNPM_NO_LOCKFILE); lockfile and pnpm version fixed, later runs pass'),
            it('error', 'X Unit Tests',
               why='L374: CI watch exit 1 on a pre-existing unit test failure (assemble.test.ts:711); the user said yes to fixing it (L391), regex fixed, 329 tests pass, CI run 22232627342 passed all 4 jobs (L578)'),
            it('error', 'did not match any files',
               why='L450: git add with a doubled path (exit 128), rerun from the repo root at L451 (commit 018dbd7)'),
            it('error', 'File does not exist',
               why='L415: read-only exploration of a missing path'),
            it('commitment', 'commit , push and watch the CI',
               why='L187: done (push, CI watched, failures fixed, final CI green at L578)'),
            it('constraint', 'I dont use coolify, its a hetner vps',
               why='L254 (queued message): a fact about the deployment, not a rule'),
            it('handle', 'b448d0f',
               why="'local_bash' queue enqueues (b4a425d, b7cfef8, b065908, bd4f1de, b5c470e, b7cb221, b6dbdb0, b448d0f) belong to foreground Bash calls whose results came back (e.g. gh run watch at L460, result L578)"),
            it('commitment', 'Fix word count to exclude BibTeX trailer',
               why='the single TaskCreate (#1) completed at L170'),
        ],
        'notes': 'Six post-deploy fixes, then CI repair (lockfile, pnpm version, a pre-existing test regression), all green; the compaction hits on the user pasting lint warnings. The summary text is oddly ordered (a stray </summary> before the file list) but complete. Degrade.',
    }],
})

cases.append({
    'file': 'claude-code/cc-2.1.45-apollo-phase11-cleanup-async-lint.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.45', 'repo': A,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'ce006b3e-e207-4267-8371-d96d1bdba2d3',
        'trigger': 'auto', 'pre_tokens': 167310, 'verdict': 'degrade',
        'open': [
            it('commitment', 'check all the changes made in phase 11', carried=True,
               why='L435: the audit request is the last record before the boundary (auto compaction on the user prompt); nothing done yet. Summary Pending Tasks and Next Step quote it'),
        ],
        'losses': [],
        'not_owed': [
            it('handle', 'a09d6fe',
               why='async lint agents a09d6fe, a189a84, a5f245f launched L34-L46; each notified completed (L84/L93/L121, re-delivered L422-L430)'),
            it('error', 'File has been modified since read',
               why='L96: Edit refused because an agent changed the file; re-read and edited'),
            it('error', "Cannot find module 'jose'",
               why='TS2307 in rls.test.ts, replaced by node:crypto HMAC; tsc clean and 329 tests later'),
            it('commitment', 'A1: Fix 19 lint warnings across 18 files',
               why='TaskCreate #1-#10 all completed (#10 at L416)'),
        ],
        'notes': 'Phase 11 cleanup with three async lint agents and ten tasks, all completed and verified; the auto compaction fires on the next user prompt (an audit request). Degrade.',
    }],
})

cases.append({
    'file': 'claude-code/cc-2.1.45-apollo-phase6-analysis-plan-audit-2x.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.45', 'repo': A,
    'compactions': [
        {'ordinal': 1, 'boundary_hint': '85a3bd74-6d07-4080-9775-8390db1000eb',
         'trigger': 'auto', 'pre_tokens': 173616, 'verdict': 'degrade',
         'open': [
             it('commitment', 'check all the changes made in phase 6', carried=True,
                why='L420: the audit request; governance docs read, no finding delivered. Summary Pending Tasks ("NOT complete"), the issues noticed so far, Next Step quoting the request'),
         ],
         'losses': [],
         'not_owed': [
             it('handle', 'toolu_01KgaqkbDAiZuBVo7kmrjwBc',
                why='L452: the last Read (Mitigation_implementation.md) has no tool_result on disk: unwritten last record; the summary says the file was read'),
             it('error', 'File has not been read yet',
                why='L181: Write refused on an existing file (dataset download route); the file already did the job, the agent moved on'),
             it('error', 'TS2451',
                why='variable name clash fixed (renamed planCheckAnalyses); tsc clean later'),
             it('commitment', 'Step 1: Database migration + type updates',
                why='TaskCreate #1-#6 all completed (#6 at L402)'),
             it('handle', 'a1ef2b8',
                why='foreground agents a0e9eb5, a9a2270, a1ef2b8, results at L67, L389, L441'),
         ],
         'notes': 'Phase 6 implemented (six tasks completed), then an audit request; the auto compaction hits while reading the docs. Degrade.'},
        {'ordinal': 2, 'boundary_hint': '90fc7058-2d28-4d9a-8613-8ae88f44abd8',
         'trigger': 'auto', 'pre_tokens': 168986, 'verdict': 'degrade',
         'open': [],
         'losses': [],
         'not_owed': [
             it('commitment', 'check all the changes made in phase 6',
                why='the audit request is done: findings turned into tasks #7-#12, all completed (L595-L718), tsc clean, 314 tests, summary delivered at L731'),
             it('commitment', 'Fix table count in Phase 6 QC gates',
                why='TaskCreate #7-#12 created at L576-L586, all completed by L718'),
             it('handle', 'a416874',
                why='async agent launched L464, notified L502 and read with TaskOutput (success, L506)'),
             it('error', 'ERR_PNPM_NO_IMPORTER_MANIFEST_FOUND',
                why='L692: pnpm test from the repo root; rerun from apps/web passed (L694)'),
         ],
         'notes': 'Between the two compactions the audit is finished: six findings fixed as tasks #7-#12, documented in Mitigation_implementation.md and MEMORY.md. Nothing is open at the second boundary; the summary says so and lists Phase 7 only as a possible next phase not to start unasked. Degrade.'},
    ],
})

cases.append({
    'file': 'claude-code/cc-2.1.45-apollo-codemirror-manual-then-auto-2x.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.44 → 2.1.45', 'repo': A,
    'compactions': [
        {'ordinal': 1, 'boundary_hint': '09cdfd66-52fe-4fe5-86b9-6dec89b9ccd1',
         'trigger': 'manual', 'pre_tokens': 150621, 'verdict': 'degrade',
         'open': [
             it('commitment', 'check all changes made for proper logical correctness', carried=True,
                why='L418: alignment/correctness review of Phase 4; docs read, nothing reported (the API then answered "Prompt is too long"). Summary Pending Tasks: SECONDARY'),
             it('commitment', 'fill up mitigation implementation file with phase 4 completiion report', carried=True,
                why='L469: sent after a failed /compact; summary Pending Tasks PRIMARY, Next Step quotes it'),
         ],
         'losses': [],
         'not_owed': [
             it('error', 'Error during compaction',
                why="L467: the user's first /compact failed ('Conversation too long'); a local command's stderr, not a tool failure; the second /compact succeeded (this boundary)"),
             it('error', 'Prompt is too long',
                why='L462, L470: API refusals shown as assistant text; what they blocked is the two requests above'),
             it('error', 'File has not been read yet',
                why='L394: Edit refused, re-read and applied'),
             it('commitment', 'Phase 4: Editor Migration (CodeMirror 6)',
                why='the single TaskCreate, completed at L411'),
             it('handle', 'af90b03',
                why='foreground Explore agent, result at L446'),
         ],
         'notes': 'Manual /compact after "Prompt is too long" and a failed first /compact. Phase 4 (CodeMirror editor migration) done; two user requests open, both carried. Degrade.'},
        {'ordinal': 2, 'boundary_hint': 'd5af5c93-d09a-4965-b6b3-d41ef4267bb5',
         'trigger': 'auto', 'pre_tokens': 167461, 'verdict': 'degrade',
         'open': [
             it('commitment', 'Then populate the Mitigation_implementation.md with phase 4 completion report', carried=True,
                why='L482: the user restates both earlier requests (review + debug, then the completion report); review done, bugs being fixed, report not written. Summary Pending Tasks and Next Step'),
             it('commitment', 'Let me fix them now', carried=True,
                why='L567: three CSS bugs and two stale comments to fix; only editor-styles.css written (not imported). Summary Errors and Pending Tasks list each with NOT YET IMPORTED / Needs update'),
         ],
         'losses': [],
         'not_owed': [
             it('handle', 'toolu_017FUHkykoPzkrCPRkzNFiKX',
                why='L580: the Write of editor-styles.css has no tool_result on disk (hook progress only): unwritten last record; the summary reports the file created'),
             it('handle', 'a4e01ef',
                why='async agent launched L490, notified L534 and read with TaskOutput (success, L535)'),
             it('commitment', 'fill up mitigation implementation file with phase 4 completiion report',
                why='L469 (before the first compaction): restated by the L482 request, which the summary carries'),
         ],
         'notes': 'After the manual compaction the user restates the work in one message; the agent reviews, finds CSS bugs and starts fixing. Degrade.'},
    ],
})

# ---------------------------------------------------------------- monodreams
PRES = ' (2.1.150+ partial compaction: compactMetadata.preservedSegment keeps the last messages verbatim after the summary)'
cases.append({
    'file': 'claude-code/cc-2.1.177-monodreams-physics-grid-broadphase-manual.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.177', 'repo': M,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'c146cd5f-05c0-4780-8fdb-3bf62823a4d5',
        'trigger': 'manual', 'pre_tokens': 243121, 'verdict': 'degrade',
        'open': [],
        'losses': [],
        'not_owed': [
            it('constraint', "don't implement anything",
               why="L225: a conditional inside a one-off question ('if there are only speculative ... optimizations, don't implement anything'); the user then chose the grid broadphase (AskUserQuestion) and it was implemented. Not a standing rule"),
            it('commitment', 'Make the balls half their current sizes',
               why='L10: the six demo changes, all done and verified before the optimization question'),
            it('commitment', "let me know if you'd like me to commit",
               why='an offer to the user; the user never asked to commit (the summary says so)'),
            it('error', 'CS8126',
               why='reserved tuple element name, renamed; builds clean later (L335)'),
            it('commitment', 'git stash push',
               why='L313: the benchmark stashed the new detection file; popped at L318 and the demo file restored'),
            it('identifier', '.worktrees/feat/packages',
               why="the session's own cwd (every record's cwd and gitBranch feat/packages); the runtime restates the cwd, and the preserved messages (L336-L341) name it. Not owed by the summary text"),
        ],
        'notes': 'Manual /compact after all work was done (six demo tweaks, then a grid broadphase with a benchmark). Nothing open. The summary says nothing is pending.' + PRES,
    }],
})

cases.append({
    'file': 'claude-code/cc-2.1.177-monodreams-meshes-verify-manual.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.177', 'repo': M,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'b25a22b2-7572-4d7c-8639-b3097726bfd8',
        'trigger': 'manual', 'pre_tokens': 478481, 'verdict': 'degrade',
        'open': [
            it('commitment', 'Verify: build, headless demos, tests', carried=True,
               why='TaskCreate #8 in_progress since L854 (recorded); summary Current Work "on Task #8 (Verify)" and Pending Tasks (view dialogue screenshot, run dotnet test)'),
            it('commitment', 'Let me check physics and dialogue', carried=True,
               why='L875: physics screenshot read (L877), dialogue not yet; then an API error 500 ended the turn. Summary: "dialogue not yet viewed", Next Step names the dialogue screenshot'),
        ],
        'losses': [],
        'not_owed': [
            it('error', 'File has been modified since read',
               why='L303, L320: Edits refused after the agent\'s own sed rename; re-read and applied'),
            it('error', 'API Error: 500',
               why='L883: an API error shown as assistant text (preserved L883-L884); not a tool failure'),
            it('handle', 'br194xw7g',
               why='background Bash launched L201, notified completed L202'),
            it('commitment', 'A: Add mesh primitives to rendering',
               why='TaskCreate #1-#7 completed'),
            it('identifier', '.worktrees/feat/packages',
               why="the session's cwd; restated by the runtime"),
        ],
        'notes': 'Replacing Sprout Lands sprites with generated meshes (plan mode, eight tasks); the manual /compact comes during the verification task after an API 500. Degrade.' + PRES,
    }],
})

cases.append({
    'file': 'claude-code/cc-2.1.183-monodreams-speech-balloon-manual.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.177 → 2.1.183', 'repo': M,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'ac7c4f78-8b89-4946-b345-6f9dda9706d2',
        'trigger': 'manual', 'pre_tokens': 231468, 'verdict': 'degrade',
        'open': [],
        'losses': [],
        'not_owed': [
            it('commitment', "Say the word and I'll add it",
               why="the agent's last message offers an auto-flip balloon feature on the user's go-ahead; a conditional offer whose condition has not happened (the summary keeps it as an offer awaiting the user)"),
            it('commitment', 'second NPC on the top right corner',
               why='L10: the request, done and verified (four tasks completed, build and 32 tests green)'),
            it('error', 'no matches found: --include=*.cs',
               why='L57: a read-only grep exploration failing on zsh globbing'),
            it('error', 'CS1736',
               why='self-inflicted replace_all mistake, fixed; full build green later'),
        ],
        'notes': 'Speech-balloon NPC for the dialogue demo; all work complete before the manual /compact. The preserved-message uuid in compactMetadata is not in the file.' + PRES,
    }],
})

cases.append({
    'file': 'claude-code/cc-2.1.150-monodreams-packages-resurrected-task.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.150', 'repo': M,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'c58a3030-6e23-4349-94c2-164565f6f708',
        'trigger': 'manual', 'pre_tokens': 361748, 'verdict': 'violate',
        'open': [
            it('commitment', 'Design block.json manifest schema', carried=True,
               why='TaskCreate #6 in_progress since L669 (recorded); summary Pending Tasks #6 and Next Step'),
            it('commitment', 'Author all 15 block.json manifests', carried=True,
               why='TaskCreate #7 pending (recorded); summary Pending Tasks #7'),
            it('commitment', 'Scaffold MonoDreams.Cli dotnet global tool project', carried=True,
               why='TaskCreate #8 pending; summary Pending Tasks #8'),
            it('commitment', 'Implement `monodreams init`', carried=True,
               why='TaskCreate #9 pending; summary Pending Tasks #9'),
            it('commitment', 'Implement `monodreams add <block>`', carried=True,
               why='TaskCreate #10 pending; summary Pending Tasks #10'),
            it('commitment', 'End-to-end test: regenerate InfiniteRunner', carried=True,
               why='TaskCreate #11 pending; summary Pending Tasks #11'),
            it('constraint', "We'll test the whole thing in this branch", carried=True,
               why='L72: the user wants everything done and tested on this branch (no separate branch); no imperative cue, basis inferred. The summary quotes the sentence verbatim'),
        ],
        'losses': [
            it('commitment', 'Verify promotions: build + tests + all 3 example levels run', status='resurrected',
               why='TaskCreate #5 was marked completed at L667 ("Marking Task #5 done and starting Task #6", L666); the summary lists it under Pending Tasks as "IN PROGRESS ... Ready to mark complete" and its Next Step is "Mark Task #5 as completed, then start Task #6 ... (b) TaskUpdate task #6 to in_progress" although #6 was already in_progress (L669). A closed plan step presented as pending (harmless rework, but a resurrection by DESIGN). The preserved messages (L665-L672) still show both TaskUpdates, which contradicts the summary'),
        ],
        'not_owed': [
            it('error', 'InputValidationError',
               why='L40: an AskUserQuestion call with invalid input, re-issued and answered'),
            it('constraint', 'Estou pensando em fazer um framework opensource',
               why='L13: a pasted earlier conversation (Portuguese, the user and another assistant) given "for better context"; pasted text, not the user\'s rules'),
            it('commitment', 'Request interrupted by user',
               why='L676: the user interrupted the turn (registry/cursor just created) and ran /compact; not a cancellation of task #6, which stays open and carried'),
            it('commitment', 'Promote UI/Layout from Examples to MonoDreams/UI/',
               why='TaskCreate #1-#4 completed (L350-L638)'),
        ],
        'notes': 'Splitting the engine into copier/shadcn-style blocks: promotions (tasks #1-#5) done, registry and CLI (#6-#11) open. The summary keeps every open task but reports #5 as still in progress and plans to mark it completed and to set #6 in_progress again: one resurrected plan step, so violate (a resurrected plan step matters to the planner). Manual /compact right after a user interrupt.' + PRES,
    }],
})

# ---------------------------------------------------------------- mdpreview (Japanese user)
K = 'kazu-42/mdpreview'
cases.append({
    'file': 'claude-code/cc-2.1.59-mdpreview-glm5-cli-request-dropped-ja.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.59', 'repo': K,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '3ac36f0e-5ee0-496d-816c-a0c7b9d70aea',
        'trigger': 'auto', 'pre_tokens': 167078, 'verdict': 'violate',
        'open': [
            it('commitment', 'cliで存在しないディレクトリやfileを指定された時の挙動も', carried=False,
               why="L666 (queued prompt, Japanese): make the CLI handle a directory or file that does not exist the way VS Code / CotEditor do. The agent acknowledged it three times ('CLIの存在しないファイル処理も追加します' L677, 'CLIを修正して、存在しないファイル/ディレクトリのエラーハンドリングを追加します' L712), then read the script, saw --version work and said 'CLIは正常に動作しています。コミットしてリリースします' (L738): the script was only ever edited for version bumps (L746, L1475, L2108). At L2066 the user asks 'cliコマンドのほう修正した？' and gets the exit 0 answer again. Still undone at the boundary (stated)"),
            it('commitment', 'v1.2.6としてリリースします', carried=True,
               why="L2100: after the user's 'リリースしてある？' (L2091) the agent releases v1.2.6; commit and push done, CI and Release running at the boundary. Summary: Pending Tasks (wait for release, update tap, verify in Homebrew) and Next Step"),
            it('constraint', 'ちゃんと動いてるか確認してからリリースして', carried=True,
               why="L1068 (Japanese): 'fix it urgently, and release only after checking it really works'. Said for that fix-and-release; no 'always', so basis inferred. The summary quotes it verbatim in All user messages and keeps 'Verify markdown renders correctly in Homebrew version' as pending"),
        ],
        'losses': [
            it('commitment', 'cliで存在しないディレクトリやfileを指定された時の挙動も', status='dropped',
               why="the summary's All user messages omit every queued prompt (L142, L200, L637, L654, L655, L666, L691, L1179) and nothing in it mentions missing files/directories, VS Code or CotEditor; the CLI is described only as 'shell script with exit 0 added'. After the compaction the agent never returns to it"),
        ],
        'not_owed': [
            it('commitment', '同じミスで同じことが起こらないように、テストケース追加してね',
               why='L654 (queued): add test cases so the crash cannot recur; tests added at L694 and passing at L710'),
            it('commitment', 'cliは、起動速度的に、shellscriptじゃないほうがいいかも',
               why="L691 (queued): 'maybe the CLI should not be a shell script, for startup speed' — a hedge (…かも), not a request; inferred at most"),
            it('commitment', 'どの方法で進めますか',
               why='L1652: the agent asks the user which screenshot option to take for the README; the user moved on to another question. A question to the user'),
            it('error', 'Permission denied',
               why="L1793-L1801: rm of build-old fails (root-owned files, sudo needs a terminal); the agent hands it to the user ('手動で削除してください', L1809) and the user moves on; the summary records it as left to the user"),
            it('error', 'sleep: invalid time interval',
               why='L1143: a malformed diagnostic command (sleep with the wrong arguments); the app was relaunched and debugged with other commands'),
            it('handle', 'b67btcwfi',
               why='background app runs b67btcwfi, borjcm1jt, bx7qerdno, bb15surgv (L1149-L2025) each notified as ended (failed: the app process was killed) before the boundary'),
        ],
        'notes': "Japanese-speaking user; Claude Code 2.1.59 driven by the glm-5 model (tool ids call_…), so the compactor is glm-5 too. A long release-and-fix session (v1.2.3 → v1.2.6) with many prompts queued while the agent worked, and two /exit + resume in the same session. The summary's user-message list skips all queued prompts; it drops the open CLI request (missing file/directory behaviour), which the agent had promised and never done. Violate.",
    }],
})

cases.append({
    'file': 'claude-code/cc-2.1.61-mdpreview-signed-release-ja.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.61', 'repo': K,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'ce511df6-9355-4a38-b05d-04cab5f3bf86',
        'trigger': 'auto', 'pre_tokens': 167646, 'verdict': 'degrade',
        'open': [
            it('commitment', '署名入れて、リリースし直して', carried=True,
               why='L954 (queued, Japanese): release again, signed with the Developer ID; not done (CI secrets missing). Summary: Errors, Problem Solving "NOT YET solved", Pending Tasks, Next Step quote it'),
            it('commitment', '/mac app releaseみたいなskills使って丁寧にリリース作業やりきって', carried=True,
               why="L985: if no more bugs, finish the release carefully using a release skill; the four bugs are fixed and tested, release not started. Summary Pending Tasks and Next Step (quoted; the All-user-messages entry is cut mid-sentence)"),
            it('commitment', 'バージョンを更新してコミットし、署名付きリリースします', carried=True,
               why='L1144: version bumped (L1145-L1151), commit and signed release not done. Summary: files modified but NOT yet committed, Next Step commit then release'),
        ],
        'losses': [],
        'not_owed': [
            it('error', '[rejected]',
               why='L833: tap push rejected (fetch first), then a rebase conflict (L836, CONFLICT in Casks/mdpreview.rb) resolved and pushed at L853'),
            it('error', 'testTemplateHTMLContainsRenderFunction',
               why='L1116: swift test failed on the changed render() signature; test updated, 66 tests pass at L1143'),
            it('handle', 'bbyb30kl1',
               why="background 'Find log file after launch' (a read-only find) notified failed at L580; the agent found the log another way"),
            it('handle', 'ac8b97bcd0692a2bb',
               why="L993: the bug-analysis agent returned 'You're out of extra usage'; the agent then read the code itself and fixed four bugs (L1035-L1104)"),
            it('commitment', '次回まとめて',
               why='L953: the user chose to ship the icon change with the next release; it is committed (31d58fb) and goes out with the pending release'),
        ],
        'notes': 'Japanese-speaking user; Homebrew app could not read files (sandbox), log export, icon size, then scroll/race/TOC bugs; the user insists on a Developer-ID-signed release. The summary carries every open request and the uncommitted state. The summary names the signing identity (a person\'s name, redacted here). Degrade.',
    }],
})


# ---------------------------------------------------------------- meow (Japanese user)
W = '135yshr/meow'
cases.append({
    'file': 'claude-code/cc-2.1.63-meow-zenn-articles-ci-lowercase-ja.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.63', 'repo': W,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '0cd8d3ac-ebfc-4156-9a87-7baaec5fb00f',
        'trigger': 'auto', 'pre_tokens': 167115, 'verdict': 'degrade',
        'open': [
            it('commitment', '原因を調査して修正してください', carried=True,
               why="L469 (Japanese): the user reports the CI failure on PR #57 and asks to find the cause and fix it. The failure is staticcheck ST1005 (capitalised error string, L471); the agent's nolint edit was rejected (L482), the user said to lowercase it (L485), the lowercasing Edit (L486) is the last call before the boundary; nothing committed or pushed, CI not re-run (stated). Summary: Errors and fixes, Pending Tasks 'Commit and push the ST1005 fix', Current Work ('not yet committed or pushed') and Next Step quote the request"),
            it('identifier', 'fix/security-vulnerabilities', carried=True,
               why='the branch of PR #57 that the fix must be pushed to (L453-L460); named in Pending Tasks, Current Work and Next Step'),
        ],
        'losses': [],
        'not_owed': [
            it('handle', 'toolu_018buLNQ3qpKP9T3apLtpAgb',
               why='L486: the lowercasing Edit has no tool_result on disk, only its PostToolUse hook progress (L488): unwritten last record; the edit was applied (git diff after the boundary, L497) and the summary says so'),
            it('error', "The user doesn't want to proceed with this tool use",
               why="L422: the user rejected committing the documents repo's term replacements, then asked about the meow repo instead (the documents work was handed to the documents project's AI, L398-L404, L426); L482: the nolint edit rejected, replaced by lowercasing at the user's word. Rejections, not failures still owed"),
            it('error', 'MD034/no-bare-urls',
               why="L99, L138, L252: markdownlint's first error lines are in pre-existing `.entire/metadata/*/context.md` files that the agent did not write and called unrelated (L101, L139); the articles' own MD040/MD024 errors were fixed and the final lint of everything but `.entire/` passes (L355-L357)"),
            it('error', '一文に二回以上利用されている助詞',
               why='L141, L255, L331: textlint on the five Japanese articles, 63 → 13 → 3 errors, then 0 (L352-L354)'),
            it('handle', 'af7797bdd77c03ae0',
               why='L29-L45: five async article-writing agents; all notified completed (two after failing to write for permission reasons, the articles then written directly)'),
            it('commitment', 'meow についての記事をzennに書きたいです',
               why="L466: a request to plan a Zenn series about the meow language, cancelled by the user's own interrupt (L467) before any answer, then replaced by the CI request (L469). The agent never took it on; the summary still keeps it in Pending Tasks as 'needs user re-engagement', which is harmless"),
            it('constraint', '小文字にすれば良いのではないでしょうか',
               why="L485: 'wouldn't lowercasing it do?' — a question/suggestion about this one fix, carried out at L486; not a standing rule (the summary quotes it anyway)"),
        ],
        'notes': "Japanese-speaking user; five Zenn articles on vulnerability patterns written and linted in a sibling repo, PRs #11 (documents) and #57 (meow), then a CI lint failure on #57. The summary keeps the uncommitted ST1005 fix as pending and the next step is to commit and push it. Format: the code block in the summary's Files section is broken twice by the whole Analysis block pasted in where the source regex had `$` followed by a backtick (`(\\.\\d+)?$` + backtick): a JavaScript String.replace `$`-pattern substitution in how the summary text was spliced (reading only). Degrade.",
    }],
})

cases.append({
    'file': 'claude-code/cc-2.1.63-meow-oss-health-review-flipped-ja.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.63', 'repo': W,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '2b8a9407-7d4a-40ff-8f93-a184efc07066',
        'trigger': 'auto', 'pre_tokens': 168954, 'verdict': 'violate',
        'open': [
            it('commitment', 'meow のコードを全て確認してください', carried=False,
               why="L852 (Japanese): 'please check all of meow's code'. The agent launched an Explore agent (L853); its result reached the agent (PostToolUse hook L962) but the agent had said nothing to the user when the compaction hit: the request was still unanswered (stated)"),
        ],
        'losses': [
            it('commitment', 'meow のコードを全て確認してください', status='flipped',
               why="the summary presents the request as done: Pending Tasks 'The codebase exploration result has been delivered but user hasn't yet stated what they want to do', Next Step 'which has been fulfilled. No explicit follow-up task has been requested yet. Waiting for user'. Nothing had been delivered. After the compaction the agent does present an outline of the analysis (L967), prompted by the runtime's 'Continue with the last task' line, so the harm here was small; the summary's status is still false"),
        ],
        'not_owed': [
            it('handle', 'toolu_01HoFXSrdSfDWvwckLZAzMfV',
               why='L853: the Explore Agent call has no tool_result on disk, only agent_progress lines and its PostToolUse hook (L962): unwritten last record; it had returned and the summary describes its result'),
            it('handle', 'a7050040d42a64e2d',
               why='L42-L84: the OSS best-practices research agent, a foreground call that returned (status completed, L84)'),
            it('error', 'no matches found: .github/PULL_REQUEST_TEMPLATE',
               why='L33: a read-only ls of a glob that did not exist'),
            it('error', 'actions/runs/22614325913/job/65523315705',
               why="L348: gh pr checks exit 1, the lint job of PR #45 failing (golangci-lint v1 against Go 1.26); fixed, then a second failure reported by the user (L518, shallow clone) fixed and pushed (L552-L566); the user moved on to review comments"),
            it('error', 'emptyStringTest: replace',
               why='L536: golangci-lint over the whole existing code base (42 old issues); the agent kept linting new code only (--new-from-rev), 0 issues at L550'),
            it('error', 'Output blocked by content filtering policy',
               why="L143: an API error shown as assistant text while writing CODE_OF_CONDUCT.md; the user asked why (L148), the agent explained and left that file to the user via GitHub's template"),
            it('commitment', 'CODE_OF_CONDUCT.md を作成',
               why='TaskCreate #1 marked completed (L151) though the file was not written: the agent handed it to the user (GitHub UI). A step for the user, not the agent; the summary lists it as a manual step anyway'),
            it('commitment', 'PR #46: actions/github-script v7',
               why='TaskCreate #14-#18 (recreate Dependabot PRs #46-#50 with pinned SHAs) all completed (L708-L842), PRs #51-#55 created'),
            it('constraint', '１つ１つ修正してください',
               why='L634: fix the five Dependabot PRs one by one — a one-off request about that job, done; no lasting cue'),
            it('constraint', '499cd6335b5fa6.md のルールを追加してください',
               why="L91: put the rules of the user's article into the PR template — a one-off request, done (L170)"),
        ],
        'notes': "Japanese-speaking user; OSS community-health files, PR #45 and its CI/CodeRabbit rounds, five Dependabot PRs redone, then 'check all of meow's code'. The compaction hit right after the exploration agent returned and before the agent answered; the summary calls the request fulfilled and delivered. One flipped commitment, so violate (a flip is how false completions start), though the resumed agent did present the results.",
    }],
})


# ---------------------------------------------------------------- duet (two manual compactions)
D = 'tslateman/duet'
cases.append({
    'file': 'claude-code/cc-2.1.37-duet-ecosystem-simplification-manual-2x.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.37', 'repo': D,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '2503105c-7891-4081-a049-d5efbb15451f',
        'trigger': 'manual', 'pre_tokens': 166197, 'verdict': 'degrade',
        'open': [],
        'losses': [],
        'not_owed': [
            it('commitment', 'Want me to push?',
               why="L801: after the two commit agents finished, a question to the user (Lore a5a7344 and Neo 3f3c638 one ahead of origin); the user went to /retro and 'let's kill ralph' instead. The summary keeps it as a pending push 'to be confirmed with the user', which is fair"),
            it('error', 'File has not been read yet',
               why='L526 (and the sibling Edits L528-L534 that errored with it): Edits of LINEAGE_CONTRACT.md before a Read; re-done after reading'),
            it('handle', 'a8cd6c9',
               why='L792/L794: the two async commit agents (a8cd6c9, a1d65b8) notified completed at L796-L800; earlier async agents a9fea45, a40b490, a835179 likewise (L208-L215)'),
            it('handle', 'a244199',
               why='L473 and L690 (a244199, a87ea97): foreground Task calls that returned'),
            it('commitment', 'Absorb Telos and Lore into Lineage',
               why='TaskCreate #1-#3 of the consolidation team all completed (L754-L769); the three agent teams were shut down and deleted (L179, L320, L778)'),
            it('commitment', 'make a note of this somewhere as part of a usage guide',
               why='L338: done at L346-L352 (Neo README)'),
            it('constraint', 'use subagents to handle all actions',
               why="L198: about the actions listed in that message (commit plan files as docs); the user repeats 'use a team of agents' / 'using subagents' with each later request (L291, L705, L785), so it was not taken as a standing rule; no lasting cue"),
            it('constraint', "let's not archive mirror",
               why='L702: a decision on the simplification plan being made then (keep Mirror), carried out; one-off. The summary records it ("Mirror stays")'),
            it('constraint', "we don't really need to mention ralph",
               why='L782: a remark on the architecture picture just shown, acted on at once (L783)'),
        ],
        'notes': "An author's own plugin repo (duet) driving a cross-repo 'grand simplification' with agent teams. Manual /compact at a quiet point: every request done, only an unanswered 'Want me to push?'. Nothing owed, nothing lost. The summary's Pending Tasks are retro 'gotchas' (Geordi refs, mani.yaml, duplicate TASK_CONTRACT.md, .entire/), not promises. Degrade.",
    }, {
        'ordinal': 2, 'boundary_hint': '008092bc-7eba-4464-83a3-bccd344e74f1',
        'trigger': 'manual', 'pre_tokens': 141883, 'verdict': 'degrade',
        'open': [
            it('constraint', "let's not name neo, bach, council or other projects", carried=True,
               why="L1063: keep the names of other projects out of the Lore docs. Acted on at once (subagents cleaned SYSTEM.md, LORE_CONTRACT.md, CLAUDE.md, L1143-L1155) but reads as a policy for those docs; no lasting cue, so basis inferred. The summary's Key Technical Concepts keep it as a principle: 'Lore's docs should describe its interface, not name its consumers' (the user message itself is not in its list)"),
        ],
        'losses': [],
        'not_owed': [
            it('commitment', 'Want me to push?',
               why='L801 (before the first compaction): a question never answered; the summary lists the push as pending but for the user to confirm'),
            it('commitment', 'praxis-rdx',
               why="L1234: the agent recommended archiving praxis-rdx; the user answered 'done - any other cleanups?' (L1238). Whether the user archived it is not in the source; either way it was the user's step, not the agent's. The summary's 'Not yet archived' is a guess, not a resurrection of an agent promise"),
            it('commitment', 'Want me to handle these?',
               why='L1248: offer of four cleanups; the user picked 2 and 4 (L1252), both done (L1253-L1256); 1 and 3 were not chosen'),
            it('error', 'File has not been read yet',
               why='L1036: Edit of MEMORY.md before a Read; re-done after reading (L1037-L1046)'),
            it('handle', 'a467797',
               why='foreground Task calls a385a42, aec2dcd, a4066bc, acba85d, abb7a0b, a467797 (L944-L1473) all returned'),
            it('constraint', 'yes use subagents to clean those up',
               why='L909: about the lineage stragglers just listed; done by a subagent'),
        ],
        'notes': "Second manual /compact, again after a finished turn (duplicate commands removed). The summary is thorough; its pending items (push Lore/Neo, archive praxis-rdx, /review framework gap) are user decisions and vamp threads. Two /exit + resume inside the span (L1502, L1560). Degrade.",
    }],
})


# ---------------------------------------------------------------- broomva/life
B = 'broomva/life'
cases.append({
    'file': 'claude-code/cc-2.1.81-life-discord-ci-green-reply-channel-lost.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.81', 'repo': B,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '747ba9e0-bc03-47b7-a5f5-65a0ccc2da48',
        'trigger': 'auto', 'pre_tokens': 167881, 'verdict': 'violate',
        'open': [
            it('commitment', 'is that check relevant and intentful', carried=True,
               why="L1270: the user's last question, sent from Discord (channel plugin), about the Control Heartbeat check; the agent had read heartbeat.sh and audit_harness.sh and not answered yet (stated). Summary: Pending Tasks, Current Work and Next Step all carry it"),
            it('identifier', '1000000000000000002', carried=False,
               why="the Discord chat_id (redacted) of every user message in this session (<channel source=\"plugin:discord:discord\" chat_id=… message_id=1486711158663680010>). The user talks only through Discord; the agent answered each message with mcp__plugin_discord_discord__reply {chat_id, reply_to} (11 replies, the last at L1260). The open answer depends on it: stated"),
        ],
        'losses': [
            it('identifier', '1000000000000000002', status='dropped',
               why="the summary names neither the chat_id nor the message id to reply to, nor that answers go through the Discord reply tool; it only tags the user messages '(Discord)'. Consequence in the file: after the compaction the agent writes its answer as plain assistant text (L1297) and never calls the reply tool, so the Discord user does not get it"),
        ],
        'not_owed': [
            it('handle', 'bqsrf3ncw',
               why='thirteen background Bash jobs (CI watchers b53yd41uk … bqsrf3ncw, L581-L1122); each has a completed task-notification before the boundary (L582-L1130), several re-delivered'),
            it('commitment', "I'll update when the `bmi9jjfc4` background check completes",
               why='L979: wait narration; the job completed (L1025) and the CI result was reported on Discord (L1089, L1140)'),
            it('error', 'no such file or directory: lago',
               why="L185-L216: git commands run from the wrong directory (inside a submodule) while diagnosing the submodule CI failure; redone from the repo root (L218 on)"),
            it('error', 'Not a valid object name HEAD:.',
               why='L207: same wrong-cwd exploration as above'),
            it('error', 'File has not been read yet',
               why='L426, L1211, L1213: Edits before a Read; redone after reading'),
            it('error', 'File does not exist',
               why='L15: read of a MEMORY.md that did not exist yet (read-only); the agent said so on Discord'),
            it('commitment', 'please check again, fix issues',
               why='L602: done — the submodule refs, .gitmodules and audit_control.sh fixed, CI and the heartbeat green (L1140, L1258)'),
        ],
        'notes': "A session driven from Discord through Claude Code's channel plugin (user messages arrive as <channel …> records, queued and dequeued; replies go out through the plugin's reply tool). Fixing CI of a monorepo with ten submodules, many background CI watchers, all finished. The summary carries the pending question but loses the channel: the post-compaction answer never reaches Discord. Violate (a dropped identifier the open answer depends on). Discord chat and user ids replaced by placeholders.",
    }],
})


cases.append({
    'file': 'claude-code/cc-2.1.42-life-lago-conformance-tests-inflight-validation.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.42', 'repo': B,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '27316667-b277-4f0d-8670-4df4157823b5',
        'trigger': 'auto', 'pre_tokens': 169116, 'verdict': 'degrade',
        'open': [],
        'losses': [],
        'not_owed': [
            it('commitment', 'Run full validation and verify all tests pass',
               why="TaskCreate #5, in_progress since L488 and never updated: its work was done — fmt+clippy+318 Lago tests green at L696, then conformance/run.sh (L698), whose call returned just before the compaction (PostToolUse hook at L724; the result is not on disk). The summary marks #5 completed and reports both green; the re-run after the compaction confirms ('[conformance] OK', L767). Only the TaskUpdate was missing. Ambiguous by the letter (a recorded in-progress step whose closing claim is not in the source); by reading, the step was done, so not owed"),
            it('handle', 'toolu_01DHCeNxRbwcwHz4cxgwR1Rh',
               why='L698: the conformance run; only bash_progress lines and its PostToolUse hook (L724) on disk, no tool_result: unwritten last record, as in the other 2.1.4x files'),
            it('handle', 'bd81b55',
               why='L271: a background cargo test that hung; stopped with TaskStop at L278-L281 and the test fixed with a timeout'),
            it('handle', 'a5fdb97',
               why='L107: an Explore Task that returned (status completed)'),
            it('error', 'error[E0599]',
               why="L512: golden_replay.rs did not compile (no variant ToolCallRequested… on EventPayload, built from the wrong cwd); rewritten to JSON checks, compiled and 8/8 passing at L617"),
            it('error', 'test result: FAILED',
               why='L604: 7/8 golden tests, the forward-compat assertion fixed at L607, 8 passed at L617; earlier E0433 (missing serde_json, L141) fixed likewise'),
            it('commitment', 'Implement lago-aios-eventstore-adapter tests',
               why='TaskCreate #1-#4 completed (L305-L484)'),
        ],
        'notes': "Plan execution (adapter tests + golden replay fixtures) in a Rust monorepo; compaction while the final conformance run was finishing. Nothing owed is lost. Degrade. A verifier reading the plan events alone will see #5 in progress and the summary calling it done; the labels say that is not a loss here (see not_owed).",
    }],
})


cases.append({
    'file': 'claude-code/cc-2.1.42-life-praxis-lago-fs-manual-queued-prompt.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.42', 'repo': B,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '832abe09-0e04-4d11-ac4e-f593ee034061',
        'trigger': 'manual', 'pre_tokens': 161730, 'verdict': 'degrade',
        'open': [],
        'losses': [],
        'not_owed': [
            it('commitment', 'please now test that using arcan trhough the cli with openclaw',
               why="L593: a prompt the user queued after the agent's final report and before running /compact; it was never shown to the model before the compaction and is delivered after it (dequeue L604, user message L606), so the summary cannot owe it. A verifier that treats every queue enqueue as seen would flag it"),
            it('commitment', 'Step 1: Add FsTracker to lago-fs',
               why='TaskCreate #1-#5 of the plan all completed (L212-L484); final validation and architecture gate green (L531, L536), report given (L587)'),
            it('handle', 'ac02987',
               why='L149: an Explore Task that returned (status completed)'),
        ],
        'notes': "Plan execution finished and reported; the user queued the next request and ran /compact. Nothing open at the boundary; the queued request arrives after the compaction as an ordinary message. Degrade.",
    }],
})


cases.append({
    'file': 'claude-code/cc-2.1.42-life-praxis-extraction-2x.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.42', 'repo': B,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'd5f15b50-335c-455b-96d7-bf26412f1a99',
        'trigger': 'auto', 'pre_tokens': 169352, 'verdict': 'degrade',
        'open': [
            it('commitment', 'Phase 3: Port tool implementations to Praxis', carried=True,
               why='TaskCreate #3 in_progress since L479 (recorded): edit.rs ported (L539), fs/shell/memory/skills/mcp not yet. Summary Pending Tasks "[in_progress]" with the remaining files, Current Work, Next Step'),
            it('commitment', 'Phase 4: Wire Arcan to use Praxis', carried=True,
               why='TaskCreate #4 pending (recorded); summary Pending Tasks'),
            it('commitment', 'Phase 5: Unify sandbox abstractions', carried=True,
               why='TaskCreate #5 pending; summary Pending Tasks'),
            it('commitment', 'Phase 6: Documentation and cleanup', carried=True,
               why='TaskCreate #6 pending; summary Pending Tasks'),
        ],
        'losses': [],
        'not_owed': [
            it('commitment', 'Phase 1: Extend aios-protocol with unified tool types',
               why='TaskCreate #1 and #2 completed (L272, L474)'),
            it('error', 'derivable_impls',
               why='L236: clippy exit 101 on a manual Default impl; replaced by #[derive(Default)], clippy clean afterwards (the summary lists it as fixed)'),
            it('handle', 'aeda3ae',
               why='foreground Explore/Task calls aeda3ae, a532f49, afcef7e, a2fc109 (L55-L501) all returned'),
        ],
        'notes': 'Six-phase plan to extract a tool/sandbox engine (Praxis) from Arcan; compaction in the middle of phase 3. Every open plan step is carried with its state. Degrade.',
    }, {
        'ordinal': 2, 'boundary_hint': 'a1a3364a-5b34-4c36-8903-f20535098dd5',
        'trigger': 'auto', 'pre_tokens': 170017, 'verdict': 'degrade',
        'open': [
            it('commitment', 'lets make sure that harness, control and docs are updated', carried=True,
               why="L870: sync harness, control scripts, docs and plan status before ending the session; the agent had only read the files (two Tasks, a git status) when the compaction hit (stated). Summary: Pending Tasks 'IMMEDIATE (user's last request)' with the file list, Current Work ('had NOT yet made any of these updates'), Next Step quoting it"),
            it('commitment', 'Phase 4: Wire Arcan to use Praxis', carried=True,
               why="TaskCreate #4-#6 still pending (recorded), put off by the user to a later session (L870). Summary Pending Tasks 'DEFERRED to future session' lists phases 4, 5 and 6"),
            it('constraint', 'we will continue on the next phases later with fresh session', carried=True,
               why="L870: the user puts phases 4-6 off to another session — read as 'do not start them now'; no imperative cue, basis inferred. Carried as 'DEFERRED to future session' and quoted in All user messages"),
        ],
        'losses': [],
        'not_owed': [
            it('commitment', 'lets make sure everything is commited, proper typing',
               why="L973: a prompt queued one line before the boundary, not yet shown to the model; it is injected after the compaction (queue remove L997) and acted on (L1001-L1003). Not owed by the summary"),
            it('handle', 'toolu_013BuaCqKhprHSa6YuPjT9sz',
               why='L889: git status, with its PostToolUse hook at L972 but no tool_result on disk: unwritten last record (the summary reports its output, praxis/ untracked)'),
            it('handle', 'a4fbc3e',
               why='L872/L886: the two reading Tasks (a4fbc3e, aec922a) returned at L917 and L970'),
            it('error', 'File has not been read yet',
               why='L619-L631: a batch of Writes before a Read (one error, the rest "Sibling tool call errored"); redone after reading'),
            it('error', 'unresolved import `rmcp::model::CallToolRequestParams`',
               why='L708 and L824 (missing field requested_capabilities): compile errors while porting, fixed; 49 tests and clippy clean at L857, task #3 completed at L859'),
            it('commitment', 'Phase 3: Port tool implementations to Praxis',
               why='completed at L859; the summary keeps it under completed work, not pending'),
        ],
        'notes': "Same session after phase 3; the user asks to sync docs/harness/control and defers the remaining phases. The summary carries the request, the deferral and the pending phases. A prompt queued just before the boundary is delivered after it. Degrade.",
    }],
})


cases.append({
    'file': 'claude-code/cc-2.1.42-life-autonomic-loop-commit-push-2x.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.42', 'repo': B,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '18c62139-022d-4d82-a0f1-f8204f44790f',
        'trigger': 'auto', 'pre_tokens': 167116, 'verdict': 'degrade',
        'open': [
            it('commitment', 'Step 4: Refactor AutonomicPolicyAdapter to dual-mode', carried=True,
               why='TaskCreate #4 pending (recorded); summary Pending Tasks, Current Work and Next Step (with the plan excerpt)'),
            it('commitment', 'Step 5: Wire embedded mode in Arcan binary', carried=True,
               why='TaskCreate #5 pending; summary Pending Tasks'),
            it('commitment', 'Step 6: Wire EconomicGateHandle to provider selection', carried=True,
               why='TaskCreate #6 pending; summary Pending Tasks'),
            it('commitment', 'Step 7: Write tests and verify', carried=True,
               why='TaskCreate #7 pending; summary Pending Tasks (with the verification commands)'),
        ],
        'losses': [],
        'not_owed': [
            it('commitment', 'Step 3: Implement Embedded Autonomic Controller',
               why="TaskCreate #3 in_progress (L502): the module was written and its compile error fixed; the re-check (L574) returned just before the compaction (PostToolUse hook L576, result not on disk). The summary says step 3 'just completed successfully … The task list shows Step 3 as in_progress but compilation passed'. Same ambiguity as the lago-conformance file: done by reading, only the TaskUpdate missing (it comes later, L831)"),
            it('handle', 'toolu_01UnVNrrrTQAcYWR3yXG6Mg8',
               why='L574: cargo check with its PostToolUse hook (L576) and no tool_result on disk: unwritten last record'),
            it('commitment', 'Step 1: Fix Token Usage Gap',
               why='TaskCreate #1 and #2 completed (L429, L498)'),
            it('handle', 'a6f36e6',
               why='foreground Task calls a6f36e6, a1f3307, affca48, ad357c4 (L118-L566) all returned'),
        ],
        'notes': 'Seven-step plan (close the autonomic feedback loop) in the Rust monorepo; compaction in step 3 just after a compile fix. Every pending step carried. Degrade.',
    }, {
        'ordinal': 2, 'boundary_hint': 'eef03019-2bfb-4a46-a8db-6e3ff3a70a40',
        'trigger': 'auto', 'pre_tokens': 167411, 'verdict': 'degrade',
        'open': [
            it('commitment', 'is everything commited and pushed', carried=True,
               why="L1053: 'is everything commited and pushed? harness and control docs updated? cicd checks green?' The agent ran the audit and conformance (green), committed in arcan, hit the spaces hook, committed spaces' .gitignore with --no-verify; nothing pushed, life repo pointers not committed, CI not looked at (stated). Summary: Pending Tasks (push, commit life repo), Current Work, Next Step with the five remaining actions, the question quoted verbatim"),
            it('error', 'cannot find type `DirectMessage`', carried=True,
               why="L1218/L1227: the spaces pre-commit hook (cargo check) fails on the user's unfinished direct-message code; the agent left those changes uncommitted and bypassed the hook only for .gitignore. Still the last word on the spaces changes, but the agent moved on from it: basis inferred. Summary: Errors and fixes, Problem Solving ('Deferred to separate effort') and Pending Tasks ('Spaces DM completion')"),
        ],
        'losses': [],
        'not_owed': [
            it('handle', 'toolu_01MjfJicXoQXVFwduKpYv1wq',
               why='L1229: git commit --no-verify, PostToolUse hook (L1231), no tool_result on disk: unwritten last record; the summary names the resulting commit 33e0353'),
            it('error', 'cannot find value `_economic_handle` in this scope',
               why='L692-L861: a run of compile/clippy errors while wiring steps 4-7 (moved registry, missing fields, 9 vs 7 arguments, default on a unit struct, too many arguments), each fixed; step 7 completed with the full suite green (L962)'),
            it('error', 'File has been modified since read',
               why='L768, and L1009 (File has not been read yet): edits re-done after reading'),
            it('error', 'No such file or directory',
               why='L1200: ls of a relative path from the wrong directory (read-only); re-run with the absolute path at L1201'),
            it('commitment', 'Step 7: Write tests and verify',
               why='TaskCreate #1-#7 all completed by L962; the summary does not present any as pending'),
            it('handle', 'a6af38a',
               why='foreground Task calls a6af38a and aedddf8 (L813, L851) returned'),
        ],
        'notes': "Same session: plan done, then 'is everything committed and pushed … cicd checks green?'. The summary carries the request and the state of every repository. Its next-step list answers 'cicd checks green' with the local audit and conformance runs only, and after the compaction the agent never looks at GitHub CI — but the agent had not planned to before the compaction either (L1064), so this is not labelled a loss. Degrade.",
    }],
})


cases.append({
    'file': 'claude-code/cc-2.1.42-life-autonomic-phase0-docs-step.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.42', 'repo': B,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'cb1b1cbb-142d-4924-9400-6ff2ef91b9d5',
        'trigger': 'auto', 'pre_tokens': 167249, 'verdict': 'degrade',
        'open': [
            it('commitment', 'Update root docs and build scripts', carried=True,
               why='TaskCreate #5 in_progress since L499 (recorded): scripts, CLAUDE.md, STATUS.md, ARCHITECTURE.md done, the memory file being read (L718) and not yet updated. Summary Pending Tasks "still marked in_progress — MEMORY.md update remains", Current Work, Next Step'),
            it('commitment', 'Full monorepo validation', carried=True,
               why="the plan's Verification section (L4): after all steps run the full monorepo validation; not run yet (stated in the plan the user gave). Summary Pending Tasks and Next Step with the exact commands"),
        ],
        'losses': [],
        'not_owed': [
            it('handle', 'toolu_01XTmwtnhJpQjRYBpNwsioZx',
               why='L718: Read of MEMORY.md with PostToolUse hooks (L720-L721) and no tool_result on disk: unwritten last record'),
            it('error', 'fold_economic_mode_change_hysteresis_prevents_flapping',
               why='L377 and L399: autonomic tests failing while the hysteresis gate was wired (fold_economic_mode_change_hysteresis_prevents_flapping, load_projection_preserves_economic_state); fixed, 69 tests passing and clippy clean at L420-L427'),
            it('error', 'String to replace not found in file',
               why='L381: an Edit after the linter reformatted the file; re-read and redone (L383-L393)'),
            it('handle', 'ad5ed02',
               why='L12: async agent launched; completion notified at L18'),
            it('commitment', 'Add autonomic-lago tests (publisher + subscriber)',
               why='TaskCreate #1-#4 completed (L236-L497)'),
        ],
        'notes': 'Five-step stabilization plan for the Autonomic controller; compaction in the last (docs) step while reading the memory file. Step and final validation carried with exact commands. Degrade.',
    }],
})


cases.append({
    'file': 'claude-code/cc-2.1.42-life-arcan-streaming-ollama-daemon.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.42', 'repo': B,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '7ed8cc22-d54c-42fe-aeda-1f2d6b956c18',
        'trigger': 'auto', 'pre_tokens': 168197, 'verdict': 'degrade',
        'open': [
            it('commitment', "Let's also test with `--json` mode and with the mock provider", carried=True,
               why="L529: after the streaming test passed, the agent sets out to test --json mode and the mock provider; the same response ran the --json test (L530, result returned) but not the mock one. A small self-set step, basis inferred. The summary's Optional Next Step lists 'Test with the mock provider' (as something the user may want) while Pending Tasks says none; after the compaction the agent does not run it"),
        ],
        'losses': [],
        'not_owed': [
            it('handle', 'b363917',
               why="L500-L506: a background Bash that started the arcan daemon with '&'; the runtime notified it completed (L506, again L552) while the daemon kept listening on port 3001. By the job record it is closed; the summary still keeps the live daemon (port 3001, task id) and the agent finds it after the compaction (L542-L546)"),
            it('handle', 'toolu_01YGBeaKxJQVf4WLNdAF11M9',
               why='L530: the --json test with its PostToolUse hook (L534) and no tool_result on disk: unwritten last record; the summary reports its output'),
            it('commitment', 'cool, lets test running arcan with ollama and check it streams',
               why="L488: done — daemon up, CLI run streamed ('Streaming works', L529)"),
            it('error', 'redundant closure',
               why='L402: clippy error, fixed at L404, clippy clean at L413'),
            it('error', 'File has been modified since read',
               why='L181: Edit after a linter change; redone after reading'),
            it('commitment', 'Build and test all changes',
               why='TaskCreate #1-#9 all completed (L132-L477)'),
        ],
        'notes': 'Streaming for the Arcan CLI/provider: plan done, then a live test against Ollama; compaction during the second test. The summary keeps the running daemon and the untested mock path (as an option). Degrade.',
    }],
})


cases.append({
    'file': 'claude-code/cc-2.1.42-life-praxis-lago-plan-mode.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.42', 'repo': B,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '45d6019b-defb-4de1-a4b9-ccf1cc1fc59e',
        'trigger': 'auto', 'pre_tokens': 167253, 'verdict': 'degrade',
        'open': [
            it('commitment', 'lets connect them, please plan it and lets work on it', carried=True,
               why='L582: plan, then implement, the Praxis-to-lago-fs connection; the agent entered plan mode (L583), read the old plan file and ran an exploration Task; no plan written yet (stated). Summary Pending Tasks, Current Work (in plan mode, what is and is not done) and Next Step quote it'),
        ],
        'losses': [],
        'not_owed': [
            it('handle', 'toolu_01H2g3qaUqFJ1Fzfoyys2kga',
               why='L593: the exploration Task with its PostToolUse hooks (L613-L614) and no tool_result on disk: unwritten last record; the summary lists what it found'),
            it('identifier', 'polymorphic-wibbling-noodle',
               why="L587: the plan-mode file (~/.claude/plans/polymorphic-wibbling-noodle.md); the summary says 'the plan file' without its path, but plan mode re-announces the path itself, so nothing depends on the summary naming it"),
            it('commitment', 'does praxis fs tools leverage lago fs',
               why='L532: a question, answered at L575; likewise "how does praxis works" (L422, answered L525)'),
            it('commitment', 'Verify: build, lint, test arcan',
               why='TaskCreate #1-#8 of the Phase 4 plan all completed (L165-L373)'),
            it('handle', 'ad98287',
               why='foreground Task calls ad98287 … a958b83 (L88-L568) returned'),
        ],
        'notes': 'Plan executed and explained, then the user asks to connect Praxis to lago-fs; compaction during plan-mode exploration. Carried, including the plan-mode state. Degrade.',
    }],
})

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'labels-claude-code.json')
with open(out, 'w') as f:
    json.dump({'cases': cases}, f, indent=1, ensure_ascii=False)
    f.write('\n')
print('wrote', out, sum(len(c['compactions']) for c in cases), 'compactions')
