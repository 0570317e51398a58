#!/usr/bin/env python3
"""Writes ../labels-claude-code.json: the hand labels of the realtest4 Claude Code split.

Labelled blind, by reading each source (tools/cc_dump.py, tools/tasks.py, tools/asyncs.py,
tools/bgjobs.py and the raw records) and its summary, following /work/shared/DESIGN.md. loupe was
not built or run on these files and its rule code was not read. Line numbers (Lnnn) are 1-based
lines of the raw (and redacted) file. Run: python3 tools/labels_cc.py (from realtest4/).
"""
import json, os

D = 'jeevanpillay/dual'
Y = 'yutakobayashidev/repiq'
U = 'ujuc/agent-stuff'


def it(kind, contains, why, **kw):
    d = {'kind': kind, 'contains': contains}
    d.update(kw)
    d['why'] = why
    return d


cases = []

# ---------------------------------------------------------------- dual, session d1c82db5
cases.append({
    'file': 'claude-code/cc-2.1.42-dual-v2-roadmap-phase1-test-fix.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.42', 'repo': D,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '04e60fdc-e260-4d91-b92d-77cf3c53e199',
        'trigger': 'auto', 'pre_tokens': 167010, 'verdict': 'degrade',
        'open': [
            it('commitment', 'Bug Fixes & Completions', carried=True,
               why='TaskCreate #2 "Phase 1: v2.1.0 — Bug Fixes & Completions" (L44/L45), set in_progress at L206 and never completed before the boundary (completed only at L405, after it): recorded. Summary: "Phase 1 (v2.1.0 — Bug Fixes & Completions) - IN PROGRESS", Pending Tasks (run cargo test, clippy, fmt, check off Phase 1 items) and Current Work'),
            it('commitment', 'implement_plan', carried=True,
               why='L3: the user\'s only message, /implement_plan @thoughts/shared/plans/2026-02-15-v2-to-v3-roadmap.md; Phase 0 done, Phase 1 under way (stated). Summary: Primary Request quotes the command and the plan path, section 8 says it was the only user message'),
            it('error', 'generate_rc_extra_commands_no_duplicates', carried=True,
               why="L339: cargo test exit 101, 'test shell::tests::generate_rc_extra_commands_no_duplicates ... FAILED' (89 passed, 1 failed). L342 edits the test; no rerun before the boundary, so the failure is still the last word on cargo test (stated). The summary names the failing test, the cause (pnpm() contains npm()) and the edit, and Pending Tasks / Next Step say to run cargo test again to verify. It says 'fixed by', but beside a pending rerun; read as carried (a fix applied, verification pending). After the boundary the rerun still fails (L351): the summary's next step is what surfaced it"),
            it('identifier', '2026-02-15-v2-to-v3-roadmap.md', carried=True,
               why='the plan file the open request and task work from (L3); the summary names it in Primary Request and section 1 of the analysis'),
        ],
        'losses': [],
        'not_owed': [
            it('handle', 'toolu_018JvPPjb6bzbuzn7Vpq2wvV',
               why='L342: the last Edit (the substring fix in src/shell.rs) has only its PostToolUse progress line (L343) before the boundary, no tool_result on disk: the unwritten last record seen in earlier splits. It had returned (the file holds the edit at L356); the summary shows the edited test. Not an in-flight call'),
            it('error', 'missing fields `anonymous_volumes` and `extra_commands` in initializer of `config::RepoHints`',
               why='L301: cargo test compile error in src/config.rs; fixed L306, and the rerun L310 no longer reports it'),
            it('error', 'this function takes 5 arguments but 3 arguments were supplied',
               why='L310: compile errors in tests/fixtures/mod.rs and tests/e2e.rs after the signature changes; fixed L312-L337, the rerun L339 compiles (its failure is the different test failure above)'),
            it('commitment', 'Phase 0: Linear Project Cleanup',
               why='TaskCreate #1 completed at L204; the summary lists Phase 0 under COMPLETED (not resurrected)'),
            it('constraint', 'Pause for human verification',
               why="L4: the /implement_plan skill's template text (pause after a phase for manual testing), expanded by the command, not the user's own words; the summary carries it anyway as 'Pause for manual verification (per plan instructions)'"),
            it('constraint', 'do not check off items in the manual testing steps',
               why='L4: same skill template, not a user rule'),
            it('identifier', 'DUAL-45',
               why='L123-L190: Linear issues DUAL-45…DUAL-59 created in Phase 0 (done); no open item depends on them'),
        ],
        'notes': '/implement_plan of a four-phase roadmap: Phase 0 (Linear cleanup) done, Phase 1 (six code changes) implemented, cargo test failing on one test whose fix had just been applied when the auto-compaction hit. The summary keeps the in-progress task, the failing test and the pending rerun/clippy/fmt. Degrade.',
    }],
})

# ---------------------------------------------------------------- dual, session b54b5261
cases.append({
    'file': 'claude-code/cc-2.1.42-dual-v3-plan-trait-tui-2x.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.42', 'repo': D,
    'compactions': [
        {
            'ordinal': 1, 'boundary_hint': '557aa0c8-bcbd-4209-96aa-995435a16fb2',
            'trigger': 'auto', 'pre_tokens': 168672, 'verdict': 'degrade',
            'open': [
                it('commitment', "I'll update that in the plan when we start implementing", carried=True,
                   why="L130: after the tmux-analysis agent reported, the agent promises to move session_name() from the MultiplexerBackend trait to config.rs in the v3 plan 'when we start implementing' (stated, with a condition not yet met). Summary: Key Technical Concepts and Problem Solving ('session_name() should move to config.rs'), Current Work ('One refinement was noted') and the Next Step list ('Move session_name() to src/config.rs')"),
                it('identifier', '2026-02-15-v3-multiplexer-trait-tui.md', carried=True,
                   why='L119: the v3 plan file the promise is about; named in the summary several times'),
            ],
            'losses': [],
            'not_owed': [
                it('commitment', 'Let me know when you want to proceed',
                   why="L130 (and 'Please review — any changes to the phasing…' at L122): a question/offer to the user, unanswered at the boundary. The summary lists Phase 1 as pending 'waiting for user approval'; after the boundary the runtime's own 'continue … without asking the user any further questions' line makes the agent start Phase 1 unapproved (L139). That is the runtime's continuation prompt, not a loss in the summary"),
                it('commitment', 'whats next from here?',
                   why='L74: the question, answered by the research and the v3 plan written at L119 and presented at L122'),
                it('handle', 'a0a4102',
                   why='async agent launched L12, completion notified (queue L53, user L66); likewise af6ec1c (L85 → L109/L127) and a62f6a8 (L89 → L114). All read to completion'),
                it('error', 'File does not exist',
                   why='L94: Read of a deleted research file (thoughts/shared/research/…tui-design.md); read-only exploration, the agent went on with Glob and other docs'),
                it('constraint', 'NEVER** read files partially',
                   why="L7: the /create_plan skill template expanded by the command, not the user's words"),
                it('constraint', 'Make configurable (Recommended)',
                   why='L54: an AskUserQuestion answer (node_modules volume) for the v2 roadmap, applied in that plan and its implementation; a decision, not a standing rule'),
                it('commitment', 'Phase 0: Linear Cleanup',
                   why='the v2 roadmap phases were done by the user/earlier sessions (the user checked them off and says "done with v2.2.0", L74); the summary reports them as completed'),
            ],
            'notes': 'A /create_plan session: v2 roadmap written earlier, the user reports v2.1/v2.2 done and asks what next; the agent researches (three async agents, all finished) and writes the v3 plan, then asks for review. Auto-compaction while idle. The summary keeps the plan, the noted session_name refinement and that approval is awaited. Degrade.',
        },
        {
            'ordinal': 2, 'boundary_hint': '60b5664b-0133-4977-bbdd-b4ae549735af',
            'trigger': 'manual', 'pre_tokens': 167318, 'verdict': 'degrade',
            'open': [],
            'losses': [],
            'not_owed': [
                it('commitment', "I'll update that in the plan when we start implementing",
                   why="L130 promise (open at compaction 1). When implementation started the agent carried out the refinement itself: session_name() added to config.rs (L178, L230-L233) and the trait left without it; the plan document was never edited but was committed as is (L306). The promise's object (the design change) is done in code; the summary records 'Session naming moved to config.rs'. Judged closed, not owed"),
                it('commitment', 'create new branch + pr associated with the linear issues',
                   why='L271: done, PR #135 for DUAL-55 (L300-L330)'),
                it('commitment', 'yes, start phase 2 in new branch and associate to linear issue',
                   why='L340: done, branch feature/dual-56-…, commit, push, PR #136, DUAL-56 set In Progress (L343-L447); the agent reports it done at L447'),
                it('commitment', 'whats next?',
                   why='L332: a question, answered at L335'),
                it('error', 'Diff in',
                   why="L249 and L420: cargo fmt --check reported diffs; cargo fmt was run and the checks passed (L253, L423/L427)"),
                it('identifier', 'pull/136',
                   why='PR #136 (and #135) created and reported; the summary lists merging them as pending, but nobody asked the agent to merge: no open item names them'),
            ],
            'notes': 'Phase 1 (multiplexer trait) implemented, PR #135; the user asks what next and to start Phase 2; TUI scaffold implemented, PR #136. Then the user runs /context and a manual /compact. Nothing owed was open; the summary lists manual verification, merges and Phase 3 as pending, none of which the agent had taken on. Degrade.',
        },
    ],
})

# ---------------------------------------------------------------- repiq, session e82ef922 (Japanese)
cases.append({
    'file': 'claude-code/cc-2.1.52-repiq-release-contributing-ja.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.52', 'repo': Y,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'ed5ec50c-50fb-4088-be9d-0953bbaad693',
        'trigger': 'auto', 'pre_tokens': 167277, 'verdict': 'degrade',
        'open': [
            it('commitment', 'コントリビューション', carried=True,
               why="L1314: 'コントリビューションガ\ufffdド書いて' (write a contributing guide; the source itself holds a U+FFFD in the word). The agent read AGENTS.md and docs (L1315-L1319) and wrote CONTRIBUTING.md (L1321, created L1323); no reply or claim yet when the compaction hit (stated, carried out, not yet reported). Summary: All User Messages quotes it, Current Work says the file is written, not committed; Next Step commits it"),
            it('constraint', 'まだv1リリースしたくない', carried=True,
               why="L1256: 'まだv1リリースしたくないんだけど' (I don't want to release v1 yet); the agent proposed v0.1.0 (A) and the user chose it (L1261), v0.1.0 released (L1309). A lasting preference for later releases (inferred: no imperative cue). Summary: All User Messages ('don't want v1 yet', 'Aにしよう (chose v0.x.x versioning)')"),
            it('commitment', 'brewはあとででいい', carried=True,
               why="L1209: the user defers Homebrew ('brew can come later'); inferred, a deferred request. Summary Pending Tasks: 'Homebrew tap setup for GoReleaser (user said \"brewはあとででいいけど\" — deferred)'"),
        ],
        'losses': [],
        'not_owed': [
            it('commitment', 'dotnix のコミットはここからは行いません',
               why="L947/L998: the agent says it will NOT commit dotnix (another repository): the user should commit and push it after repiq PR #20 merges. Not the agent's commitment. The summary nevertheless lists 'Commit and push dotnix changes' under Pending Tasks and its next step: a pending task with no commitment in the source (not a loss; after the boundary only CONTRIBUTING.md is committed before the file ends)"),
            it('commitment', 'リリースワークフローつくりたいな',
               why='L1185: release workflow built (GoReleaser + workflow, L1262), v0.1.0 tagged and released (L1266-L1309)'),
            it('commitment', 'これCIで検証したい',
               why='L697: skills-ref validate step added to CI, CI green (L746)'),
            it('error', 'ERROR codex_core::skills::loader',
               why='L154 (and L470 in the sibling session): a codex exec review failed on auth; the agent reviewed the spec itself and went on'),
            it('error', "pre-commit's script is installed in migration mode",
               why='L175/L186: commit hook failure; committed with --no-verify (L193), as every later commit'),
            it('error', "could not add label: 'docs' not found",
               why='L198: gh pr create with a missing label; the PR was created without it (PR #17 reviewed from L221)'),
            it('error', 'no checks reported on the',
               why='L473-L490, L714: gh pr checks before CI registered; CI then reported green (L491, L746)'),
            it('error', '[rejected]        main -> main (fetch first)',
               why='L1124: push rejected; git pull --rebase && git push succeeded (L1125)'),
            it('error', 'use of --visibility flag requires --accept-visibility-change-consequences',
               why='L1131: the agent asked the user (AskUserQuestion, answered "公開する"), then made the repository public with the flag (L1134)'),
            it('error', 'command not found: goreleaser',
               why='L1233: run through nix instead (L1234)'),
            it('error', 'uses deprecated properties',
               why='L1235: goreleaser check flagged archives.format; fixed (L1237), re-check passes (L1241)'),
            it('handle', 'a496309dbc9bc58d5',
               why='foreground Task agents (a496309dbc9bc58d5, aa7b22474755d4c26, a7e072da79fcb1d01, afebb5d93fffbf456, a8d8f82dcfd3f96c8) all returned (L74, L359, L536, L923, L1093)'),
        ],
        'notes': 'Japanese-speaking user, "kitchen" workflow plugin: Agent Skills epic, specs, PRs #17-#20, CI validation, dotnix integration (left to the user), repository made public, GoReleaser release v0.1.0, then CONTRIBUTING.md. The summary keeps the last request and its state, the v0.x choice and the deferred Homebrew. It adds a dotnix commit the agent had declined. Degrade.',
    }],
})

# ---------------------------------------------------------------- repiq, session 43511c41 (Japanese)
cases.append({
    'file': 'claude-code/cc-2.1.52-repiq-npm-provider-review-fix-ja.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.52', 'repo': Y,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'ba7ee9ce-ae19-46f8-b35b-76a9a32fae7c',
        'trigger': 'auto', 'pre_tokens': 167442, 'verdict': 'degrade',
        'open': [
            it('commitment', 'レビューきた', carried=True,
               why="L894: 'review came'; the agent fetched the Codex P1 review thread on PR #8 (scoped package URL encoding, L896-L897) and edited npm.go (L901/L902); not tested, committed, pushed or resolved (stated: this session's pattern is fix, push, resolve the thread). Summary: Pending Tasks (run tests, commit, push, resolve), Current Work, Next Step"),
            it('identifier', 'PRRT_kwDORX-g185wikSg', carried=True,
               why='L896: the review thread to resolve; the summary names it in the Next Step. (After the boundary the agent re-queries the threads anyway, L955, then resolves this id, L957)'),
            it('identifier', 'feat/6-npm-provider', carried=True,
               why='the worktree/branch where the fix lives; the summary gives the worktree path'),
        ],
        'losses': [],
        'not_owed': [
            it('constraint', 'pr名英語に',
               why="L304: 'PR title in English' for PR #7, done at L305; a one-off request (no 'always'). The summary lists it among the user messages"),
            it('commitment', '他のプロバイダー向けに、追加のためのドキュメントを書いてください',
               why='L836: provider guide written (docs/adding-a-provider.md) before L866'),
            it('commitment', '試しにビルドして動作をテストしてください',
               why='L866: built and exercised, all cases reported at L882'),
            it('commitment', 'PRをready for reviewにして',
               why='L887: gh pr ready 8 (L888/L889)'),
            it('error', 'Cowardly refusing to install hooks',
               why="L165 (after the pre-commit 'migration mode' failures L151/L161): hooks not reinstalled; committed with --no-verify (L166)"),
            it('error', 'did not match any files',
               why='L338: git add from the main checkout instead of the worktree; redone in the worktree (L345)'),
            it('error', 'Error return value of `resp.Body.Close` is not checked',
               why='L644: golangci-lint errcheck; fixed L646-L652 and lint re-run clean'),
            it('error', "could not add label: 'docs' not found",
               why='L171: gh pr create with a missing label; PR created without it'),
            it('handle', 'a0561ca68e6efaacd',
               why='foreground Task agents (a0561ca68e6efaacd, a6da6125582209d5e, a13ec5bfed267fe76, a975e00ecc253dae7, a2f63e65d09e60895) all returned (L98-L709)'),
        ],
        'notes': 'Japanese-speaking user: npm provider epic through the kitchen workflow (specs, issue #6, plan, implementation, PR #8), then a Codex P1 review arrives and the fix is half done at the boundary. The summary carries the pending steps and the thread id, and even warns that the test mock may need updating (it did: L910-L936). Degrade.',
    }],
})

# ---------------------------------------------------------------- agent-stuff (Korean)
cases.append({
    'file': 'claude-code/cc-2.1.39-agent-stuff-guides-migration-ko.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.39', 'repo': U,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'dd37cdc4-5b1a-4fc9-b4e2-28bd4d882f56',
        'trigger': 'auto', 'pre_tokens': 168398, 'verdict': 'degrade',
        'open': [
            it('commitment', 'security.md를 마이그레이션하겠습니다', carried=True,
               why="L422/L424: the user pastes the Security Principles guide; the agent says it will migrate security.md and writes docs/guides/security.md (L426/L428); its usual verification (wc, section grep, read) and report not yet done (stated). Summary Pending Tasks: 'Verify the security.md migration', Current Work, Next Step"),
        ],
        'losses': [],
        'not_owed': [
            it('constraint', 'Never read or display .env file contents',
               why="L422: a line of the pasted Security Principles document being migrated (likewise 'Do not run DELETE, UPDATE, ALTER without explicit consent'); pasted text, not the user's rule for this session"),
            it('commitment', '@docs/guides/interaction-modes.md 는 삭제해줘',
               why="L167: delete interaction-modes.md and the references to it; done (L176-L220). A one-off request, though the agent keeps dropping references to it in later migrations (L227)"),
            it('commitment', 'Implement the following plan',
               why='L3: the guidelines.md migration plan, done and reported (L36)'),
            it('commitment', 'quality-assurance.md를 마이그레이션하겠습니다',
               why='L395: earlier migrations (quality-assurance, project-integration, process, philosophy, …) each written, verified and reported (L412 etc.)'),
        ],
        'notes': 'Korean-speaking user pastes one global guide after another to migrate into docs/guides/ with YAML front matter; compaction right after security.md is written. The summary keeps the pending verification. It calls security.md the final guide, as the agent had said (L424); the user then pastes two more (L447, L468). Degrade.',
    }],
})

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'labels-claude-code.json')
with open(out, 'w') as f:
    json.dump({'cases': cases}, f, indent=1, ensure_ascii=False)
    f.write('\n')
print('wrote', out, sum(len(c['compactions']) for c in cases), 'compactions')
