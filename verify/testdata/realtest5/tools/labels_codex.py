#!/usr/bin/env python3
"""Writes ../labels-codex.json: the hand labels of the realtest4 Codex split.

Labelled blind, by reading the rollout (user_message / agent_message events, update_plan calls,
tool calls and their exit codes, the `compacted` record and its replacement_history) following
/work/shared/DESIGN.md. loupe was not built or run on it and its rule code was not read. Line
numbers (Lnnn) are 1-based lines of the raw (and redacted) file; `boundary_hint` is the line of the
`compacted` record. Run: python3 tools/labels_codex.py (from realtest4/).
"""
import json, os

C = 'chikachow/cyspbot'


def it(kind, contains, why, **kw):
    d = {'kind': kind, 'contains': contains}
    d.update(kw)
    d['why'] = why
    return d


PLAN = ('L783: update_plan, the last plan event before the boundary (recorded). The compacted record '
        '(L894) has an empty `message` and a replacement_history of the 14 user messages, the developer '
        'instructions and the environment context only: no summary, no plan, no assistant turn. ')

cases = [{
    'file': 'codex/codex-0.142.5-cyspbot-github-app-plan-steps-dropped.jsonl.gz',
    'runtime': 'codex', 'version': '0.142.5', 'repo': C,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'L894',
        'trigger': 'auto', 'verdict': 'violate',
        'open': [
            it('commitment', 'Refactor cyspbot token exchange to use github_app', carried=False,
               why=PLAN + 'Step 1, in_progress. The agent had done much of it (L799-L849) and moved on to the docs, but never marked it completed'),
            it('commitment', 'Update cyspbot tests and docs', carried=False,
               why=PLAN + 'Step 2, pending (docs being edited at L864-L891 when the compaction hit)'),
            it('commitment', 'Update cyspbot-app-token-action API and docs', carried=False,
               why=PLAN + 'Step 3, pending: the sibling repository not yet touched in this turn'),
            it('commitment', 'Run verification in both repos', carried=False,
               why=PLAN + 'Step 4, pending'),
            it('commitment', 'Implement that plan', carried=True,
               why="L779: the user's request (stated, in progress). The replacement_history keeps this user message verbatim, so the request itself survives, but 'that plan' (the Plan item at L771, 'Adopt `github_app` Token Exchange Profile') and all progress do not"),
            it('constraint', 'do not add oidc-audience as an external configuration option', carried=True,
               why="L310: the user's imperative about the API being designed (inferred at most: about the earlier plan, no 'always/never'); kept verbatim in the replacement_history like every user message"),
        ],
        'losses': [
            it('commitment', 'Refactor cyspbot token exchange to use github_app', status='dropped',
               why='recorded in_progress plan step; the replacement_history has no plan and no summary text'),
            it('commitment', 'Update cyspbot tests and docs', status='dropped',
               why='recorded pending plan step; absent'),
            it('commitment', 'Update cyspbot-app-token-action API and docs', status='dropped',
               why='recorded pending plan step; absent (the repository name appears only inside older user messages)'),
            it('commitment', 'Run verification in both repos', status='dropped',
               why='recorded pending plan step; absent'),
        ],
        'not_owed': [
            it('commitment', 'Update app-token action behavior, docs, and bundle',
               why='L466: step 3 of the first plan (in_progress) and "Run focused and full verification" (pending): the work was done and verified (L525-L629, final answer L646), and the full plan at L783 replaced that list (steps gone from a later full plan before any compaction: closed)'),
            it('commitment', 'Adopt `github_app` Token Exchange Profile',
               why='L771: the Plan item proposed in plan mode; it is the content of the open request above, not a separate promise'),
            it('error', 'error TS2353',
               why='L561: typecheck failure after the first refactor (stale test fields); fixed L573, typecheck passes at L590'),
            it('error', 'ERR_PNPM_VERIFY_DEPS_BEFORE_RUN',
               why='L528-L530: pnpm refused to run in the action repo (node_modules out of date); pnpm install --frozen-lockfile (L535) then the checks pass (L544-L546)'),
            it('error', 'Failed to log in to github.com account',
               why='L27: gh auth failed inside the sandbox; the user said to request elevated permissions (L79) and the escalated gh calls succeed (L85, L86)'),
            it('error', 'command not found: audience',
               why='L892 (and L861 exit 1, no output): read-only rg searches with a quoting slip or no matches; exploration, not a failure owed'),
            it('constraint', 'Feel free to make aggressive refactoring changes',
               why='L757: a permission, not a rule'),
            it('constraint', 'I would name it github_app',
               why="L712: a preference for the design under discussion ('If we need to introduce a custom parameter…'), adopted by the plan; not a standing rule"),
            it('commitment', 'request elevated permissions',
               why='L79: done at L83-L86'),
        ],
        'notes': ('Codex Desktop 0.142.5 (GPT-5, via the VS Code source), resumed several times (8 session_meta lines). '
                  'Plan mode produced the "Adopt github_app" plan (L771); the user says "Implement that plan" (L779); the agent '
                  'sets a four-step update_plan (L783) and is editing docs when the context fills. The `compacted` record carries '
                  'an empty message and a replacement_history of user messages plus developer/environment context: every user '
                  'message survives verbatim, the plan steps and progress do not. After it the agent says it is "continuing from '
                  'the implementation state after the context handoff" and re-discovers the state with rg and git status (L898-L904). '
                  'Violate: four recorded plan steps dropped.'),
    }],
}]

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'labels-codex.json')
with open(out, 'w') as f:
    json.dump({'cases': cases}, f, indent=1, ensure_ascii=False)
    f.write('\n')
print('wrote', out, sum(len(c['compactions']) for c in cases), 'compactions')
