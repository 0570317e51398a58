#!/usr/bin/env python3
"""Writes ../labels-codex.json: the hand labels of the realtest8 Codex split.

Labelled blind, by reading the rollout (user_message / agent_message events, Plan items, tool calls
and their exit codes, exec sessions and their polls, the `compacted` record and its
replacement_history) following /work/shared/DESIGN.md. loupe was not built or run on it and its rule
code was not read. Line numbers (Lnnn) are 1-based lines of the stored (redacted) file, which has the
same lines as the original; `boundary_hint` is the line of the `compacted` record.
Run: python3 tools/labels_codex.py (from realtest8/).
"""
import json, os


def it(kind, contains, why, **kw):
    d = {'kind': kind, 'contains': contains}
    d.update(kw)
    d['why'] = why
    return d


KEPT = ('The compacted record (L923) has an empty `message` and a replacement_history of the 16 user '
        'messages (14 typed prompts, the environment context, and L779) plus the developer instructions, '
        'verbatim: no summary, no assistant turn, no tool output, no `compaction` item. ')

SANDCASTLE = {
    'file': 'codex/codex-0.128.0-sandcastle-dns-incus-full-test.jsonl.gz',
    'runtime': 'codex', 'version': '0.128.0', 'repo': 'thieso2/Sandcastle',
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'L923', 'trigger': 'auto', 'sanity': 'empty',
        'verdict': 'violate',
        'open': [
            it('commitment', 'run a full test on incus', carried=True,
               why="L628: the user's request, in progress at the boundary (stated): L768 said it could not be done "
                   "(no SSH access), the user answered 'try ssh again  ssh 100.100.218.64 uptime worked!' (L779) and the "
                   "agent has since started the VM, copied the tree, passed the Ruby syntax and Go checks and is running "
                   "the Rails suite. " + KEPT + 'Both user messages are kept verbatim, so the request survives.'),
            it('error', 'EACCES: permission denied', carried=False,
               why="L921: the first `bin/rails db:prepare && bin/rails test` run in the Incus VM (exec session 57751, "
                   "started L916, polled L919) exited 1: \"EACCES: permission denied, open "
                   "'/rails/app/assets/builds/tailwind.css'\" then 'bin/rails aborted!' (tailwindcss:build under "
                   "test:prepare). The last word on the Rails suite at the boundary (stated): nothing ran after it. "
                   + KEPT + 'The failure is named nowhere in what is kept. After the boundary the agent reruns with '
                   '`--user 0:0` ("with the bind mount permission issue removed", L927), so the model saw some summary '
                   'that is not on disk.'),
            it('identifier', 'sandcastle-dev', carried=False,
               why="The Incus VM the open test runs in (started L807-L820, used by the failing call L916); agent-side "
                   "only, absent from the kept user messages."),
            it('identifier', '/tmp/sandcastle-test', carried=False,
               why="The copy of the working tree inside the VM that the failing call runs in (L822-L833, L916); absent "
                   "from what is kept."),
            it('identifier', '/rails/app/assets/builds/tailwind.css', carried=False,
               why="The path in the open error's first line (L921); absent from what is kept."),
            it('identifier', '100.100.218.64', carried=True,
               why="The Incus host of the open request (L628, L779); kept in both user messages."),
            it('constraint', 'lets go without magic DNS for now', carried=True,
               why="L250: the user's design decision 'for now' (inferred at most: a choice about the feature being "
                   "built, phrased as lasting only 'for now'); kept verbatim like every user message."),
        ],
        'losses': [
            it('error', 'EACCES: permission denied', status='dropped',
               why='L921, the failing Rails test run, last word on its subject; no summary text on disk.'),
            it('identifier', 'sandcastle-dev', status='dropped',
               why='VM of the open test/error; not in the replacement_history.'),
            it('identifier', '/tmp/sandcastle-test', status='dropped',
               why='working directory of the open test/error; not in the replacement_history.'),
            it('identifier', '/rails/app/assets/builds/tailwind.css', status='dropped',
               why="named in the open error's first line; not in the replacement_history."),
        ],
        'not_owed': [
            it('handle', '9424',
               why="L652: the first `ssh -o BatchMode=yes user@…` probe returned 'Process running with session ID "
                   "9424', polls L658/L662 still running, stdin closed (L666); the agent killed it with "
                   "`pkill -f 'ssh .*100\\.100\\.218\\.64'` (L668-L671): a killed job is closed."),
            it('handle', '57751',
               why="L918: the failing Rails run started as exec session 57751; its poll L921 says 'Process exited with "
                   "code 1': the job ended (its failure is the open error, not an open handle)."),
            it('handle', '79824',
               why="L880: the dev-image build (docker compose build) in the VM; polled to 'Process exited with code 0' "
                   "at L891."),
            it('commitment', "run `bin/rails test` in the dev image",
               why="L914: narration of the next call, carried out at L916 in the same response (its result is the open "
                   "error)."),
            it('commitment', 'bring up the database service',
               why='L893: done at L895-L912 (postgres healthy).'),
            it('commitment', 'copy the working tree into',
               why="L820: 'I'll copy the working tree into `/tmp/sandcastle-test` and run the test suite in "
                   "containers': the copy is done (L833), the Ruby and Go checks pass (L867, L874); the remaining "
                   "part is the Rails suite, i.e. the open request and its error."),
            it('commitment', 'SSH username/key that works',
               why="L768: a request to the user ('To run the full Incus test, I need one of these'), answered by the "
                   "user at L779; not the agent's obligation."),
            it('commitment', 'Rails syntax/tests could not be run',
               why="L621: the 'Not verified' line of the implementation's final answer; the user's next request "
                   "(L628) took it over and it is labelled there."),
            it('commitment', 'sandcastle dns search add',
               why="L303: a command in the plan-mode Plan item 'Sandcastle DNS Search Path CLI'; the user said "
                   "'Implement the plan.' (L311) and the final answer (L621) reports every listed command added and "
                   "`go test ./...` passing: the plan is done."),
            it('error', 'Syntax error: word unexpected',
               why="L904: the postgres health-wait loop had a quoting slip (exit 2); the simpler check L907-L912 "
                   "returned 'healthy'."),
            it('error', 'go.mod requires go >= 1.25.7',
               why='L865: Go tests in a golang:1.25.5 container; rerun with golang:1.25.7 passes (L871-L876).'),
            it('error', 'includes invalid characters for a local volume name',
               why="L850, L858: docker -v got a nested-shell-expanded path; rerun with explicit VM paths (L853-L867): "
                   "'Ruby syntax passed inside the Incus VM'."),
            it('error', 'go: not found',
               why='L839: no Go in the VM; the agent ran the tests in a Go container instead (L845, L874).'),
            it('error', 'not in gzip format',
               why="L824: `incus file push -` broke the tar stream; streamed into `incus exec` instead and the code is "
                   "in the VM (L827-L833)."),
            it('error', 'backslash not last character on line',
               why="L809: awk quoting slip while starting the VM; re-queried with simpler commands, 'sandcastle-dev is "
                   "up' (L811-L820)."),
            it('error', 'ruby: command not found',
               why="L433 (and L445 'mise ERROR \"ruby\" couldn't exec process'): no Ruby in the agent's container; "
                   "routed around by ruby:4.0.1-slim containers (L752-L768) and later in the VM (L867)."),
            it('error', 'this command currently supports macOS only',
               why="L544, L613: the new `dns search add` / `dns install` commands run on Linux refuse by design; a "
                   "smoke check of the guard, not a failure to fix."),
            it('error', 'no such file or directory',
               why="L430: gofmt given repo-relative paths from inside the CLI directory; corrected (L436), Go builds "
                   "(L458). Also L347: read-only `ls` of test dirs that do not exist."),
            it('error', 'Authentications that can continue',
               why="L691/L696: batch-mode SSH public-key probes failed; superseded by the user's 'ssh 100.100.218.64 "
                   "uptime worked!' (L779) and the working `ssh 100.100.218.64` calls from L783 on."),
            it('constraint', 'i donÄt use tailscale magic dns',
               why="L240: a description of the user's setup phrased as a question, not a rule (the rule is L250)."),
        ],
        'notes': ('Codex CLI 0.128.0 (codex-tui, gpt-5.5, plan mode for the design turns, default mode from L309), one '
                  'session through Entire (manual-commit strategy). A macOS DNS-resolver design discussion, three '
                  'plan-mode plans, "Implement the plan." (done, L621), then "run a full test on incus on '
                  '100.100.218.64": blocked by SSH, unblocked by the user at L779, and mid-way (Rails suite failing on a '
                  'permission error in the VM) when the context filled (last request ~218k of a 258,400-token window: '
                  'auto, mid-turn). The compacted record keeps only user and developer messages (sanity: empty '
                  'summary, no compaction item), so DESIGN calls it unverifiable; the user-side items are carried '
                  'verbatim, the agent-side open error and the identifiers it depends on are dropped. No update_plan, '
                  'no open exec session at the boundary (57751 had exited; 9424 was killed). After the boundary the '
                  'agent fixes the run (root user, Docker socket, /data mount) until 208 runs pass, then reports.'),
    }],
}

cases = [SANDCASTLE]

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'labels-codex.json')
with open(out, 'w') as f:
    json.dump({'cases': cases}, f, indent=1, ensure_ascii=False)
    f.write('\n')
print('wrote', out, sum(len(c['compactions']) for c in cases), 'compactions')
