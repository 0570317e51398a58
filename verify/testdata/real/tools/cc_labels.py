#!/usr/bin/env python3
"""Build labels-claude-code.json from the hand-written judgements below.

usage: cc_labels.py STAGING_DIR   (e.g. /work/staging/real)

The judgements were made by reading each session with cc_dump.py (source, todo/task state,
errors and what followed them, background jobs, the summary text). This script only adds
what can be read mechanically from the file (boundary uuid, version, trigger) and checks
that every `contains` string really occurs in the (redacted) session text, so a label can
never point at words that are not there. It does not run loupe.
"""
import gzip, json, os, sys

L = {}  # file -> list of compaction labels, in file order


def c(kind, contains, why, carried=True):
    return {'kind': kind, 'contains': contains, 'carried': carried, 'why': why}


def n(kind, contains, why):
    return {'kind': kind, 'contains': contains, 'why': why}


def lost(kind, contains, status, why):
    return {'kind': kind, 'contains': contains, 'status': status, 'why': why}


L['cc-2.0.76-entire-pr-review-async-agents'] = [dict(
    verdict='degrade',
    open=[
        c('commitment', 'update all the shadow branch naming code to use it',
          "L202 promise while answering the user's 'is shadowBranchHashLength now used everywhere?'; three edits done, the answer not yet given, tests not rerun; summary 'Current Work' lists the three updates and 'Pending Tasks: Need to verify all tests still pass after constant refactoring'"),
        c('commitment', 'check manual_commit to understand the pattern',
          "L229, the grep ran but its result was not yet analysed; summary 'Pending Tasks: investigate/resolve the BaseCommit storage inconsistency'"),
    ],
    losses=[],
    not_owed=[
        n('error', 'File does not exist', 'L99 Read of a missing cleanup_test.go, a read-only look-up; the agent globbed and read clean_test.go instead'),
        n('error', 'Exit code 1', 'L141 go test of the two tests written to fail on purpose (user asked for failing tests); they pass after the fix at L169-L172'),
        n('handle', 'afba179', 'one of six async review agents (afba179, aa176f6, a8c2528, ae1b1c5, a295012, a02cdeb); every one was read with TaskOutput and announced by an <agent-notification> queue record before the boundary'),
        n('handle', 'a02cdeb', 'async review agent, collected by TaskOutput at L55/L78 before the boundary'),
        n('commitment', 'Run tests to verify fixes', 'todo item completed in the last TodoWrite (L178)'),
        n('commitment', 'which should fail right now', "the user's one-off request at L95, done (tests written, shown failing); not a standing rule"),
    ],
    notes='Async Task agents (isAsync, 2.0.76) complete through TaskOutput plus queue-operation enqueue/remove records carrying <agent-notification> text; none is open at the boundary. The 16 review findings (P2/P3) were never requested to be fixed, so they are not owed. Summary is faithful; large loss ratio is fine.')]

L['cc-2.1.1-entire-autocommit-debug'] = [
    dict(verdict='degrade',
         open=[c('commitment', 'validate this adds up',
                 "L320 user request that the agent accepted and was working on (checking checkpoints vs code commits in ../entire.io); summary 'Current Work' and 'Optional Next Step' quote it")],
         losses=[],
         not_owed=[
             n('commitment', 'Let me verify if the deleted/copied files were actually left uncommitted', 'narration carried out by the same response (git status at L377)'),
             n('commitment', 'Let me check the actual order and timestamps of events', 'carried out at L418-L425'),
             n('constraint', 'but we are now using different ways of adding', 'a question, not a rule'),
             n('error', '[Request interrupted by user]', 'L153 user interruption after the WebSearch had returned; no call was left pending'),
         ],
         notes="No tool errors in the span. The summary adds a pending 'Decide whether to revert the go-git -> CLI changes' that nobody asked for (unsourced pending item, not a loss under DESIGN)."),
    dict(verdict='degrade',
         open=[
             c('commitment', 'check the whole code base if this is an issue in other places',
               "L746 user request in progress (the agent was reading strategy/common.go); summary 'Current Work' and 'Pending Tasks'"),
             c('constraint', 'I did not say commit anything',
               "L740 the user rejected the agent's git commit with these words: a standing 'do not commit unless asked'; summary 'All user messages' quotes it and 'Errors and fixes' says the commit was stopped"),
             c('identifier', 'fix/relative-path-filtering-from-subdirectories', 'branch holding the uncommitted fix; named in the summary'),
         ],
         losses=[],
         not_owed=[
             n('error', 'Found 2 matches of the string to replace', 'L681 Edit retried with more context at L686 and succeeded'),
             n('commitment', 'abandon the current branch', "L664 user instruction carried out at L666-L669 (new branch from main)"),
             n('error', "The user doesn't want to proceed with this tool use", 'L740 user-rejected git commit: a rejection, not an error to fix (its words are kept as a constraint above)'),
         ],
         notes="The summary's 'Optional Next Step' proposes fixing strategy/common.go although the user only asked to check for other places; scope creep, not a DESIGN loss."),
]

L['cc-2.1.7-entire-attribution-3x'] = [
    dict(verdict='degrade',
         open=[c('commitment', 'Run tests and lint', "pending in the last TodoWrite (L224); summary 'Pending Tasks: Run tests / Run lint' and the todo list shown with the item pending")],
         losses=[],
         not_owed=[
             n('commitment', 'Add tests for attribution calculation',
               "in_progress in the last TodoWrite, but the Write of manual_commit_attribution_test.go at L227-L229 finished it before the boundary; the summary's check mark is accurate (a strict status matcher would call it flipped)"),
             n('error', 'Request failed with status code 404', 'L39 WebFetch of a docs page (read-only); the agent fetched the docs index instead'),
             n('constraint', 'no remove this again', "L130 one-shot edit of the proposed JSON (drop the commit sha), applied in the approved plan; not a standing rule"),
             n('constraint', 'I think by file is to much', 'a hedged opinion about the design, no imperative'),
         ],
         notes='Summary quotes every user message verbatim.'),
    dict(verdict='degrade',
         open=[c('commitment', 'can you check if we got the right amount of lines',
                 "L494 user request the agent was executing when the user interrupted (L514) and explained the reset (L516); summary 'Current Work' covers the 627 vs 77 discrepancy and quotes L516")],
         losses=[],
         not_owed=[
             n('error', 'countLines', 'L238 build error (redeclared countLines) fixed by renaming; tests pass at L265'),
             n('error', 'Exit code 1', 'lint/test/build failures at L267, L350, L449, L464 each fixed and rerun green before L481'),
             n('commitment', 'update the metadata.json for the last checkpoint', 'L485 request whose first tool call the user rejected with STOP (L491) and then replaced by another question: the user dropped it'),
             n('commitment', 'Run tests and verify with actual commit', 'completed in the last TodoWrite (L478)'),
             n('constraint', 'ok, do nothing', 'L305 decision that auto-commit gets no attribution; nothing to do, and the summary states it anyway'),
             n('constraint', 'no remove this again', 'one-shot design edit from compaction 1, embodied in the code; absence from this summary is not a loss'),
         ],
         notes="The user's last message (L516) is a question left unanswered; the summary quotes it. Summary says 'Pending Tasks: None', which matches the source."),
    dict(verdict='degrade',
         open=[c('commitment', 'actualHumanRemoved',
                 "addressing the pasted reviewer feedback (L863): the fix was applied at L869 but tests were not run; summary 'Current Work' shows the change and 'Optional Next Step: Run tests and lint'")],
         losses=[],
         not_owed=[
             n('error', 'Found 2 matches of the string to replace', 'L648 Edit retried with unique context (L650)'),
             n('error', 'Exit code 126', 'L811 combined shell command; split into separate commands right after (L813-L820)'),
             n('error', 'File has not been read yet', 'L837 Edit retried after Read (L842)'),
             n('constraint', 'got this feedback', 'L863 pasted reviewer text, not the user\'s own rule'),
             n('commitment', 'Write multi-step integration test for prompt attribution', 'completed in the last TodoWrite (L754)'),
         ],
         notes='Three auto compactions in one 2.1.7 session; each summary keeps all user messages.'),
]

L['cc-2.1.17-entire-carry-forward-tasknotif'] = [
    dict(verdict='degrade',
         open=[c('commitment', 'create a content-aware function for carry-forward',
                 "L315, answering 'yeah let's apply this to carry forward too': function and tests written, tests not yet run; summary 'Pending Tasks: Run the new tests' and 'Current Work'")],
         losses=[],
         not_owed=[
             n('handle', 'ae499f1', 'one of four async review agents (ae499f1, a3e3b71, a7470ed, aef3bf6); each finished with a <task-notification> user message (L34, L42, L50, L58) before the boundary'),
             n('handle', 'aef3bf6', 'async review agent, finished by task-notification at L58'),
             n('constraint', 'has to much risk of false positive', 'L162 a decision not to handle the stash case, no imperative'),
         ],
         notes='2.1.17 async agents complete through <task-notification> user lines (queue-operation enqueue + dequeue before each). The three Task tool results sit on sibling branches of the parallel tool_use lines (same message.id), so a single parent walk misses them.'),
    dict(verdict='degrade',
         open=[
             c('commitment', 'Redaction consistency', "item 1 of the user's six-item list (L568), not started; summary 'Pending Tasks: Item 1'"),
             c('commitment', 'submitWithTranscriptPath', "item 3 of the list, investigation done, not implemented; summary 'Pending Tasks: Item 3'"),
         ],
         losses=[],
         not_owed=[
             n('error', 'Exit code 1', 'L370 mise run test failure (StepCount) fixed; full suite green at L487-L497'),
             n('commitment', 'Missing unit tests for stagedFilesOverlapWithContent', 'item 2, tests added by the Edit at L631; the summary lists it as completed'),
             n('commitment', 'Linear index scan', 'item 5, fixed by the Edit at L618'),
         ],
         notes='Items 4 and 6 were checked and needed no change; the summary says so.'),
]

L['cc-2.1.19-entire-explain-auto-manual'] = [
    dict(verdict='degrade',
         open=[
             c('commitment', 'Let me fix both', "L534: the nolint comment was re-added (L535) but the goconst warnings in common_test.go were still unfixed; summary 'Pending Tasks: Fix remaining goconst lint warnings in test file'"),
             c('identifier', 'ENT-109', 'the Linear issue of the work; summary names it'),
         ],
         losses=[],
         not_owed=[
             n('constraint', "make sure it's in Project: Troy", 'L242 one-shot instruction for creating the Linear issue, fulfilled by create_issue (ENT-129) at L244'),
             n('constraint', 'tests tests tests', 'queued user nudge (L382) about the current change, no imperative cue; satisfied when tests were added (L483-L523)'),
             n('error', 'File does not exist', 'L134 Read of a missing test file (read-only); globbed for the right one'),
             n('error', "The user doesn't want to proceed with this tool use", 'user-rejected edits/commands at L155, L172, L220, L298, L508, each with a question or STOP that the agent then answered'),
             n('error', 'Exit code 1', 'L398 lint failure fixed; lint clean at L427'),
         ],
         notes="The summary lists 'Run integration tests' (the user had just rejected that run with STOP at L508) and 'Commit the changes' (never requested) as pending: unsourced pending items, worth a warning but not a DESIGN loss."),
    dict(verdict='degrade',
         open=[],
         losses=[],
         not_owed=[
             n('commitment', 'commit this', 'done at L725-L726 (0535c28)'),
             n('commitment', 'push it', 'done at L738-L750'),
             n('constraint', "make sure it's in Project: Troy", 'one-shot instruction from the previous span, fulfilled'),
             n('constraint', 'tests tests tests', 'nudge from the previous span, satisfied'),
             n('commitment', 'Let me fix both', 'the open item of compaction 1, closed at L549-L560 (lint passes)'),
         ],
         notes="Manual /compact with empty args after everything was committed and pushed; nothing is open and the summary says 'Pending Tasks: None'. The /compact command lines come after the summary in the file."),
]

L['cc-2.1.25-entire-explain-scope-manual'] = [dict(
    verdict='degrade',
    open=[c('constraint', 'the prompts we show should be scoped to that checkpoint',
            "L127 the user's rule for explain (and 'the same goes for the summary (for now)'); implemented, still governs later edits; summary quotes it")],
    losses=[],
    not_owed=[
        n('error', 'Path does not exist', 'L98 Grep in a non-existent directory (read-only); found the files with Glob'),
        n('error', 'Exit code 1', 'L286 failing TestFormatCheckpointOutput_Verbose fixed; suite and lint green at L302-L311'),
    ],
    notes="Manual /compact with focus 'let's do a review' (in <command-args> after the summary). Work complete at the boundary. One user message ('what do the transcript_identifier_at_start ... fields do then?') reached the model only as a queued prompt (queue-operation enqueue L79); the summary lists it.")]

L['cc-2.1.29-entire-autosummarise-auto-manual'] = [
    dict(verdict='degrade',
         open=[
             c('commitment', 'Add SummariseOptions to config.go', "task #1 in_progress (TaskUpdate L269); summary 'Pending Tasks' lists tasks 1-7"),
             c('commitment', 'Lint and final verification', "task #7 pending; in the summary's task list"),
             c('error', 'GetSummariseOptions', "L307 'the test references GetSummariseOptions but it's undefined' (compiler diagnostic) under investigation; summary 'Errors and fixes: Current Error'"),
             c('constraint', 'please use the british spelling', "L69; summary 'British spelling throughout'"),
             c('constraint', 'ensure we log', "L76 (error handling: log, don't block); summary 'Non-blocking: log errors' and the quote"),
             c('constraint', 'keep it local', "L193 (plans under docs/plans stay untracked); summary quotes 'intentional - keep it local!'"),
             c('identifier', 'ENT-96', 'Linear issue of the feature; named in the summary'),
         ],
         losses=[],
         not_owed=[
             n('handle', 'toolu_01GAtisFYtG8AtHcogG25KgB',
               "Grep at L308 has no tool_result on disk: the result line was never written (the boundary's logicalParentUuid a550a9e6... is absent from the file). The call had returned - the summary reports what it found (config.go:305) - so nothing is in flight"),
             n('error', 'File does not exist', 'L203 Read of a missing file (read-only)'),
             n('error', "The user doesn't want to proceed with this tool use", 'L222 user-rejected Write with a redirect (reuse explain.go helpers), followed'),
             n('constraint', "let's keep it simple for now", 'a hedge about scope, no imperative rule'),
         ],
         notes='Tasks (TaskCreate/TaskUpdate, 2.1.17+) instead of TodoWrite.'),
    dict(verdict='violate',
         open=[
             c('commitment', 'has that skill filtering been applied to entire explain as well',
               "L1065 the user's last question; the grep answered it but the user exited before the reply; summary 'Pending Tasks' and 'Optional Next Step'"),
             c('constraint', 'please use the british spelling', 'standing naming rule from L69; this summary never mentions it (it even writes "summarization")', carried=False),
             c('constraint', 'ensure we log', 'standing error-handling rule for the feature from L76; absent from the summary', carried=False),
             c('constraint', 'keep it local', 'L193 rule that docs/plans stay local; absent from the summary', carried=False),
         ],
         losses=[
             lost('constraint', 'please use the british spelling', 'dropped', "user's standing rule (L69), kept by summary 1, absent from summary 2"),
             lost('constraint', 'keep it local', 'dropped', "user's rule (L193) that plan docs stay untracked, absent from summary 2"),
             lost('constraint', 'ensure we log', 'dropped', "user's rule (L76) for the feature's error path, absent from summary 2; the rule is about a feature already implemented, so this loss is the least certain of the three"),
         ],
         not_owed=[
             n('handle', 'toolu_01GAtisFYtG8AtHcogG25KgB', 'same never-written Grep result as in compaction 1; still no tool_result on disk, still not in flight'),
             n('commitment', 'Lint and final verification', 'task #7 completed at L617 before this boundary; all seven tasks closed'),
             n('commitment', "let's mark the pr ready for review", "L832, then the user rejected the call with 'actually maybe let's test this first' (L835): deferred by the user, not owed"),
             n('error', 'exceeds maximum allowed size', 'L966 Read of a 3.1 MB file, retried with grep/sed'),
             n('error', "The user doesn't want to proceed with this tool use", 'user rejections at L809, L835, L956, L1030, each redirected'),
             n('error', 'Exit code 1', 'L996 test failure fixed; fmt/lint/test green at L1009'),
         ],
         notes="Manual /compact (empty args) after the user had /exit-ed twice and resumed. Summary 2 covers only the final question: its 'All user messages' has one entry, it says 'No errors encountered', and it drops the user's standing rules, PR #133 and ENT-96. PR #133 is left out of losses because no owed item clearly needs it (marking it ready was deferred by the user)."),
]

L['cc-2.1.37-entire-pr-stack-tasks'] = [
    dict(verdict='degrade',
         open=[
             c('commitment', 'Filter stale sessions in findSessionsForWorktree', "task #2 pending (TaskCreate L694); summary 'Pending Tasks' #2"),
             c('commitment', 'Fix log file routing using FindMostRecentSession', "task #3 pending; summary #3"),
             c('commitment', 'entire reset may not clean up session state files', "task #4 pending (user: 'add it to an investigate list'); summary #4"),
             c('commitment', 'fix it up', "L866: the broken integration test is fixed (PASS at L883) but the merge work is not yet verified/committed/pushed; summary 'Optional Next Step: Run full test suite, commit the merge, and push'"),
             c('identifier', '#174', 'the PR being worked on; in the summary'),
             c('identifier', 'ENT-250', 'Linear issue linked in the #172 comment; in the summary'),
         ],
         losses=[],
         not_owed=[
             n('commitment', 'Fix deferred condensation', "task #1 still 'pending' in the task list, but fixed in the parent PR #172 and merged at L829; the summary says 'RESOLVED in parent #172'"),
             n('error', 'Exit code 1', 'merge conflicts (L177, L742, L828) resolved; push rejection (L479) fixed by pull --rebase and pushed at L484'),
             n('error', 'Exit code 5', 'L509 jq quoting error; redone successfully at L513'),
             n('error', "The user doesn't want to proceed with this tool use", 'user rejections at L61, L163, L722 with redirects, all followed'),
             n('constraint', 'continue merge, then push', 'one-shot instruction, done'),
             n('constraint', "I'll handle it over there", 'L720 division of work; the comment was written at L732'),
         ],
         notes="Summary says 'The merge is uncommitted' although the merge commit was made at L829 (only the test fix is uncommitted): a factual slip that does not drop an item."),
    dict(verdict='degrade',
         open=[
             c('commitment', 'reinitialize logging after parsing stdin', "task #3 reopened in_progress at L1300; one of four handlers edited; summary 'Pending Tasks: Task #3 (reopened)' names the three remaining handlers"),
             c('commitment', 'entire reset may not clean up session state files', 'task #4 still pending; summary lists it'),
         ],
         losses=[],
         not_owed=[
             n('commitment', 'Filter stale sessions in findSessionsForWorktree', 'task #2 completed at L1249'),
             n('commitment', 'can we add test coverage for these bugs', 'queued user request (L1117), done by the tests added at L1164-L1223'),
             n('error', "The user doesn't want to proceed with this tool use", "L936 rejected git push ('we have more inbound changes coming from parent ...'); merged and pushed at L944-L991"),
             n('error', 'Exit code 1', 'lint failures L1073/L1197 and test failure L1210 each fixed and rerun'),
             n('error', 'File does not exist', 'L1274 Read of a wrong path (read-only) and its sibling error L1276'),
         ],
         notes='2.1.36 -> 2.1.37 upgrade inside the session (version field changes mid-file).'),
]

L['cc-2.1.42-entire-subagent-rebase'] = [dict(
    verdict='degrade',
    open=[
        c('commitment', 'check the test that referenced',
          "L630 'let me check the test that referenced sessionHasNewContentInCommittedFiles'; the grep's answer was seen but not acted on; summary carries it as 'Clean up stale comment ... still references sessionHasNewContentInCommittedFiles' and 'Run tests'"),
        c('identifier', '#323', 'the PR whose target was changed; in the summary'),
        c('identifier', 'dev1/one-to-one-checkpoints', 'new base branch; in the summary'),
    ],
    losses=[],
    not_owed=[
        n('handle', 'toolu_01PqFPQieZkkWPkBTZ6Vv3HJ',
          "Grep at L631 has no tool_result on disk: the result line (uuid fade137c..., the boundary's logicalParentUuid) was never written, only a progress line pointing at it (L632). The call had returned - the summary quotes what it found - so it is not in flight"),
        n('error', "The user doesn't want to proceed with this tool use", 'L555 rejected edit with a question, answered'),
        n('error', 'String to replace not found', 'L609 Edit retried after Read (L613)'),
        n('constraint', 'push it with force-with-lease', 'one-shot instruction, done'),
        n('constraint', "commit, but let's debug afterwards", 'one-shot instruction, commit made at L394-L395'),
    ],
    notes='Queued user messages reach the model via queue-operation enqueue/popAll (L321/L342) or enqueue/remove (L479/L537).')]

L['cc-2.0.67-erk-schema-migration-3x'] = [
    dict(verdict='degrade',
         open=[
             c('commitment', 'Phase 8: Skill/command docs updates', "in_progress in the last TodoWrite (L160); summary 'Pending Tasks' and the todo list"),
             c('commitment', 'Phase 10: Tests updates', 'pending; summary lists it'),
             c('commitment', 'Phase 11: Learned docs updates', 'pending; summary lists it'),
             c('commitment', 'Submit PR', "pending; summary 'Submit PR via erk pr submit'"),
             c('identifier', '7975', 'the plan issue; in the summary'),
         ],
         losses=[],
         not_owed=[
             n('handle', 'a8914fa', 'async Explore agent, read by TaskOutput (success) at L73-L74'),
             n('handle', 'ad38bd4', 'async agent, read by TaskOutput (success) at L191-L193'),
             n('constraint', 'NEVER', "the expanded /erk:plan-implement command text ('NEVER run direct GitHub CLI commands for PR operations') is an injected document, not the user's words; the user typed only the command"),
         ],
         notes='Headless run on GitHub Actions (cwd /home/runner/work/erk/erk); no human messages besides the slash command. The summary ends mid-sentence ("tests/unit/cli/commands/") - the 2.0.67 summary was cut off - and carries no transcript-path line.'),
    dict(verdict='degrade',
         open=[
             c('commitment', 'Run CI checks', 'in_progress in the last TodoWrite (L308); summary \'Rerun CI checks\''),
             c('commitment', 'Phase 11: Learned docs updates', 'pending; summary lists it'),
             c('commitment', 'Submit PR', 'pending; summary lists it'),
             c('error', 'pytest: FAILED', "L311 CI run by a Task agent reported a failing test (not an is_error result); fixes in progress, not rerun; summary 'Fix remaining migration test assertions' and 'Rerun CI checks'"),
         ],
         losses=[],
         not_owed=[
             n('error', 'File has not been read yet', 'L253 and L280 Write/Edit retried after Read'),
             n('commitment', 'Phase 10: Tests updates', 'completed in the last TodoWrite'),
         ],
         notes='The CI failure only exists as text in a Task result: an error extractor keyed on is_error or exit codes will not see it.'),
    dict(verdict='degrade',
         open=[c('commitment', 'Submit PR', "pending in the last TodoWrite (L483); summary 'Pending Tasks: Submit PR'")],
         losses=[],
         not_owed=[
             n('commitment', 'Phase 11: Learned docs updates',
               'in_progress in the last TodoWrite, but the four doc agents doing it (a89f109, a7b1adb, a6881d7, a4aec9a) all returned success by L564; the summary calls the phase complete, which is true (a strict status matcher would call it flipped)'),
             n('handle', 'a4aec9a', 'last of four async doc agents; TaskOutput timed out twice, then success at L564'),
             n('error', 'File has not been read yet', 'L424-L426 Edits retried after Read'),
             n('error', 'pytest failed', 'L393 Task-reported failure fixed; CI green at L479-L482'),
         ],
         notes="Summary 3's 'All User Messages' lists the previous summary and TodoWrite reminders as user messages. Summary again has no transcript-path line."),
]

L['cc-2.0.67-erk-rename-16-agents'] = [dict(
    verdict='degrade',
    open=[
        c('commitment', 'Step 3: Handle get_closing_text test fixture migration', "in_progress in the last TodoWrite (L336); summary 'Pending Tasks' Step 3"),
        c('commitment', 'Step 4: Update callers', 'pending; summary lists it with the two files'),
        c('commitment', 'Run CI verification', 'pending; summary lists it'),
        c('commitment', 'Submit PR', 'pending; summary lists it'),
    ],
    losses=[],
    not_owed=[
        n('handle', 'a277659', 'first of 16 async Task agents; TaskOutput not_ready at L132, success at L146'),
        n('handle', 'add8abe', 'async agent, TaskOutput success at L162'),
        n('error', 'File has not been read yet', 'L55 Edit retried after Read (L59)'),
    ],
    notes='16 async agents launched with run_in_background, all collected before the boundary; queue-operation enqueue/remove records carry their <agent-notification> texts. The 2.0.67 summary is cut off mid-sentence ("update the 2 ca").')]

L['cc-2.1.50-erk-dispatch-workflow'] = [dict(
    verdict='degrade',
    open=[c('commitment', 'erk pr submit',
            "the remaining lifecycle steps of the /erk:plan-implement instructions (signal ended, upload session, verify .impl, submit PR); from the command document rather than the agent's own words, but the work is unfinished without them; summary 'Pending Tasks' lists all four")],
    losses=[],
    not_owed=[
        n('handle', 'toolu_013XoLGpuxZmEZBW66hPY8Tk',
          "Task 'Re-run fast CI to confirm pass' at L414 has no tool_result on disk (the boundary's logicalParentUuid ff35bce9... is absent). It had returned: the summary reports 'Second make fast-ci run passed'"),
        n('handle', 'b73149c', "queue-operation enqueue {task_id, tool_use_id, task_type: local_bash} at L22 tracks an ordinary foreground Bash call that returned at L24; these records are written for every Bash/Task call in 2.1.50 and are not background jobs"),
        n('error', 'Final Status: FAILED', 'L403 make fast-ci failure (one file needed reformatting) reported inside a Task result, not is_error; fixed by ruff format at L411'),
        n('commitment', 'Write tests for dispatch_workflow', 'task #6 completed at L347; all six tasks closed'),
    ],
    notes='Headless-style run driven by a slash command; the only user text is the command. Summary is faithful.')]

L['cc-2.1.56-erk-askuser-plan'] = [dict(
    verdict='degrade',
    open=[
        c('commitment', 'Create a plan PR',
          "the user's answer to AskUserQuestion L889 (known only from the summary, see not_owed) requires running /erk:plan-save; summary 'Pending Tasks' and 'Optional Next Step'"),
        c('constraint', 'eliminate "metadata_prefix" verbiage across codebase', "L564 naming rule; summary quotes it"),
        c('constraint', 'plan the change first', "L841; summary quotes it and describes the plan-mode flow"),
        c('identifier', '#8150', 'the PR of the branch; in the summary'),
        c('identifier', 'smooth-frolicking-quasar.md', 'the plan file; in the summary'),
    ],
    losses=[],
    not_owed=[
        n('handle', 'toolu_0116Jxvs4DGRAnysi6UU5VBQ',
          "AskUserQuestion at L889 has no tool_result on disk: the result carrying the user's choice was never written (boundary logicalParentUuid fccdc663... absent). The user had answered - the summary records 'Selected Create a plan PR (Recommended)' - so it is not in flight; but a checker reading the file cannot verify that choice"),
        n('error', 'PreToolUse:ExitPlanMode hook error', "L884 a hook's instruction (display the plan, then ask), followed at L885-L889; not a failure"),
        n('error', 'make lint', 'L764 lint failure reported by a Task agent, fixed; fast-ci green at L809'),
        n('error', 'File has not been read yet', 'L171 Edit retried after Read'),
        n('constraint', 'yeah rename it to plan_header_block', 'L446 one-shot instruction, done'),
    ],
    notes="The summary contains facts that exist nowhere on disk (the user's AskUserQuestion answer). Tasks (TaskCreate/TaskUpdate) all completed before the boundary.")]


# ---------------------------------------------------------------------------
# Second batch (13 files): marot/spotter (5), entireio/cli (7), dagster-io/erk (1).
# ---------------------------------------------------------------------------

L['cc-2.1.39-spotter-otel-manual-dialyzer'] = [dict(
    verdict='degrade',
    open=[
        c('error', 'Pre-commit validation failed',
          "L1463 the commit of spotter-4te.3 (git commit --no-verify, toolu_013pG5nAvZqKznWmBjiRXqVm) was blocked by the PreToolUse pre-commit hook's [DIALYZER] check, the seventh blocked attempt (L1209-L1463); no commit succeeded afterwards; summary 'Dialyzer false positive (UNRESOLVED)', 'This blocks committing task spotter-4te.3 changes'"),
        c('identifier', 'otel_trace_helpers.ex',
          "one of the four uncommitted files of spotter-4te.3 (with session_hook_controller.ex, hooks_controller.ex, .dialyzerignore); the summary lists all four as NOT committed"),
        c('commitment', 'spotter-4te.4: Enable opentelemetry_ash',
          "L1473 'The remaining tasks are: spotter-4te.4 ... spotter-4te.5 ... spotter-4te.6'; summary 'Pending Tasks' lists the three"),
    ],
    losses=[],
    not_owed=[
        n('commitment', 'Closed spotter-4te.3',
          "L1465 the agent closed bead spotter-4te.3 with bd close although its commit was blocked, then claimed '✅ Task 3' (L1473): an unsupported completion in the source. A checker must not read the bd close as discharging the commit; the summary rightly says 'closed in beads but code NOT committed'"),
        n('error', 'String to replace not found in file', 'L259 and L1300 Edits retried after a Read (L266, L1306)'),
        n('error', '[FORMAT] Code is not formatted', 'L661 pre-commit format check; mix format (L663) and the commit succeeded (L672)'),
        n('error', 'permission denied', "L916 'source' of a shell helper under zsh; rerun inside bash -c at L918 and passed"),
        n('constraint', 'continue with the reamining tasks',
          "the focus text of the manual /compact (<command-args>, written after the summary): an instruction to the compactor and the continuation, not a standing rule of the user"),
    ],
    notes="Manual /compact (trigger manual, preTokens 142431). The only human message is the bead request (L7); every other user-role line is a skill expansion or hook feedback (PreToolUse pre-commit checks return is_error results starting 'Pre-commit validation failed'). The summary is more accurate than the agent's own last message: it keeps the blocked commit and the unresolved Dialyzer error open.")]

L['cc-2.1.39-spotter-tail-autobg'] = [dict(
    verdict='degrade',
    open=[
        c('commitment', 'continue until all are done',
          "L671 user; three of the four subtasks were committed and pushed, spotter-a0y.4 was in progress at the boundary; summary quotes the message and lists a0y.4 as IN PROGRESS with its remaining steps"),
        c('identifier', 'spotter-a0y.4', 'the subtask in progress; named in the summary'),
    ],
    losses=[],
    not_owed=[
        n('handle', 'b7b23b2',
          "L313 a foreground Bash (mix test, timeout 60000, no run_in_background) came back as 'Command running in background with ID: b7b23b2' (toolUseResult.backgroundTaskId): Claude Code moved it to the background at its timeout. TaskOutput read it to completion at L392 (exit 0); the <task-notification> queued at L390 was delivered as a user line at L664 and the agent called it stale (L665). Closed long before the boundary"),
        n('commitment', 'Want me to continue with it?', 'L658 a question to the user, answered by L671'),
        n('error', 'Exit code 2', 'credo findings (L401, L494; Exit code 6 at L519) fixed with an inline credo:disable; the test failure at L1032 fixed and rerun (L1057-L1068)'),
        n('error', 'has no upstream branch', 'L639 git push; git push --set-upstream at L640 succeeded'),
        n('error', 'beyond a symbolic link', 'L1105 git add of a path under _build; the real priv/ path was added and committed at L1115'),
        n('error', '[FORMAT] Code is not formatted', 'L1358 pre-commit format check; mix format and the commit succeeded (L1359-L1367)'),
    ],
    notes="No TodoWrite/Task tools: the work list lives in the beads tracker (bd). Summary is faithful.")]

L['cc-2.1.39-spotter-annotations-queued'] = [dict(
    verdict='degrade',
    open=[
        c('commitment', 'new beads for the epic were added. tackle them',
          "a user message that exists only as a queue-operation (enqueue L603, remove L604); gqc.4 and gqc.5 committed, gqc.6 claimed in_progress (L1188) with code edits but no tests or commit, gqc.7 open; summary quotes it and lists gqc.6 and gqc.7 as pending"),
        c('identifier', 'spotter-gqc.6', 'the bead in progress; named in the summary'),
    ],
    losses=[],
    not_owed=[
        n('handle', 'bd0afab',
          "L445 foreground mix test (timeout 30000) auto-backgrounded at its timeout (toolUseResult.backgroundTaskId, no run_in_background); TaskOutput success at L522. Its <task-notification> was enqueued at L520 but reached the conversation only at L1847, after the boundary: a late notice for a job already read, not an orphaned result"),
        n('handle', 'b0be39e', "L202 mix deps.compile, auto-backgrounded the same way; completed and announced by the user-role <task-notification> at L496"),
        n('error', "The user doesn't want to proceed with this tool use",
          "L494 the user interrupted a blocking TaskOutput wait ('[Request interrupted by user for tool use]') and queued 'check again'; the agent tailed the output and TaskOutput returned success at L522"),
        n('commitment', 'check again', 'queued one-shot request (enqueue L497), done at L500-L522'),
        n('error', 'has no upstream branch', 'L615 git push; --set-upstream push at L616 succeeded'),
        n('error', 'undefined function get/2', 'L945 test compile error fixed by importing Phoenix.ConnTest (L951)'),
        n('error', 'Exit code 2', 'test failures at L988, L1035, L1111 fixed one by one; the 5 tests pass at L1141, suite and credo green at L1157-L1167'),
    ],
    notes="The summary says gqc.4 and gqc.5 were 'Committed and pushed'; they were only committed (ceff8c3 L824, bb53fb4 L1186) - the only push before the boundary is L616 for the first batch. No push was promised for them and the next push (L1379) published them, so the slip drops no owed item. Two user messages exist only in queue-operation records ('check again', 'new beads ... tackle them'); the summary lists both.")]

L['cc-2.1.39-spotter-sidecar-unwritten-call'] = [dict(
    verdict='degrade',
    open=[
        c('commitment', 'Implement debug JSON sidecar and expand controls',
          "spotter-dov.3 claimed in_progress at L700; transcript_computers.ex and transcript_components.ex rewritten (L731, L743) but nothing compiled, tested or committed; summary 'Pending Tasks' lists dov.3 with the remaining steps"),
        c('error', 'Access.get/2 inside',
          "known only from the summary: after the Write at L743-L753 the model compiled (and ran credo) in a call whose tool_use and result were never written - the boundary's logicalParentUuid 459e838f... names a record that is not in the file. Summary 'CURRENT: Cannot invoke Access.get/2 inside guard' and the credo nesting error; both fixed after the boundary (L763-L800)"),
    ],
    losses=[],
    not_owed=[
        n('handle', '459e838f-d7ea-4f7d-94ad-2cb4d227dc77',
          "the boundary's logicalParentUuid; unlike the usual case no tool_use is left without a result - a whole call (use and result) is missing, so there is no call id to track and nothing in flight"),
        n('handle', 'b7636e2',
          "L382 SessionLive tests auto-backgrounded at the 60 s timeout; TaskOutput success at L461. The notification enqueued at L459 was delivered only at L1502, after the boundary, and the agent re-read the finished output (L1503)"),
    ],
    notes="The file's active chain cannot be walked across this boundary (the logicalParentUuid is absent), so every pre-boundary record looks off-chain to a parent walk; fall back to file order. Both user messages ('Work on bead spotter-dov ...', 'continue') are in the summary.")]

L['cc-2.1.39-spotter-highlight-autobg'] = [dict(
    verdict='degrade',
    open=[
        c('commitment', 'Integrate highlight.js for transcript code blocks',
          "spotter-fum.3 claimed in_progress (L631); npm install, app.js, session_live.ex and CSS edited, not compiled/tested/committed; summary 'Pending Tasks' (code changes made but NOT yet compiled, tested, or committed)"),
        c('identifier', 'spotter-fum.4', "the next bead of the epic (blocked by fum.2/fum.3); summary lists it as open"),
    ],
    losses=[],
    not_owed=[
        n('handle', 'be613ab',
          "L217 renderer tests auto-backgrounded at the 60 s timeout; TaskOutput timed out twice (L275, L280) and returned success at L286. The notification enqueued at L284 was delivered only at L1588, after the boundary"),
        n('error', 'exceeds maximum allowed tokens', 'L69 Read of a large fixture (read-only); read again with offset/limit'),
        n('error', "ambiguous argument 'main..HEAD'", "L321 the commit skill's preprocessing command failed (the repo has no main branch); the commit went ahead at L330"),
        n('error', 'paths are ignored by one of your .gitignore files', 'L568 commit refused for a gitignored CSS file; git add -f and the commit succeeded (L606-L613)'),
    ],
    notes="Summary is faithful. As in the other 2.1.39 spotter sessions, the pre-boundary background job's completion notice is delivered after the compaction.")]

L['cc-2.1.25-entire-rewind-tests-2x-unwritten'] = [
    dict(verdict='degrade',
         open=[
             c('commitment', 'tests are still failing run',
               "L80 user: 'unrelated to the scripts, but tests are still failing run \"mise run test:ci\"'; still failing at the boundary; summary quotes it and 'Pending Tasks: Continue updating integration tests'"),
             c('error', '[test:ci] ERROR task failed',
               "L358 mise run test:ci | tail (exit 0 through the pipe, so not is_error): FAIL TestSubagentCheckpoints_FullFlow, TestRewind_DifferentSessions, TestRewind_MultipleConsecutive; no passing run since; summary 'Tests still failing after core fix'"),
             c('commitment', 'Let me update the tests to handle the new format',
               "L360; one test file updated (L366), the grep for the rest had just run; summary 'Current Work' and 'Optional Next Step'"),
         ],
         losses=[],
         not_owed=[
             n('handle', 'toolu_01HfyW6pMYmjJb5JV4PA8gK6',
               "Grep at L381 has no tool_result on disk (the boundary's logicalParentUuid is absent); the summary quotes its output (files and line numbers), so it had returned"),
             n('error', 'Sibling tool call errored', 'L17 build cancelled because the parallel lint call failed; lint clean at L45, tests run at L49'),
             n('error', 'lines are duplicate of', 'L16 lint (dupl) fixed by merging the two tests; lint reports 0 issues at L45'),
             n('error', 'File does not exist', 'L108 Read of a missing test file (read-only); found with Glob'),
             n('commitment', 'make a copy of scripts/test-attribution-e2e.sh', 'L56 request done: both scripts written before the boundary; the summary lists them as created'),
         ],
         notes='Test failures only show as text in piped (| head / | tail) results that exit 0; an is_error-based extractor sees none of them.'),
    dict(verdict='degrade',
         open=[
             c('error', 'Expected at least 2 rewind points, got 1',
               "known only from the summary: the test:ci run at L796 (toolu_01E39MtwEGUMCeyY4R7i9j2D) has no result on disk; the last run on disk (L761) ends '[test:ci] ERROR task failed'. Summary 'Current Work' quotes the two failing assertions"),
             c('constraint', 'rewind should not bother with the old one',
               "L770 the user's design rule (rewind only sees the active shadow branch); summary quotes the message in full and bases the pending work on it"),
             c('commitment', 'tests are still failing run',
               "the L80 request is still unmet (tests failing); summary 2 drops the old messages from 'All user messages' but keeps the work: 'The tests need to be updated to reflect the new behavior'"),
         ],
         losses=[],
         not_owed=[
             n('handle', 'toolu_01E39MtwEGUMCeyY4R7i9j2D', "Bash test:ci at L796 with no tool_result on disk (logicalParentUuid absent); the summary quotes its output, so it had returned"),
             n('handle', 'toolu_01HfyW6pMYmjJb5JV4PA8gK6', "the never-written Grep result from compaction 1; still not in flight"),
             n('error', '[Request interrupted by user]', 'L768 the user interrupted after the lint call had returned, to give the L770 clarification'),
             n('commitment', 'Let me update the tests to handle the new format', "compaction 1's narration; superseded by the user's L770 clarification and the code change at L788-L793"),
         ],
         notes="Two auto compactions, each after a tool call whose result line was never written. Summary 2's 'All user messages' has only the L770 message and a placeholder for the earlier session; its 'Optional Next Step' says to ask the user, although the continuation text says not to."),
]

L['cc-2.1.39-entire-wingman-plan-pending-edit'] = [dict(
    verdict='degrade',
    open=[
        c('commitment', 'Add tests for new wingman functionality', "task #6 in_progress (TaskUpdate L526); summary 'Pending Tasks: Task 6 (in_progress)'"),
        c('commitment', 'Run fmt, lint, and full test suite', "task #7 pending; summary 'Task 7 (pending)' and 'Optional Next Step'"),
    ],
    losses=[],
    not_owed=[
        n('handle', 'toolu_012F8XWXYYV3iE2nWAjnQkPP',
          "Edit of wingman_test.go at L533 has no tool_result on disk (the boundary's logicalParentUuid is absent); the summary records the eight tests as written, so the edit had returned"),
        n('error', "The user doesn't want to proceed with this tool use",
          "L377 ExitPlanMode rejected with a question ('what if the we do --continue but the user quickly send another prompt'); answered, plan approved at L393"),
        n('error', 'File does not exist', 'L7 Read in the wrong repository (read-only); the siblings L9/L11 were cancelled with it'),
        n('error', 'Sibling tool call errored', 'L9, L11 parallel Reads cancelled by the failed L7 Read'),
        n('constraint', 'Be critical',
          "part of the hook text the user pasted into L4 ('UserPromptSubmit says: ... Be critical. When done, delete .entire/REVIEW.md'): a document, not the user's rule"),
        n('commitment', 'Add shouldSkipPendingReview for stale review cleanup', 'task #2 completed at L463'),
    ],
    notes="Plan mode: the plan went through one rejected ExitPlanMode before approval. Tasks (TaskCreate/TaskUpdate with addBlockedBy).")]

L['cc-2.1.39-entire-wingman-lint-only-in-summary'] = [dict(
    verdict='degrade',
    open=[
        c('commitment', "There's new feedback in @.entire/REVIEW.md",
          "L571 request; all six fixes applied, verification run pending; summary 'Pending Tasks' and 'Optional Next Step' quote it"),
        c('error', 'errcheck',
          "known only from the summary: the fmt+lint run at L636 (toolu_016hz5dwojsKwsTbTyJAKcgC) has no result on disk; the last lint on disk (L540) was clean. Summary 'CURRENT: 2 errcheck lint errors' at wingman.go:265 and wingman_review.go:301; fixed after the boundary"),
    ],
    losses=[],
    not_owed=[
        n('handle', 'toolu_016hz5dwojsKwsTbTyJAKcgC', "Bash at L636 with no tool_result on disk; the summary quotes its output, so it had returned"),
        n('constraint', "Write the plan to a temporary Plan file, don't commit",
          "a user message that exists only as a queue-operation (enqueue L454, remove L457) during 'Commit the changes'; obeyed at L459-L464 and superseded by 'Commit and empty the REVIEW.md file' (L545), committed as d13528a1 at L558"),
        n('constraint', 'make sure you review it carefully for validity first', 'L571 one-shot instruction for that review, carried out (each issue assessed at L574 before fixing)'),
        n('commitment', 'Commit and empty the REVIEW.md file',
          "L545 done at L557-L563. The summary's pending 'The REVIEW.md needs to be emptied (user's previous pattern ...)' is an inferred item nobody asked for this round (unsourced pending, worth a warning, not a loss)"),
        n('error', 'Exit code 1', 'lint and test failures at L266, L311, L412 each fixed; everything green at L540'),
    ],
    notes="The open error of this boundary exists only in the summary, because the result of the call that produced it was never written.")]

L['cc-2.1.20-entire-ai-summaries-merge-rejections'] = [dict(
    verdict='degrade',
    open=[
        c('commitment', 'update this branch from dev2/ent-109-text-output-checkpoint-flag first',
          "L954 user: '... first, then let's tackle #10'; merge started (L966), conflict edited, build broken; summary quotes it and lists both steps as pending"),
        c('error', 'CONFLICT (content): Merge conflict in cmd/entire/cli/checkpoint/checkpoint.go',
          "L967; the markers were edited out (L980) but the merge was not concluded; summary 'Current merge conflict: Resolving merge'"),
        c('error', 'syntax error: unexpected keyword type',
          "L984 build after the conflict edit fails; the agent was reading the file at the boundary; summary 'left a syntax error - missing closing brace'"),
        c('commitment', 'Refactor summarize code into separate package', "task #10 pending (TaskCreate L376); summary 'Pending Tasks: #10'"),
        c('constraint', "don't check this in", "L103 the user rejected committing the design doc with these words; summary quotes it ('about design doc')"),
        c('constraint', 'prefer subagents to save on the main context', "L295 rejection text; summary quotes it and 'Used subagents for development work per user preference'"),
        c('constraint', 'stick to the workflow of subagent dev and review', 'L451; summary quotes it'),
        c('constraint', "let's not do the nuclear thing", "L734 rejection of 'claude --print --dangerously-skip-permissions'; summary quotes it with its subject"),
        c('identifier', 'ENT-108', 'the Linear issue of the branch; in the summary'),
    ],
    losses=[],
    not_owed=[
        n('error', 'Entity not found', "L11 Linear lookup of MCP-108, the user's typo; the user re-sent ENT-108 at L15"),
        n('error', 'Input must be provided either through stdin', 'L742 claude --print without input; the stdin variant at L744 worked'),
        n('error', 'cannot write multiple packages to non-directory', 'L801 go build -o with ./...; rebuilt with main.go at L803'),
        n('error', 'File does not exist', 'L174 Read of a guessed path (read-only); found with Glob'),
        n('constraint', "are these 'any's really the way to go?", "L263 a question in a rejection; the outcome (keep interface{}) is recorded in the summary"),
        n('constraint', 'write me a linear issue in Project:Troy', 'L839 one-shot request, done (ENT-140, L844)'),
        n('commitment', 'commit, push, create draft PR', 'L668 request done (commit L607, gh pr create --draft L691)'),
    ],
    notes="Many user rules arrive as the text of rejected tool calls ('To tell you how to proceed, the user said: ...') and as queued prompts (enqueue + popAll/remove); the summary's 'All User Messages' lists them all, including the queued 'can we do this in a subagent? - also WRITE TESTS'.")]

L['cc-2.1.38-entire-gemini-path-plan-mode'] = [dict(
    verdict='degrade',
    open=[
        c('commitment', 'Make a plan to fix that path only for gemini sessions',
          "L731 user (in plan mode); two Explore agents had returned, the plan file still held the old plan; summary 'Pending Tasks' and 'Optional Next Step' quote it"),
        c('constraint', 'Do not fallback, if session metadata does not have agent',
          "L425 the user's rule for restore (skip sessions without agent metadata, with a warning); still governs the code; summary quotes it"),
        c('identifier', 'tingly-shimmying-tiger.md', 'the plan file to overwrite; named in the summary'),
    ],
    losses=[],
    not_owed=[
        n('constraint', 'we should at least log that sessions that are skipped',
          "L582 request, implemented at L595, then undone by the user's own edit of classifySessionsForRestore (summary: 'User edited classifySessionsForRestore directly: Removed warning messages'): superseded. The summary's 'All user messages' omits this message - a gap in the list, not an owed item"),
        n('constraint', 'that warn does not sound rigth', 'L637 one-shot correction of a warning text, applied at L639'),
        n('commitment', 'fix test', 'L650 request done: the failing test passes at L682'),
        n('error', 'Exit code 1', "lint failures (L173, L299), test:ci failures (L260, L537) fixed; the lint failure at L604 consists of 6 ireturn/goconst findings the agent showed to be pre-existing (L606-L610), test:ci green at L630"),
        n('handle', 'ad74d4d', 'foreground Explore Task (L692) that returned with status completed at L724; likewise a0f0503 and af791f7 at L840/L843'),
    ],
    notes="The boundary's logicalParentUuid is absent from the file but no tool_use lacks a result: the unwritten record is not a tool result. Plan mode, with ExitPlanMode rejections after the boundary.")]

L['cc-2.1.33-entire-state-machine-askuser'] = [dict(
    verdict='degrade',
    open=[
        c('commitment', 'update the local doc',
          "L545 ExitPlanMode rejection: 'exit edit mode, update the local doc - then I'll instruct the next steps'; the plan was approved at L547 but docs/plans/2026-02-06-session-phase-state-machine.md not yet updated; summary 'Pending Tasks' and 'Optional Next Step'"),
        c('constraint', "then I'll instruct the next steps", "same message: stop after the doc update and wait; summary 'Then await user's instructions for next steps'"),
        c('constraint', 'the state change from ACTIVE_COMMITED to IDLE _needs_ to condense', 'AskUserQuestion answer at L134; summary quotes it'),
        c('constraint', 'we should go straight into IDLE, not UNINITIALIZED', 'L479 rejection text (reentrant sessions); summary quotes it'),
        c('identifier', 'ENT-221', 'one of the two Linear issues of the design; in the summary'),
        c('identifier', 'prancy-noodling-ember.md', 'the approved plan file the repo doc must be synced from; in the summary'),
    ],
    losses=[],
    not_owed=[
        n('error', 'The user wants to clarify these questions', "AskUserQuestion results at L63, L379, L495 where the user chose to clarify; not failures, each followed by a reformulated question"),
        n('error', "The user doesn't want to proceed with this tool use", 'ExitPlanMode rejections (L319, L370, L406, L417, L479, L491, L545), each carrying the user\'s redirect; all followed, plan approved at L547'),
        n('error', 'String to replace not found in file', 'L536 Edit of the plan file retried with the right heading (L540)'),
        n('commitment', "let's write this plan down, then continue discussion", 'L417 request, done (plan written; location chosen at L420)'),
    ],
    notes="A brainstorm in plan mode: only five typed prompts; the rest of the user's input is AskUserQuestion answers ('User has answered your questions: ...'), ExitPlanMode rejection texts and queued prompts (enqueue + popAll/remove). The summary lists all of them.")]

L['cc-2.1.20-entire-pr-replies-microcompact-2x'] = [
    dict(verdict='degrade',
         open=[],
         losses=[],
         not_owed=[
             n('constraint', 'skip 5, 7, 8 and do the rest', 'L174 one-shot selection, carried out: fixes committed as 3696270 (L341) and replies posted (results L357-L370)'),
             n('commitment', 'reply to the PR comments referencing fix commit shas', 'L85 request, done for both batches before the boundary'),
             n('error', '[Request interrupted by user]', 'L121 the user stopped the turn to resend the request with more detail (L123)'),
         ],
         notes="Nothing open. A system/microcompact_boundary line (L371; microcompactMetadata trigger auto, preTokens 78208, tokensSaved 38535, compactedToolIds [...]) comes right before the compact_boundary: old tool results were cleared from context just before the full compaction. The summary says 3696270 'was pushed'; it was not (post-boundary git status: ahead by 1; pushed at L384) - no push was requested for this batch, so no owed item. After the boundary the agent re-posted replies to ~10 comments already answered at L357-L370 (L555-L576): the summary said the replies were done but gave no comment ids, and a non-paginated query (30 comments) made them look unanswered. Closed items need not be kept under DESIGN, so this harm is outside the item kinds."),
    dict(verdict='degrade',
         open=[],
         losses=[],
         not_owed=[
             n('constraint', 'skip 2738999818 (but respond as per previous response)', "L691 one-shot, done: 'Won't fix' reply at L791"),
             n('commitment', 'check with pagination', 'L677 one-shot request, done'),
             n('error', 'failed to parse jq expression', 'L536 shell-escaped jq filter; rewritten and rerun'),
             n('error', 'Parent comment not found', "L656 reply aimed at the agent's own reply id; the user named the right thread (rejection at L663) and the reply was posted at L668"),
             n('error', 'gh: Not Found (HTTP 404)', 'L609 lookup of a comment body (read-only); the code was read instead'),
         ],
         notes="Nothing open: commit 09bd59e pushed (L771-L783) and all seven replies posted before the boundary; the summary says so. 'my github user is khaong' (redacted to dev2-gh) is a typed user message carried as a text block inside the same user record as a tool_result (L548); the summary lists it. A second microcompact_boundary (L800) again precedes the compact_boundary."),
]

L['cc-2.0.67-erk-plan-helpers-2x-async'] = [
    dict(verdict='degrade',
         open=[
             c('commitment', 'Run affected tests and fix issues', "in_progress in the last TodoWrite (L189); summary 'Re-run affected tests'"),
             c('commitment', 'Run CI checks (ty, ruff, full test suite)', 'pending; summary lists it'),
             c('commitment', 'Submit PR', "pending; summary 'Submit PR via erk pr submit'"),
             c('commitment', 'Let me clean up the imports', "L214; the Read returned (L216) but no Edit followed; summary 'Pending Tasks' and 'Current Work' name the four unused imports"),
             c('error', 'pytest failed: 1 issue found',
               "L192 a Task agent (a265c24) reported FAILED test_implement_from_issue_fails_without_erk_plan_label (text in a completed Task result, not is_error); the test was removed (L197) but nothing was rerun; summary 'Re-run affected tests to verify all fixes work'"),
             c('identifier', '8107', 'the plan / PR number; in the summary'),
         ],
         losses=[],
         not_owed=[
             n('handle', 'a0f3d42', 'async Task agent (isAsync) read with TaskOutput: not_ready, then success at L117'),
             n('handle', 'a4d45fb', 'async agent: not_ready, timeout, then success at L125'),
             n('handle', 'a0fdb86', 'async agent, TaskOutput success at L186; each completion also enqueued an <agent-notification> (queue enqueue/remove)'),
             n('error', 'Traceback (most recent call last)', 'L6 erk exec setup-impl failed because .impl/ already existed; the agent proceeded with the existing setup'),
             n('error', 'File does not exist', 'L49, L54 Reads of guessed paths (read-only); found the right files'),
             n('error', 'File has not been read yet', 'L83 Edit retried after Read'),
         ],
         notes='Headless /erk:plan-implement run on GitHub Actions; no human messages besides the command.'),
    dict(verdict='degrade',
         open=[
             c('error', 'PR body missing checkout footer',
               "L530 'erk pr check --stage=impl || true' (exit 0) reports [FAIL]; summary 'Pending Tasks' and 'Optional Next Step'"),
         ],
         losses=[],
         not_owed=[
             n('commitment', 'Submit PR',
               "in_progress in the last TodoWrite (L499), but its work was done by tool calls before the boundary (commit L518, push L523, gh pr edit 8107 L528, impl-signal submitted L520); the summary's 'PR has been submitted' is accurate (a strict status matcher would call it flipped)"),
             n('error', 'a pull request for branch', 'L525 gh pr create refused because PR #8107 exists; updated with gh pr edit at L528'),
             n('error', 'pytest failed: 1 test failure found', 'L304 and L366 Task-reported failures fixed; the later CI agents ran green or showed only pre-existing failures (git stash check)'),
             n('error', 'Found 7 matches of the string to replace', 'L329 Edit retried with replace_all / more context'),
             n('error', 'File has not been read yet', 'L360, L424 Edits retried after Read'),
             n('handle', 'ac22d9a', 'async CI agent (ty), TaskOutput success at L465'),
             n('handle', 'a8d73b3', 'async CI agent (unit tests), TaskOutput success at L469'),
             n('commitment', 'Please continue the conversation from where we left it off',
               "the previous summary's closing line, which summary 2 lists under 'All User Messages'; not a user request"),
         ],
         notes="2.0.67 summaries again list the previous summary's trailer and TodoWrite reminders as user messages."),
]


def text_of_file(path):
    out = []
    with gzip.open(path, 'rt', encoding='utf-8') as f:
        recs = [json.loads(l) for l in f if l.strip()]

    def walk(v):
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
    for o in recs:
        walk(o)
    return recs, '\n'.join(out).lower()


def main():
    root = sys.argv[1]
    cases = []
    bad = 0
    for name, comps in L.items():
        path = os.path.join(root, 'claude-code', name + '.jsonl.gz')
        recs, txt = text_of_file(path)
        bounds = [o for o in recs if o.get('type') == 'system' and o.get('subtype') == 'compact_boundary' and not o.get('isSidechain')]
        assert len(bounds) == len(comps), (name, len(bounds), len(comps))
        versions = sorted({o['version'] for o in recs if o.get('version')}, key=lambda v: [int(x) for x in v.split('.')])
        out = []
        for k, (b, lab) in enumerate(zip(bounds, comps), 1):
            for sect in ('open', 'losses', 'not_owed'):
                for it in lab[sect]:
                    if it['contains'].lower() not in txt:
                        print(f'MISSING {name} c{k} {sect}: {it["contains"]!r}')
                        bad += 1
            lost = {(x['kind'], x['contains']) for x in lab['losses']}
            for it in lab['open']:
                if not it['carried'] and (it['kind'], it['contains']) not in lost:
                    print(f'UNCARRIED-NOT-LOST {name} c{k}: {it["contains"]}')
                    bad += 1
            if lab['losses'] and lab['verdict'] != 'violate':
                print(f'VERDICT {name} c{k}')
                bad += 1
            md = b.get('compactMetadata') or {}
            out.append({'ordinal': k, 'boundary_hint': b['uuid'], 'trigger': md.get('trigger'),
                        'pre_tokens': md.get('preTokens'), 'version_at_boundary': b.get('version'), **lab})
        cases.append({'file': f'claude-code/{name}.jsonl.gz', 'runtime': 'claude-code',
                      'version': versions[-1] if len(versions) == 1 else f'{versions[0]}..{versions[-1]}',
                      'compactions': out})
    with open(os.path.join(root, 'labels-claude-code.json'), 'w') as f:
        json.dump({'cases': cases}, f, indent=1, ensure_ascii=False)
        f.write('\n')
    print(f'{len(cases)} files, {sum(len(c["compactions"]) for c in cases)} compactions, {bad} problems')
    sys.exit(1 if bad else 0)


main()
