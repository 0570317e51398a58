#!/usr/bin/env python3
"""Writes ../labels-claude-code.json: the hand labels of the realtest7 Claude Code split.

Labelled blind, by reading each source (tools/cc_dump.py, tools/brief_view.py, tools/bgjobs.py,
tools/tasks.py and the raw records) and its summary, following /work/shared/DESIGN.md. loupe was
not built or run on these files and its rule code was not read. Line numbers (Lnnn) are 1-based
lines of the raw (and redacted) file. Every `contains` is in the redacted source before its
boundary (tools/check_contains.py). Run: python3 tools/labels_cc.py (from realtest7/).
The basis of each open item (recorded / stated / inferred, DESIGN.md) is given in its `why`.
"""
import json, os

SC = 'thieso2/Sandcastle'


def it(kind, contains, why, **kw):
    d = {'kind': kind, 'contains': contains}
    d.update(kw)
    d['why'] = why
    return d


cases = []

# ---------------------------------------------------------------- session 78809d85 (dd/bd9e69c13d/7)
cases.append({
    'file': 'claude-code/cc-2.1.41-sandcastle-navbar-icons-request.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.41', 'repo': SC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '139dae60-ae1d-4ed9-8d1b-36127df7dbc5',
        'trigger': 'auto', 'pre_tokens': 167013, 'verdict': 'degrade',
        'open': [
            it('commitment', 'open user setting when clicking the user-name', carried=True,
               why="L623, the user's last message, sent right before the auto-compaction (stated; nothing was done about it before the boundary). Summary Pending Tasks 'Make clicking username in navbar open settings page', Current Work and Next Step quote it"),
            it('commitment', 'fix the layout (use icons)', carried=True,
               why="L623, second line of the same message (stated). Summary Pending Tasks 'Add icons to Settings and Log out menu items in user menu'"),
            it('constraint', 'we only use traefik', carried=True,
               why="L371 'remove kamal from all environments - we only use traefik!' (inferred: 'only' is a reason given for a one-off removal, done L373-L455, more than a lasting rule). Summary Primary Request 'use only Traefik + docker-compose' and Key Concepts 'Docker-compose deployment (removed Kamal)'"),
        ],
        'losses': [],
        'not_owed': [
            it('commitment', 'add GH issue the sandcastle cli needs to send',
               why='L250: done, `gh issue create` returned issues/21 (L278), reported L280'),
            it('commitment', 'create PR',
               why='L336: done, branch feature/temp-sandbox-improvements pushed and PR #22 created (L358-L360, pr-link record L359)'),
            it('commitment', 'remove the temp from create box on web ui',
               why='L286: done and committed (b64280e, seen in the git log at L341)'),
            it('commitment', 'fix the permissions in the last comment',
               why='L579: done: .github/workflows/claude.yml updated, committed and pushed as e1a0765, issue #19 commented (L605-L607); L613 "commit and push" found a clean tree (L616)'),
            it('commitment', 'then remove it anf force-push',
               why='L564: done (reset to f85fa39 and force-pushed, before L579); the summary reports it as done, which it was'),
            it('error', 'pathspec',
               why="L239: `git add app/views/dashboard/...` run from vendor/sandcastle-cli; rerun from the project root committed b74d472 (L241-L242)"),
            it('error', 'No such container: sandcastle-web-1',
               why='L35: wrong container name; the next calls used sandcastle-web (L40) and went on'),
            it('error', "can't open '/data/dynamic/terminal-19.yml'",
               why='L30: a read-only `cat` of a Traefik config file that the destroy job had already removed (read-only exploration; explained L125)'),
            it('error', 'File has not been read yet',
               why='L410: Edit before Read during the Kamal removal; the file was read and edited after'),
            it('identifier', 'e1a0765',
               why='commit of a finished request (workflow permissions), no open item depends on it'),
        ],
        'notes': "Sandcastle (Rails sandbox platform) maintenance session: log triage, temp-sandbox UI, a GH issue, a PR, Kamal removal, CSRF fix, a reverted caching commit, workflow permissions. Every request finished before the boundary except the last message (navbar user menu), which the summary carries in Pending Tasks, Current Work and Next Step. Degrade.",
    }],
})

# ---------------------------------------------------------------- session f8835f3f (62/502b73fabe/7)
cases.append({
    'file': 'claude-code/cc-2.1.49-sandcastle-live-patch-log-monitors-dropped.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.49', 'repo': SC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'bfb71933-1318-4314-9163-d9ff51a45d2d',
        'trigger': 'auto', 'pre_tokens': 167207, 'verdict': 'violate',
        'open': [
            it('commitment', 'can you live patch sandman?', carried=True,
               why="L373, the user's last request (stated). Half done at the boundary: the worker container was patched (L374-L375) and the committed files were being copied to sandman:/tmp/patch/ (L378, result L379); the `docker cp` into web and worker and the restarts had not run. Summary Pending Tasks 'Complete the live patch of sandman', Current Work, Next Step"),
            it('handle', 'b6e8b2c', carried=False,
               why="L118-L120: background Bash 'Resume live log monitoring on sandman' (ssh … docker-logs, a tail that does not end by itself), 'Command running in background with ID: b6e8b2c'; no task-notification, TaskOutput or kill before the boundary (recorded: a background job started and never seen finished)"),
            it('handle', 'b6b559f', carried=False,
               why="L157-L159: a second background log monitor, 'Monitor live logs on sandman', running in background as b6b559f; its output file was read with tail at L257, but the job never completed nor was stopped before the boundary (recorded)"),
        ],
        'losses': [
            it('handle', 'b6e8b2c', status='dropped',
               why="the summary names no background job and says nothing of a log monitor still running; its Analysis only says 'I started log monitoring in background, then read the output file' and 'Re-monitored logs', both in the past tense. After the boundary the agent cannot read or stop the job"),
            it('handle', 'b6b559f', status='dropped',
               why='not named in the summary; no pending item or next step mentions a running monitor (the Next Step plans new ssh calls only)'),
        ],
        'not_owed': [
            it('handle', 'b62c362',
               why="L5-L8: `ssh sandman … docker-logs 2>&1 &` run in the background; the wrapper shell returned at once (the ssh was backgrounded inside it with '&') and the task-notification says completed (exit code 0) at L8/L21. The job id is closed; the orphaned ssh is not a tracked job"),
            it('handle', 'b8e2721',
               why="L33-L36: the same '&' form again; completed at once (notification L36/L112). Only the later calls without '&' (b6e8b2c, b6b559f) stay running"),
            it('handle', 'beebf52',
               why='L11: queue entry of a foreground `sleep 3 && tail` call whose result came back at L13'),
            it('handle', 'a500e81',
               why='L352-L364: the git-committer sub-agent (Task) returned status completed: commits 95ac3df and 761d38c pushed'),
            it('error', 'Permission denied',
               why="L309/L311: scp to /tmp files owned by another user; worked around with new file names (L315) and the deploy went on; summary Errors lists it as worked around"),
            it('error', 'No such container: sandcastle-web',
               why='L316: plain `docker` on sandman talks to the wrong daemon; the agent switched to /sandcastle/docker-runtime/bin/docker (L319-L321)'),
            it('error', "cannot remove '/sandcastle/data/traefik/dynamic/terminal-28.yml'",
               why='L322: rm as the login user failed; removed through the web container at L323-L324 ("Cleaned bad Traefik configs")'),
            it('error', 'exceeds maximum allowed size',
               why='L24: Read of a 1.1 MB log output file refused; the agent used tail/grep on it instead (read-only)'),
            it('commitment', 'i expect the waiting page to be avai',
               why="L127: a complaint about the thing being built (wait page must appear immediately); fixed and pushed (95ac3df). Not a standing rule"),
            it('commitment', 'commit and push',
               why='L350-L365: done through the git-committer sub-agent, two commits pushed'),
        ],
        'notes': "Live-debugging a 2-second delay and 404s when opening WeTTY/VNC on the production host 'sandman', with live log tails in the background. At the boundary the user's last request (live patch) is half done and carried. Two background `ssh … docker-logs` tails (b6e8b2c, b6b559f) were started and never finished or stopped; the summary names neither and presents log monitoring as past. Violate (two handles dropped). A reader who thinks an abandoned log tail is owed to nobody would call this degrade; by DESIGN a background job never seen finished is a recorded handle.",
    }],
})

# ---------------------------------------------------------------- session 339e2472 (88/c84d414f2e/0)
cases.append({
    'file': 'claude-code/cc-2.1.50-sandcastle-ssl-tailscale-ttyd-commit-queued-debug.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.50', 'repo': SC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'fb163700-c986-4520-bd09-f1e906ffafae',
        'trigger': 'auto', 'pre_tokens': 171396, 'verdict': 'degrade',
        'open': [
            it('constraint', 'what not to change without asking', carried=True,
               why="L451 'add some info to CLAUDE.md how the networking should look like and what not to change without asking!' (inferred: a request for documentation content that implies a rule; done at L464-L472). The summary quotes the message in All user messages and says the networking invariants were documented"),
        ],
        'losses': [],
        'not_owed': [
            it('handle', 'toolu_01VGoUQJWKDedVZH7YVbQA9p',
               why="L498: the last call before the boundary, `git add … && git commit … && git push` of the ttyd rewrite, has no tool_result on disk; its bash_progress lines L500-L501 already show '[main 4e5a4e9] …' and the push hook starting. It returned (after the boundary `git status` shows the branch up to date with origin, L511). The unwritten last record, labelled not owed as in realtest4-6"),
            it('handle', 'b69d44c',
               why='L499: queue entry (local_bash) of that same foreground commit call, not a background job'),
            it('commitment', 'live fix and debug on sandman',
               why="L502-L504: a user message typed while the commit ran, present before the boundary only as queue-operation enqueue records (popAll at L503, enqueued again edited at L504); it is delivered after the boundary (queue remove L510) and the agent acts on it (L513 'Let me debug live on sandman'). A queued prompt delivered after the boundary, as in realtest2; the summary, which says 'Pending Tasks: None', did not need it"),
            it('commitment', 'SSL broken - fix!',
               why="L3: fixed (server env and Traefik config corrected); the remaining Let's Encrypt rate limit cannot be fixed now and the summary says so"),
            it('commitment', 'we shoudl have teh cert in a volume that survives reinstalls',
               why='L116: done, committed 3e2d2d9 (installer preserves acme.json)'),
            it('commitment', 'add some info to CLAUDE.md',
               why='L451: done and pushed, 5b2a994 (L467-L472)'),
            it('error', 'no such path in the working tree',
               why='L488: `git diff` on a deleted file; rerun with `--` worked (L491-L492)'),
            it('error', 'Sibling tool call errored',
               why='L490: cancelled sibling of the L488 error, redone at L491'),
            it('error', 'Exit code 1',
               why='L406 and others: a grep for DOCKYARD_POOL_BASE in the dev docker-compose.yml that found nothing (read-only), then the installer was checked (L409-L410)'),
        ],
        'notes': "SSL on the production host, acme.json preservation, Tailscale subnet outside the masqueraded range, CLAUDE.md networking docs, then 'commit' of a WeTTY→ttyd rewrite. At the boundary the commit call's result is not on disk (bash_progress shows it committed) and a new user message sits in the queue; both are near misses. Nothing owed is open except an inferred documentation rule, which the summary quotes. Degrade. (The queued message shows the Tailscale fix the summary calls done did not work; that is new information delivered after the boundary, not a loss.)",
    }],
})

# ---------------------------------------------------------------- session d68a4429 (e8/6732943639/9)
cases.append({
    'file': 'claude-code/cc-2.1.45-sandcastle-private-nets-vnc-asset-path.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.45', 'repo': SC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'f7160d80-959e-4d85-8dd0-420a3fc166f7',
        'trigger': 'auto', 'pre_tokens': 168054, 'verdict': 'degrade',
        'open': [
            it('commitment', 'no connection!', carried=True,
               why="L559: the user reports the VNC session still does not connect, with the log showing `/vnc/3/package.json` 404 (stated: a request to fix, under way at L562-L563). Summary Pending Tasks 'Fix VNC asset path issue: `/vnc/3/package.json` 404', Current Work, Next Step"),
            it('commitment', 'do i need to restart taeffik?', carried=True,
               why="L560: a question typed while the agent worked (queue enqueue L560, delivered by the queue remove at L564, before the boundary), not yet answered (inferred: a question, owed an answer). Summary Pending Tasks 'Answer user question: \"do i need to restart traefik?\"' and Next Step"),
            it('constraint', 'do not create non-private ips in installer', carried=True,
               why="L19 'also meke sure that we do not create non-private ips in installer for any of the DOCKYARD_* NETWORS/IPS!' (inferred: 'make sure … do not' about the installer being changed; a requirement on the thing being built, done at L20-L95, that may also stand for later edits). Summary Primary Request 'Fix DOCKYARD_* network defaults to use RFC 1918 private IPs' and Errors 'Non-private IPs in DOCKYARD_* defaults'"),
            it('constraint', 'not to update install.sh direct', carried=True,
               why="L249 'add a note to CLAUDE.md not to update install.sh direct - it's generated from installer.sh.in' (inferred: a request to write the rule down, which also tells the agent how to work). Summary Key Concepts 'installer.sh is GENERATED from `installer/installer.sh.in` — never edit directly' and Primary Request"),
        ],
        'losses': [],
        'not_owed': [
            it('handle', 'toolu_017xh2fcinAfSgviesVBnFro',
               why="L563: the last call before the boundary (ssh + curl tracing what the noVNC container serves) has no tool_result on disk; the summary reports its findings ('Investigation via curl confirmed the gotget/novnc container serves files with no redirects'), so it returned. The unwritten last record, not owed (as in realtest4-6)"),
            it('commitment', 'also use /24 by default',
               why="L110: a message typed while the commit sub-agent ran, delivered at L111; the agent looked into it (L114-L147), the user rejected its AskUserQuestion (L148) and redirected to 'the installer shoudl have an option for what private nets to use' (L151), which was built with /24 defaults derived from SANDCASTLE_PRIVATE_NET and committed. Superseded; the summary's defaults show the /24 CIDRs"),
            it('commitment', 'crate GH issue',
               why='L368: done (issue #34, named in the summary as created)'),
            it('commitment', 'create NETWORKING.md',
               why='L303: done and pushed, with the mermaid graph asked at L327'),
            it('commitment', "we're back to permission problems",
               why='L377: fixed (ensure_owned always called), deployed and committed; summary Errors'),
            it('commitment', 'vnc still does not work',
               why='L425: x11vnc `-wsport` flag removed, committed (b0e4bce queue entry, L508); superseded by the L559 report, which is open'),
            it('error', "The user doesn't want to proceed with this tool use",
               why='L148 (AskUserQuestion) and L526 (Bash): the user rejected the calls and gave new directions (L151; L535/L545 "try opening a vnc session"); not failures of a command'),
            it('error', 'Unknown option: --validate',
               why='L343: `mm --validate` is a different tool; the agent checked for the mermaid CLI instead (L344) and committed the diagram'),
            it('error', 'Browser extension is not connected',
               why='L523: the Chrome MCP was unavailable; the agent tested from the server instead'),
            it('handle', 'a202e0a',
               why='L94: the commit sub-agent (local_agent) returned status completed at L113'),
            it('handle', 'b518038',
               why='L482: queue entry of a foreground Bash call (patch sandbox, restart x11vnc) that returned'),
        ],
        'notes': "Networking defaults (private IPs, one SANDCASTLE_PRIVATE_NET option), CLAUDE.md note, NETWORKING.md with a mermaid graph, a GH issue, a BTRFS permission fix, then VNC debugging on the live host. At the boundary the VNC asset-path 404 is being traced and a queued question (restart Traefik?) has been delivered; the summary carries both. The last call's result is unwritten (near miss). Degrade.",
    }],
})

# ---------------------------------------------------------------- session a007ad70 (e8/6732943639/14)
cases.append({
    'file': 'claude-code/cc-2.1.47-sandcastle-snapshots-vnc-autoconnect-queued.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.47', 'repo': SC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'b073afd6-6a0f-47f9-b24a-e9ebd1cedac8',
        'trigger': 'auto', 'pre_tokens': 167430, 'verdict': 'degrade',
        'open': [
            it('commitment', 'vnc autoconnect does not work!', carried=True,
               why="L450 (stated): the user's last request. The agent found the `&amp;` escaping and applied the `.to_json` edit (L457-L459, PostToolUse hook seen) but had not verified, committed or pushed it, as it did for every earlier fix in the session. Summary Pending Tasks 'Commit and push the VNC autoconnect fix', Current Work ('applied but not yet committed or pushed'), Next Step"),
        ],
        'losses': [],
        'not_owed': [
            it('commitment', 'remove the "close browser session" from dashboard',
               why="L460: a user message typed while the agent worked, on disk before the boundary only as a queue-operation enqueue; delivered after the boundary (queue remove L466) and taken up at L471. A queued prompt delivered after the boundary (realtest2 precedent); the summary does not need it"),
            it('handle', 'toolu_017vtsVKK6b6fXL5xrrNaFZA',
               why='L457-L459: the last call, the Edit of vnc/wait.html.erb, has only its PostToolUse hook_progress line (L459): neither its tool_use record nor a tool_result is on disk. It returned (after the boundary `git diff` shows the change). Unwritten last record, not owed'),
            it('handle', 'ab7d1d0',
               why='L283: the Explore sub-agent (local_agent) returned its result to the agent before the snapshot UI work'),
            it('handle', 'b045487',
               why='L440: queue entry of the foreground commit+push call, result at L443 (fd2b12c pushed)'),
            it('commitment', 'fix conflicts in https://github.com/thieso2/Sandcastle/pull/38',
               why='done: conflicts resolved, committed from the repo root after a pathspec error (L253-L258), and PR #38 merged on "merge it"'),
            it('commitment', 'just a name. default shoudl be',
               why='done: snapshot modal reduced to a name with a snap-YYYYMMDD-HHMMSS default, committed (bc2480a queue entry, L423)'),
            it('error', 'No such container: user-digital-tiger',
               why='L88: wrong container name; the agent found thies-bold-orca (L89-L92) and diagnosed the stale image'),
            it('error', 'File has been modified since read',
               why='L327: Edit refused; the agent re-read the file (L328) and the edit went through (L331)'),
            it('error', 'could not open directory',
               why="L253: `git add vendor/sandcastle-cli/…` from inside vendor/sandcastle-cli; redone with `git -C` from the repo root (L258)"),
            it('error', 'File does not exist.',
               why='L57: Read of a traefik.yml that is not in the repository (read-only exploration)'),
        ],
        'notes': "Dashboard/VNC fixes, PR #38 conflicts and merge, the snapshots UI, an arm64 Chromium Dockerfile fix, then 'vnc autoconnect does not work!'. At the boundary the fix is applied but not committed; a new request sits in the queue and is delivered after. Summary keeps the open fix. Degrade.",
    }],
})

# ---------------------------------------------------------------- session d7e4a472 (e8/6732943639/13)
cases.append({
    'file': 'claude-code/cc-2.1.47-sandcastle-terminal-url-creating-mode-local-docker.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.47', 'repo': SC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '1d6a3351-7077-446e-b27c-1e3798d391a3',
        'trigger': 'auto', 'pre_tokens': 167087, 'verdict': 'degrade',
        'open': [
            it('commitment', 'screen stays in "creating mode!"', carried=True,
               why="L313 'in ui create - sandcastle is buidl but screen stays in \"creating mode!\"' (stated): the user's last request, under investigation at the boundary (Solid Cable queries L345-L355), not fixed. Summary Pending Tasks 'Investigate and fix why the Turbo Stream broadcast … doesn't update the dashboard UI', Current Work, Next Step"),
            it('constraint', 'use local docker command', carried=True,
               why="L162 'we are running local use local docker command!' after the agent had ssh'ed to the production host (inferred: an instruction for this debugging, tied to the local setup, no lasting cue). Summary All User Messages quotes it; the summary's investigation is all local (docker-compose.local.yml, deploy:local)"),
            it('constraint', 'use deploy:local to debug', carried=True,
               why="L178 (queued prompt, delivered before the boundary): how to run the app while debugging (inferred). Summary All User Messages and Key Concepts '`docker-compose.local.yml` for local production-mode testing (`mise run deploy:local`)'"),
        ],
        'losses': [],
        'not_owed': [
            it('handle', 'toolu_01XWdKNa14BNVQYAUzGNEhEe',
               why='L355: the last call (a read-only psql count on the cable DB) has no tool_result on disk; unwritten last record, not owed (realtest4-6 precedent). The summary reports the same facts from L350'),
            it('handle', 'b21a20c',
               why="L235-L236: 'Start local deploy in background'; task-notification completed (L237/L249) before the boundary"),
            it('commitment', 'opeing the therminal from the web does not work!',
               why='L3: fixed (SANDCASTLE_TERMINAL_URL corrected, Traefik config written on the idempotent path); summary Errors and Fixes'),
            it('commitment', 'i think the worker is not running or connected!',
               why='L31: a hypothesis from the user, checked (worker up) and superseded by the URL fix'),
            it('error', 'Exit code 2',
               why='L155: an ssh `docker ps | grep wetty; ls …` with nothing found (read-only); the user then moved the debugging to the local docker'),
            it('error', 'Exit code 1',
               why='L149: ssh to the host by IP with stderr suppressed; rerun by host name at L150-L151 worked'),
            it('commitment', 'migrate-1',
               why='L284: pasted log of the migrate container Docker-socket error; fixed with a File.exist? guard (summary Errors and Fixes)'),
        ],
        'notes': "Local production-mode debugging: terminal not opening (wrong SANDCASTLE_TERMINAL_URL), a migrate-container warning, then the dashboard staying in 'Creating' after provisioning. The last is open and carried; the user's local-docker instructions are carried in the summary's user-message list. Degrade.",
    }],
})

# ---------------------------------------------------------------- session 6d005203 (82/f637d3ee6d/16)
cases.append({
    'file': 'claude-code/cc-2.1.50-sandcastle-dind-sysbox-ownership-uncommitted.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.50', 'repo': SC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'b1a239e8-7e24-46be-9627-ce21663e8161',
        'trigger': 'auto', 'pre_tokens': 167500, 'verdict': 'degrade',
        'open': [
            it('commitment', 'fix and documnet your findings', carried=True,
               why="The user's last request (L1015 'analyze yoursefl! ssh sandcastle@sandman \"/sandcastle/docker-runtime/bin/docker ps\" fix and documnet your findings!', stated). At the boundary the root cause is found and the permanent fix is being written (dockyard.sh watcher, entrypoint.sh and docker-restart.sh edits, L1142-L1153), nothing committed, nothing documented. Summary Pending Tasks (rebuild installer.sh, commit, push, trigger the image rebuild, update and close #55 with the root cause, MEMORY.md), Current Work and Next Step"),
            it('commitment', 'this time do a real fix that surrvives reinstalls', carried=True,
               why="'lets work on https://github.com/thieso2/Sandcastle/issues/55 - this time do a real fix that surrvives reinstalls!' (L39, stated): the fix that lives in the installer template is the one being written; not done. Summary Primary Request quotes 'real fix that survives reinstalls' and the pending installer rebuild"),
            it('identifier', 'https://github.com/thieso2/Sandcastle/issues/55', carried=True,
               why='the issue the open work closes (the user wants it updated with the findings). Summary All user messages quotes the URL; Pending Tasks says "Update and close GitHub issue #55"'),
        ],
        'losses': [],
        'not_owed': [
            it('commitment', 'create a full explanation what is going on in DOCKER_SYSBOX_TROUBLE.md',
               why="L1154: typed while the agent worked, on disk before the boundary only as a queue-operation enqueue; delivered after the boundary and done (docs/DOCKER_SYSBOX_TROUBLE.md created at L1185 and committed). A queued prompt delivered after the boundary"),
            it('commitment', 'add GH isse tailscale does not reconnect',
               why='L3: done, issue #54 created'),
            it('commitment', 'create GH isse that docker in docker does agai not work',
               why='L20: done, issue #55 created with the history'),
            it('commitment', 'trigger it manually and check if it works',
               why='done: the sandbox-image workflow was dispatched and watched (L135-L141 queue entries are foreground calls that returned)'),
            it('error', 'has been denied',
               why='L992: the permission system refused `ls .entire/metadata/`; the agent used Glob instead (L993) and went on (not a failure of the work)'),
            it('error', 'EISDIR: illegal operation on a directory',
               why="L50: Read of a directory; the agent listed it instead"),
            it('error', '=== mountinfo entry for /var/lib/docker ===',
               why="L1103: a diagnostic ssh pipeline that printed the mountinfo it was after and exited 1 on a later grep; the agent used the output (L1104-L1106)"),
            it('handle', 'toolu_01SV676AtdgznwAVqE8gbLu1',
               why='L1152-L1153: the last call before the boundary, the docker-restart.sh Edit announced at L1152, has neither its tool_use record nor a tool_result on disk, only its PostToolUse hook line (L1153); the summary says the file was edited. Unwritten last record, returned (the earlier dockyard.sh Edit toolu_01YabBGrXrr6sJ79ivrig6gQ has its result at L1144)'),
            it('handle', 'b76578c',
               why="L449: queue entry of a foreground 'Watch rebuild progress' call that returned (no background id reported)"),
        ],
        'notes': "DinD broke again in sandboxes after Docker 29.2.1: two GH issues, a sandbox-image workflow, several failed quick fixes on the user's machine, then the root cause (sysbox backing dir owned by host root) and a permanent fix being written when the auto-compaction came. Summary lists every pending step. A queued documentation request is delivered after the boundary. Degrade.",
    }],
})

# ---------------------------------------------------------------- session c8376c74 (62/502b73fabe/10)
cases.append({
    'file': 'claude-code/cc-2.1.50-sandcastle-remove-ssh-ports-deploy-local-job-dropped.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.50', 'repo': SC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'd953bf17-15cf-4243-b3a1-323a7ab0c7c2',
        'trigger': 'auto', 'pre_tokens': 167110, 'verdict': 'violate',
        'open': [
            it('commitment', 'Remove SSH port bindings from sandbox containers', carried=True,
               why="TaskCreate #1 (L469), TaskUpdate in_progress (L473), never completed (recorded). Mid-way at the boundary: model edits done, SandboxManager edits started (L496-L499). Summary Pending Tasks lists each remaining SandboxManager/migration/API step; Current Work 'mid-way through implementing option 1 (remove SSH port bindings)'"),
            it('commitment', 'Update CLI: remove PORT, add CREATED to ls output', carried=True,
               why="TaskCreate #2 (L471), pending (recorded). Summary Pending Tasks 'CLI `vendor/sandcastle-cli/cmd/sandbox.go` `listCmd`: Remove PORT column, add CREATED column' and 'Build CLI binary and verify compile'"),
            it('commitment', 'go with option 1', carried=True,
               why="L410 'yes, go with option 1 - update sandcastle cli to not list the port. also add a created_at column to the sandcaslte ls output.' (stated), the request behind both tasks. Summary Primary Request and All user messages"),
            it('handle', 'b12b60f', carried=False,
               why="L302-L303: `mise run deploy:local` run in the background as b12b60f; four TaskOutput reads (L304-L315) all say <status>running</status> (the script keeps docker compose in the foreground, so the job is the running local stack and its log); no task-notification and no stop before the boundary (recorded: a background job started and never seen finished)"),
        ],
        'losses': [
            it('handle', 'b12b60f', status='dropped',
               why="the summary never names b12b60f nor says a deploy:local run is still going in the background; its only 'running' is about orphaned containers. After the boundary the agent cannot read or stop the stack's job"),
        ],
        'not_owed': [
            it('commitment', 'i also want the web-comsole',
               why='L170: queued mid-task, delivered; done (web-console moved to a :local group, BUNDLE_WITHOUT changed, committed ffc43bb at L232-L233)'),
            it('commitment', 'add solid error to admin interface',
               why='L3: done and committed (L43 "commit this")'),
            it('commitment', 'deploy:local shoudl run in dev mode by default',
               why='L122: detailed error pages for deploy:local, done (summary Primary Request lists it as done)'),
            it('error', 'did not match any file(s) known to git',
               why='L231: commit of new untracked files; redone with `git restore --staged :/ && git add …` (L232-L233, ffc43bb)'),
            it('error', 'Exit code 1',
               why='L195: `ls db/cache_migrate/; ls db/queue_migrate/` found no such dirs (read-only); the agent checked database.yml instead (L196)'),
            it('error', 'No changes to make',
               why='L490: a no-op Edit (old == new); the next edits went on'),
            it('error', 'port is already allocated',
               why='L322: pasted by the user; orphaned sandbox containers removed and a label added for cleanup (summary Errors), then the port bindings themselves are being removed'),
            it('handle', 'ae537337e315f89c2',
               why='L370: the Explore sub-agent (local_agent) returned its findings on SSH port usage'),
            it('handle', 'toolu_01XVKmxKcPR74AooFBxWUx3M',
               why='L499: the last Edit before the boundary has only its PostToolUse hook line (L500): unwritten last record, returned'),
        ],
        'notes': "solid_errors in the admin UI, local deploy fixes (schema, web-console, mkcert CA), then the user's option 1: drop the public SSH port per sandbox. At the boundary task #1 is in progress and #2 pending; the summary carries both with a detailed step list. The `mise run deploy:local` background job b12b60f (the local stack, status running at its last read) is not in the summary: violate. A reader who treats a long-running dev server as nobody's obligation would call this degrade; by DESIGN it is a recorded handle.",
    }],
})

# ---------------------------------------------------------------- session da0ad752 (21/8611a77fb0/1)
cases.append({
    'file': 'claude-code/cc-2.1.41-sandcastle-local-traefik-gh-action-web-create-500.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.41', 'repo': SC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'e5da2fc5-267c-4071-a1cb-a7bc06f0795d',
        'trigger': 'auto', 'pre_tokens': 167347, 'verdict': 'degrade',
        'open': [
            it('commitment', 'crating a sandcastle from web yields 500', carried=True,
               why="L755, the user's last request (stated): the root cause was just found in the logs (NameError `current_user`, L769-L771) and the controller was being read; nothing fixed. Summary Pending Tasks 'Fix the current_user → Current.user bug in SandboxesController', Current Work, Next Step"),
            it('constraint', 'debug using chrome and local docker', carried=True,
               why="L755, the same message: how to debug (inferred: an instruction for this task). The Chrome extension was not connected (L763) and the agent used the local docker logs. Summary Next Step quotes the whole message"),
            it('identifier', 'claude/issue-13-20260213-1425', carried=True,
               why='the branch the user checked out (L738-L743) and on which the failing controller lives: the open 500 fix is made there. Summary Current Work names it'),
        ],
        'losses': [],
        'not_owed': [
            it('commitment', 'craete a GH issue',
               why='L366: done, issue #13 created (L380-L381)'),
            it('commitment', 'mise run deploy:local should create admin user',
               why='L522: done (docker-compose.local.yml and seeds.rb edited, L525-L533), later committed'),
            it('commitment', 'checkout claude/issue-13-20260213-1425 from remote',
               why='L738: done (L741-L750)'),
            it('commitment', 'check teh last action runs on GH - no PR no branch - still useless!',
               why='L670: workflow permissions and claude_args fixed, committed and pushed (L724 "commit and push." done); the GH Action later produced the claude/issue-13 branch the user checked out'),
            it('commitment', 'flash should be centred!',
               why='L298: done and committed (L314)'),
            it('error', 'cannot pull with rebase',
               why='L610: unstaged changes; the agent stashed/committed, rebased and pushed (summary Errors: rebase conflict in claude.yml resolved)'),
            it('error', 'Browser extension is not connected',
               why='L763: Chrome MCP unavailable; the agent debugged from the docker logs and found the NameError'),
            it('error', 'File does not exist.',
               why='L7: Read of a layout path that does not exist (read-only); the agent found the right file'),
            it('handle', 'toolu_01W8BEM64TmZH2Pf4QEHwRd9',
               why='L777: the last call, a Read of application_controller.rb, has no tool_result on disk; the summary reports what it showed (the Authentication concern provides Current.user). Unwritten last record, not owed'),
        ],
        'notes': "Long local-deploy session: flash layout, installer env, a reset task, Traefik for local terminals, admin seeding (the user typed credentials: redacted), the Claude GitHub Action that made no branch, then a 500 on the web create form from that Action's branch. At the boundary the 500 is diagnosed but not fixed; the summary carries it and the branch. Degrade.",
    }],
})

# ---------------------------------------------------------------- session fa44cec4 (21/8611a77fb0/5)
cases.append({
    'file': 'claude-code/cc-2.1.41-sandcastle-async-jobs-cli-wait-request-dropped.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.41', 'repo': SC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'cd884581-6015-495b-98ca-d876efe3a964',
        'trigger': 'auto', 'pre_tokens': 167108, 'verdict': 'violate',
        'open': [
            it('commitment', "its using the traefik default cert not ours!", carried=True,
               why="L728 (stated): the fix (drop certResolver) was applied and Traefik recreated (L731-L741); the agent was still checking the dynamic config (L743, no result on disk) and the user had not confirmed. Summary Pending Tasks 'Verify custom certificate is now being used by Traefik', Current Work, Next Step"),
            it('commitment', 'simply wait for the job to return', carried=False,
               why="L158, a message typed during the plan work and delivered at L162: 'the api  that the cli uses shoudl also use the new background job api for create and delete and simply wait for the job to return.' (stated). The agent changed Api::SandboxesController to enqueue jobs and return at once (L190-L201) and wrote 'The CLI will need to poll the `show` endpoint' (L203), later '✅ CLI can now poll the show endpoint' (L236). Nothing waits for the job: no call touched vendor/sandcastle-cli in the session (its create only waits for SSH), and the API does not wait. The claim does not discharge the request (DESIGN: a claim is not the work), so the 'wait' half is still open at the boundary"),
        ],
        'losses': [
            it('commitment', 'simply wait for the job to return', status='dropped',
               why="the summary's All user messages list skips the L158 message altogether (it goes from the plan to 'app is stuck in…'), and nothing in it mentions the API used by the CLI, polling, or waiting for create/delete jobs; Primary Request only says 'Replace synchronous sandbox operations with background jobs'"),
        ],
        'not_owed': [
            it('commitment', 'Phase 6 (BONUS): Live development setup',
               why='TaskCreate #7 (L18) completed at L233; all seven plan tasks #1-#7 completed (L29-L233)'),
            it('commitment', 'lets add some host to /etc/hosts and create a self-sighed cert',
               why='L658: done (certificate generated with SANs, trusted in the keychain, hosts entry); its follow-up is the open L728 report'),
            it('commitment', 'maybe the runner is nozt running in docker?',
               why='L243: a queued hypothesis, delivered at L247 and confirmed/fixed (SOLID_QUEUE_IN_PUMA)'),
            it('commitment', 'work in http!',
               why='L651: a report that HTTP now works, not a request'),
            it('error', 'Exit code 1',
               why='L421: a rails runner broadcast test failed because the broadcast methods were private; fixed (L423-L424 onwards)'),
            it('error', 'File does not exist.',
               why='L167: Read of a file that does not exist yet (read-only)'),
            it('handle', 'toolu_016ckVG85rtiy9MhrnXJGqUx',
               why='L743: the last call (cat of the Traefik dynamic config) has no tool_result on disk; the summary says the config was verified. Unwritten last record, not owed'),
        ],
        'notes': "A pasted async-operations plan (seven tasks, all completed), then local deployment debugging (Solid Queue not running, Action Cable not mounted, Thruster without WebSocket, Traefik routers, a self-signed certificate). Open at the boundary: the certificate fix awaiting verification (carried) and the user's queued request that the CLI-facing API wait for its jobs, which the agent half did and declared done; the summary drops that message entirely. Violate (one stated request dropped). A reader who accepts the agent's async API + 'CLI will poll' as fulfilling the request would call this degrade.",
    }],
})

# ---------------------------------------------------------------- session ad79e67c (82/f637d3ee6d/12)
cases.append({
    'file': 'claude-code/cc-2.1.50-sandcastle-api-test-suite-hung-runs-2x.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.50', 'repo': SC,
    'compactions': [
        {
            'ordinal': 1, 'boundary_hint': '72eeacf2-631a-4e05-8250-ded1444dbc8b',
            'trigger': 'auto', 'pre_tokens': 167008, 'verdict': 'degrade',
            'open': [
                it('commitment', "Let's run all the API controller tests now", carried=True,
                   why="L1069-L1070: the last step of the pasted test-suite plan (every TaskCreate #1-#5 completed by L295): the eight new API test files pass one by one, the run of all of them together hung (bb6fcdc, stopped at L1260). Not done (inferred: the agent's own verification step, not a plan task). Summary Pending Tasks 'Fix the parallel test execution hang…' and 'Verify the full test suite passes', Next Step"),
                it('error', 'SandboxManagerTest#test_create_snapshot_creates_DB_record_and_Docker_image', carried=True,
                   why="L974: the last run of test/services/sandbox_manager_test.rb still shows 1 failure and 2 errors (this one, test_create_handles_Docker_errors_gracefully, a start test); nothing since fixed them (inferred: piped through tail, the tool result is not an error, and the agent calls them pre-existing). Summary Pending Tasks names the three tests"),
            ],
            'losses': [],
            'not_owed': [
                it('handle', 'bb6fcdc',
                   why="L1249-L1250: the hung all-API-tests run; after two TaskOutput timeouts the agent called TaskStop on it (L1260, the last call before the boundary, its result never written). Killed; the unwritten last record is not owed"),
                it('handle', 'b73d81b',
                   why='L516: migration + API tests in the background; stopped with TaskStop, "Successfully stopped task" (L525-L526)'),
                it('commitment', 'Create GitHub Actions workflow files',
                   why='TaskCreate #5, completed at L295; #1-#4 completed too (L132-L246)'),
                it('error', 'Exit code 1',
                   why="L943: `grep -n \"def stop\" $(bundle show docker-api)/…` found nothing (read-only); the agent grepped the app's own call sites instead (L946)"),
                it('handle', 'b7b9629',
                   why='L924: queue entry of a foreground test run that returned (every local_bash queue entry of L318-L965 belongs to a call whose result came back)'),
            ],
            'notes': "A pasted plan for an integration test suite (VNC API endpoints, fixtures and mocks, eight mocked API controller test files, a real-Docker test, two workflows), all five tasks completed; the DockerMock needed many fixes. At the boundary the all-tests run hangs and was just stopped; the summary carries the hang, the verification step and the three old sandbox_manager_test failures. Degrade.",
        },
        {
            'ordinal': 2, 'boundary_hint': 'b2dde5c8-fa27-4c2b-ac36-15ae69b14620',
            'trigger': 'auto', 'pre_tokens': 173382, 'verdict': 'violate',
            'open': [
                it('commitment', 'then fix all the tests!', carried=True,
                   why="L1569 'create a branch - commit teh work so far, then fix all the tests!' (stated). Branch feature/api-test-suite and four commits done; the seven fixes for the old failures are applied but uncommitted and the full suite has not passed (L1695-L1701). Summary Primary Request, Pending Tasks (fix the DB connection failure, commit the fixes, verify 0 failures), Next Step"),
                it('error', 'fe_sendauth: no password supplied', carried=True,
                   why="L1701: the full-suite run bd17036 (notified failed at L1698) stops at the schema check with `ActiveRecord::ConnectionNotEstablished … fe_sendauth: no password supplied`; nothing since (stated: the last word on the full suite). Summary Errors and Current Work quote it"),
                it('identifier', 'feature/api-test-suite', carried=True,
                   why='the branch the open work is committed to (created at the user\'s request). Summary Current Work "After creating branch `feature/api-test-suite`"'),
                it('handle', 'b1df70c', carried=False,
                   why="L1288/L1406-L1407: `bin/rails test test/controllers/api/` in the background as b1df70c; TaskOutput at L1408-L1410 says timeout, <status>running</status> (workers segfaulting); never notified, stopped or read to completion before the boundary (recorded: a background job started and never seen finished; a hung test run, as bfbb39c/b452959 in realtest5)"),
                it('handle', 'bfb6a76', carried=False,
                   why="L1421-L1423: the same run again after the parallelize_setup change, background bfb6a76; TaskOutput L1424-L1426 timeout, status running; never notified or stopped (recorded)"),
            ],
            'losses': [
                it('handle', 'b1df70c', status='dropped',
                   why="the summary names no background job; it describes the pg segfault under process parallelism as a fixed error ('Fixed by staying with `workers: 1`') and never says two hung test runs are still running"),
                it('handle', 'bfb6a76', status='dropped',
                   why='not named; nothing in the summary says a run is still going in the background'),
            ],
            'not_owed': [
                it('commitment', 'whet are the pre-existing failures?',
                   why='L1562: answered before L1569'),
                it('commitment', 'create a branch - commit teh work so far',
                   why='L1569 first half: done (branch feature/api-test-suite, four atomic commits); the summary says so'),
                it('handle', 'b03e155',
                   why="L1439: background API test run with threads; task-notification 'failed' at L1440, read (L1441)"),
                it('handle', 'b785b3b',
                   why='L1451: background run, notified failed at L1554/L1556'),
                it('handle', 'b2175ad',
                   why='L1462: sequential API run, notified completed at L1465 (68 runs, 0 failures)'),
                it('handle', 'b607cbc',
                   why='L1470: full suite run, notified failed at L1473 and read'),
                it('handle', 'bd17036',
                   why='L1697: the last full-suite run; notified failed (L1698) and read with TaskOutput success (L1701); its failure is the open error above'),
                it('error', "undefined method 'cmd_tuples' for nil",
                   why='thread-mode parallelism broke fixture loading; abandoned for workers: 1 (summary Errors), then the API suite passed (b2175ad)'),
            ],
            'notes': "Second compaction: the user asks for the old failures, then 'create a branch - commit the work so far, then fix all the tests!'. Parallel test runs segfault in pg, thread mode fails, workers: 1 works; seven old failures fixed; the full run dies on a DB auth error at the boundary. The summary carries the request, the error and the branch, but not the two hung background runs b1df70c and bfb6a76 (status running at their last read). Violate.",
        },
    ],
})

# ---------------------------------------------------------------- session 5714e445 (82/f637d3ee6d/27)
cases.append({
    'file': 'claude-code/cc-2.1.71-sandcastle-dockyard-upgrade-reinstall-commit.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.71', 'repo': SC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '22af75ef-0757-428f-9634-c1ba62d7d88e',
        'trigger': 'auto', 'pre_tokens': 171551, 'verdict': 'degrade',
        'open': [
            it('commitment', 'commit', carried=True,
               why="L679, the user's last message, sent right before the auto-compaction (stated); five files modified and uncommitted (the dockyard upgrade). Summary Pending Tasks 'User requested a commit of all changes', Current Work lists the files, Next Step"),
        ],
        'losses': [],
        'not_owed': [
            it('commitment', 'actually remove the /sandcaste completely and reinstall from backup!',
               why='L436: typed while the agent worked, delivered at L439 (queue remove) and done: /sandcastle removed (L440-L443), reinstalled from the backup (L445-L602), verified (L603-L672). The summary does not list the message but reports the full backup → uninstall → install → restore cycle'),
            it('commitment', 'iterate till it works without a HITCH!',
               why="L113: the dockyard upgrade + backup/reinstall/restore request, done and verified (dockyard verify 6/6 checks, app healthy, backup works); a requirement on that task, not a lasting rule"),
            it('commitment', 'debug opening vnc on sandcastle',
               why='L27: solved (Traefik Host rule vs Tailscale IP); the user said "great - works." (L113)'),
            it('error', "The user doesn't want to proceed with this tool use",
               why='L24: the user rejected an ssh call and restated the request with the docker path (L27)'),
            it('error', 'template parsing error',
               why='L39: a docker inspect format key missing on that network; the agent inspected differently and went on (parallel siblings L41/L43 cancelled with it)'),
            it('error', 'permission denied while trying to connect to the docker API',
               why="L604: the login user not yet in the sc_docker group after the reinstall; fixed with usermod (L608) and the stack checked"),
            it('error', 'Unknown command: status',
               why="L650: sandcastle-admin has no status command; the agent read its help (L651) and tested backup instead (L654)"),
            it('error', 'Exit code 127',
               why="L614: dockyard verify picked up a stray ~/dockyard.env; rerun with DOCKYARD_ENV set passed all 6 checks (L616-L642)"),
        ],
        'notes': "VNC debugging on the production host, then a dockyard upgrade with a full backup → remove → reinstall → restore cycle, iterated until clean. At the boundary only the user's one-word 'commit' is open, and the summary carries it. Degrade.",
    }],
})

# ---------------------------------------------------------------- session 6766e8c3 (82/f637d3ee6d/28)
cases.append({
    'file': 'claude-code/cc-2.1.71-sandcastle-mkdir-permission-failing-test-queued-layout.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.71', 'repo': SC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'b284cc64-5fb6-41be-8fd8-4f3966424211',
        'trigger': 'auto', 'pre_tokens': 167412, 'verdict': 'degrade',
        'open': [
            it('commitment', 'create a failing test and fix', carried=True,
               why="L589: the user pastes the third occurrence of 'Permission denied @ dir_s_mkdir - …/chrome-profile' and ends 'create a failing test and fix thsi bug. verify unsing local docker install!' (stated). The agent read the code and wrote test/services/ensure_dir_test.rb (L618) but had not run it; the bug is unfixed. Summary Pending Tasks (run the test, fix docker_run_fix, verify locally, commit/push/release), Current Work, Next Step quote the request"),
            it('constraint', 'verify unsing local docker install', carried=True,
               why="L589 (and L541 'verify teh fix in with local docker install!'): how to verify (inferred: tied to this bug). Summary quotes 'verify using local docker install' in All user messages and Next Step"),
        ],
        'losses': [],
        'not_owed': [
            it('commitment', 'also : can we use the normal admin layout for both the jobs and erros?',
               why="L620: typed while the agent worked, only a queue-operation enqueue before the boundary; removed from the queue at L628 and answered after it ('Let me run the tests first, then address the admin layout question', L630). A queued prompt delivered after the boundary"),
            it('commitment', 'release new version',
               why='L456: queued, delivered at L458, done (commit 2893640 pushed, `mise run release` tagged v0.8.43, L457-L467)'),
            it('commitment', 'push and create new releas',
               why='L581: done, v0.8.44 tagged and pushed (L582-L585)'),
            it('commitment', 'we cannot open the tailscale in a popup',
               why='L472: done (auto-open removed, a prominent link shown; summary Errors)'),
            it('commitment', 'on the admin page add a docker tab',
               why='L159: done and committed in 2893640'),
            it('commitment', 'simplify!',
               why="L411: a one-off instruction about the permission fix then under way (drop the container fallback), done; not a lasting rule"),
            it('error', 'Path does not exist',
               why='L33/L37: Grep on a Makefile and .mise.toml that do not exist (read-only)'),
            it('handle', 'toolu_01Qj1WyGsSuAf4Jta2SmfoNv',
               why='L618: the last call, the Write of ensure_dir_test.rb, has no tool_result on disk; the summary says the file was written and not yet run, and the agent runs it after the boundary (L631). Unwritten last record, not owed'),
        ],
        'notes': "Installer fix, async Tailscale login page, an admin Docker tab, an error badge, two releases, then a production permission bug that survived three fixes; the user asks for a failing test and a fix verified on a local docker install. At the boundary the test is written, not run; a layout question sits in the queue and is delivered after. Degrade.",
    }],
})

# ---------------------------------------------------------------- session f2f0caeb (82/f637d3ee6d/25)
cases.append({
    'file': 'claude-code/cc-2.1.70-sandcastle-bind-mount-fix-dockyard-test-renumber.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.70', 'repo': SC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '973d8291-985f-4cf9-a97b-4d03885d704c',
        'trigger': 'auto', 'pre_tokens': 167396, 'verdict': 'degrade',
        'open': [
            it('commitment', 'can we add a test for that issue in the dockyard testsuite?', carried=True,
               why="L551, the user's last request (stated). The agent read cmd/dockyardtest/main.go and announced inserting a test after test 16 with renumbering 17-29 → 18-30 (L558); one Edit ran (PostToolUse hook L560) and the renumbering is unfinished. Summary Request 4 '(IN PROGRESS - test 17 added but renumbering incomplete)', Pending Tasks, Current Work, Next Step"),
            it('identifier', 'cmd/dockyardtest/main.go', carried=True,
               why='the file of the open test work (in the sibling Dockyard repository). Summary Pending Tasks and Current Work name /Users/user/Projects/GitHub/Dockyard/cmd/dockyardtest/main.go'),
            it('commitment', 'when we star a scandcasle and mount the home dir', carried=True,
               why="L143: the bind-mount bug; fixed and tested on the production host through hot patches (docker cp), but the sandbox_manager.rb / entrypoint.sh / Dockerfile changes are uncommitted and the sandbox image not rebuilt (inferred: the user did not ask for a commit this time, but the fix is not in place for the next deploy). Summary Request 2 '(COMPLETED, tested on production, NOT yet committed)' and Pending Tasks 'Commit the bind-mount fix' and 'need a new sandbox image build'"),
        ],
        'losses': [],
        'not_owed': [
            it('commitment', 'add a button "logs"',
               why='L3: done and committed (ffaf5eb) on "commit" (L132)'),
            it('commitment', 'check ../dockyard for sysbox changes',
               why='L452: answered (L547: the fork does not address the bind-mount UID issue)'),
            it('error', 'is restarting, wait until the container is',
               why='L184: docker exec into a crash-looping sandbox (the bug being investigated); the agent read its logs instead'),
            it('error', "changing permissions of '/sandcastle/data/users/user/home/.ssh': Operation not permitted",
               why='L257: a chmod experiment as the login user; the investigation moved to root-owned dirs and the chown-to-root fix'),
            it('error', 'No such container: sandcastle-web',
               why='L289: plain docker talks to the wrong daemon; the next calls use /sandcastle/docker-runtime/bin/docker (L303)'),
            it('error', "cannot access '/data/users/user/home'",
               why='L312/L314: wrong path inside the Rails container; corrected in the following calls'),
            it('error', 'Permission denied',
               why='L304: cat of a root-only sudoers file (read-only); the agent tested sudo directly instead'),
            it('handle', 'toolu_014sVkwsVY5gjW9PXXwXtHUd',
               why='L559-L560: the last call, an Edit of the Dockyard test file, has only a file-history-snapshot and its PostToolUse hook line on disk (no tool_use record, no tool_result); the summary describes the edit it made. Unwritten last record, not owed'),
        ],
        'notes': "A 'logs' button (committed), then a bind-mount permission bug investigated on the production host (kernel 6.17+ and Sysbox UID mapping), fixed by chowning to root and hot-patched but not committed; a review of the Dockyard sysbox fork; then 'add a test to the dockyard testsuite', half done at the boundary. The summary carries the unfinished test (with the renumbering detail), the uncommitted fix and the image rebuild. Degrade.",
    }],
})

# ---------------------------------------------------------------- session 9e64ccf5 (62/502b73fabe/4)
cases.append({
    'file': 'claude-code/cc-2.1.47-sandcastle-traefik-cert-fix-for-real.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.47', 'repo': SC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '41c1f816-6ebb-4e35-a24f-768f4811b052',
        'trigger': 'auto', 'pre_tokens': 169548, 'verdict': 'degrade',
        'open': [
            it('commitment', 'trace teh code and fix it for real this time', carried=True,
               why="L583 'again - trace teh code and fix it for real this time. where if the best place to set this confog so that it does not get overridden?' (stated): the Traefik default-cert regression, fourth time. The agent found the cause (init-traefik and RouteManager both write rails.yml) and proposed a separate tls.yml (L590), nothing edited yet. Summary Pending Tasks 'Fix Traefik cert config being overridden permanently — move TLS cert config to a separate `tls.yml`', Current Work, Next Step (which also answers the 'where' question)"),
        ],
        'losses': [],
        'not_owed': [
            it('commitment', 'port should be nil when container is stopped!',
               why='L313: queued during the port work, delivered, done (fix(sandbox) commit: free port on stop)'),
            it('commitment', 'also chek if the port is really free by checkin via connect.',
               why='L330: queued, delivered, done (TCP check in find_free_ssh_port, same commit)'),
            it('commitment', 'commit this',
               why="L549: done, nine commits (L575-L577: clean tree). The agent then claimed 'All 9 commits pushed cleanly' while git status says 'ahead of origin/main by 9 commits' (L577): a false claim about a push nobody asked for, not an open obligation"),
            it('commitment', 'will this break letsencrypt in prod?',
               why='L426: answered (L428: the cert injection is guarded by SANDCASTLE_TLS_MODE)'),
            it('commitment', 'open term redirects to https://localhost:8443/terminal/2/wetty',
               why='L433: fixed by recreating the web container with the new env (L438-L451)'),
            it('error', 'Unknown skill: commit',
               why='L551: no commit skill; the agent committed with git directly (L552-L575)'),
            it('error', 'File does not exist.',
               why='L329: an Edit on a path that does not exist; the right file was edited after'),
            it('handle', 'bd8229a',
               why='L440: queue entry of a foreground `docker compose … up --force-recreate` call that returned'),
            it('handle', 'toolu_019sW3KjRx1vL94DYXqxXbCw',
               why='L591-L592: the last call, a Read of route_manager.rb, has only its PostToolUse hook line on disk; the summary quotes what it showed (lines 119-140). Unwritten last record, not owed'),
        ],
        'notes': "Admin UI fixes, invites, local HTTPS with mkcert, port assignment, Tailwind classes, and a Traefik default-cert regression that came back four times. At the boundary the root cause is found and the fix designed but not made; the summary carries it and the user's 'where' question. Degrade.",
    }],
})

EC = 'teslamint/entirecontext'

# ---------------------------------------------------------------- entirecontext session da81b1d5 (refs/entire/checkpoints/8C/…, 0/full.jsonl)
cases.append({
    'file': 'claude-code/cc-2.1.232-entirecontext-verify-docs-gpg-commit-2x-manual-ko.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.232', 'repo': EC,
    'compactions': [
        {
            'ordinal': 1, 'boundary_hint': '63b11d21-334d-4c65-8c3c-1cdf425fd40f',
            'trigger': 'manual', 'pre_tokens': 115665, 'verdict': 'degrade',
            'open': [
                it('commitment', 'P2: feature-worktree 결정 보존 게이트 구현', carried=True,
                   why="TaskCreate #3 (L165), TaskUpdate in_progress (L309), not completed (recorded). Summary Pending Tasks 'Task 3 (in_progress): P2: feature-worktree 결정 보존 게이트 구현 — `ec decision verify-docs` command …', Current Work, Next Step"),
                it('commitment', 'v0.16.0 릴리스 준비', carried=True,
                   why="TaskCreate #4 (L169), pending (recorded). Summary Pending Tasks 'Task 4 (pending, blocked by task 3): v0.16.0 릴리스 준비 — version bump, CHANGELOG, tagging'"),
                it('commitment', 'v0.16.0의 남은 2개 항목 완료 후 릴리스', carried=True,
                   why="L115, the user's request in Korean ('finish the 2 remaining v0.16.0 items, then release'; stated), half done. Summary Primary Request and All user messages (quoted with a translation)"),
            ],
            'losses': [],
            'not_owed': [
                it('commitment', 'Working tree 정리',
                   why='TaskCreate #1, completed at L229 (commit 2d6f7eb)'),
                it('commitment', 'P4: py.typed 출시 결정',
                   why='TaskCreate #2, completed at L308 (ADR 0019, commit 24c39af)'),
                it('commitment', 'CONTEXT BUDGET EXCEEDED',
                   why="L377-L378: a hook's system message telling the agent to hand off and compact; not the user's words. The agent did so (empty TODO commit 302b107, L387-L390) and the user ran /compact"),
                it('error', 'Exit code 1',
                   why="L104: `git check-ignore -v …` exits 1 when none of the paths is ignored; read-only, the agent added the gitignore entries (task #1 done). The summary says the same"),
                it('commitment', '/compact 실행 후 task 3을 이어서 진행하겠습니다',
                   why="L394: the agent's 'after /compact I will continue task 3' is the in-progress task #3 itself, counted above"),
            ],
            'notes': "Korean-speaking user, Claude Code 2.1.232, a project hook that enforces a context budget. Four tasks from 'finish the 2 remaining v0.16.0 items then release': two done, #3 in progress, #4 pending. Manual /compact after the agent saved a TODO commit. The summary carries both open tasks and the request. Degrade.",
        },
        {
            'ordinal': 2, 'boundary_hint': '8a0326b2-3254-43b3-911e-2fcaca9f9a16',
            'trigger': 'manual', 'pre_tokens': 128548, 'verdict': 'degrade',
            'open': [
                it('commitment', 'P2: feature-worktree 결정 보존 게이트 구현', carried=True,
                   why="TaskCreate #3 still in_progress at the boundary (no TaskUpdate completed after L309; recorded). The code and tests are done but the commit failed (L858). Summary Pending Tasks 'Task 3 (implementation complete, commit blocked)' — kept as pending, not as done"),
                it('commitment', 'v0.16.0 릴리스 준비', carried=True,
                   why="TaskCreate #4 pending (recorded). Summary Pending Tasks 'Task 4 (pending, blocked by task 3 commit)'"),
                it('error', 'agent refused operation', carried=True,
                   why="L858: `git commit` of the verify-docs work failed, 'Couldn't sign message (signer): agent refused operation? … fatal: failed to write commit object' (stated: the last word; the agent asked the user to commit by hand, L863). Summary Errors and Current Work quote it"),
                it('commitment', 'docs(lessons)', carried=True,
                   why="The /lore-commit protocol's second planned commit (LESSONS.md), not attempted (inferred: the agent's own plan inside the skill run, L823-L863). Summary Current Work 'Commit 2 (not yet attempted): `docs(lessons): regenerate LESSONS.md from latest assessments`' and Next Step"),
            ],
            'losses': [],
            'not_owed': [
                it('error', 'imported but unused',
                   why='L629: ruff F401 in the new test file; removed, later checks pass'),
                it('error', 'File would be reformatted',
                   why='L709: ruff format --check; fixed with `uv run ruff format` (summary Errors)'),
                it('commitment', '터미널에서 직접 커밋',
                   why="L863: the agent asks the user to commit in a terminal; a request to the user, not an obligation of the agent"),
                it('commitment', 'Tool "Bash" failed. Analyze the error, fix the issue',
                   why='L860 and others: a PostToolUseFailure hook message injected after every failing Bash call; not a user rule'),
            ],
            'notes': "Second manual /compact: task #3 (ec decision verify-docs) implemented and tested; /lore-commit staged it and the signed commit failed on the GPG/SSH agent; the agent handed the commit to the user. The summary carries the failure, the staged state, the unattempted LESSONS.md commit and task #4; it presents task #3 as 'implementation complete, commit blocked' under Pending Tasks (still open). Degrade.",
        },
    ],
})

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'labels-claude-code.json')
with open(out, 'w', encoding='utf-8') as f:
    json.dump({'cases': cases}, f, ensure_ascii=False, indent=1)
    f.write('\n')
print(out, len(cases), 'cases', sum(len(c['compactions']) for c in cases), 'compactions')
