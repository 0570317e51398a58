#!/usr/bin/env python3
"""Writes ../labels-claude-code.json: the hand labels of the realtest6 Claude Code split.

Labelled blind, by reading each source (tools/cc_dump.py, tools/c_view.py, tools/tasks.py,
tools/bgjobs.py and the raw records) and its summary, following /work/shared/DESIGN.md. loupe was
not built or run on these files and its rule code was not read. Line numbers (Lnnn) are 1-based
lines of the raw (and redacted) file. Every `contains` is in the redacted source before its
boundary (tools/check_contains.py). Run: python3 tools/labels_cc.py (from realtest6/).
"""
import json, os

AB = 'thelucidbox/AsymmetricBridge'
SC = 'Safecast/safecast-map-MCP'


def it(kind, contains, why, **kw):
    d = {'kind': kind, 'contains': contains}
    d.update(kw)
    d['why'] = why
    return d


cases = []

# ---------------------------------------------------------------- AsymmetricBridge, session 02ae455e (97/07fe0448d5)
cases.append({
    'file': 'claude-code/cc-2.1.50-asymbridge-threshold-engine-then-update-tab.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.50', 'repo': AB,
    'compactions': [
        {
            'ordinal': 1, 'boundary_hint': '36facd1d-fccf-4484-940a-0d100dafa032',
            'trigger': 'auto', 'pre_tokens': 167200, 'verdict': 'degrade',
            'open': [
                it('commitment', 'build the threshold engine while Codex handles the feeds', carried=True,
                   why="L526, the user's last message (stated). The agent wrote threshold-rules.js, threshold-engine.js and useAutoThreshold.js (L532-L554) but had not committed or wired them when the boundary fell. Summary Current Work ('written but not yet committed'), Pending Tasks (commit; wire into CommandCenter) and Next Step quote the request"),
                it('commitment', 'dispatch after threshold engine is built', carried=True,
                   why="L346: the agent's dispatch plan, 'Telegram Alerts — dispatch after threshold engine is built' (Codex Brief 3), not yet dispatched (inferred: a plan line in a status message, condition about to be met). Summary Pending Tasks 'Feature 7: Telegram Alerts — Codex Brief 3 not yet dispatched' and Next Step 3"),
                it('constraint', "prompts don't explicitly mention the tree", carried=True,
                   why="L521: 'Can you make sure the prompts don't explicitly mention the tree but rather you can just give it to me prior right before the prompt' — about the Codex prompts the agent writes; the Brief 3 prompt is still to come, so it may bind it (inferred: a request about 'the prompts', no lasting cue). Summary Problem Solving: 'Adjusted prompts to not mention branch creation — user handles that separately before pasting prompt'"),
                it('identifier', 'forge/data-feeds', carried=True,
                   why="L521: the branch the user created for Codex Brief 2, still running at the boundary (names the open dispatch). Summary Pending Tasks 'dispatched to Codex on `forge/data-feeds` branch'"),
            ],
            'losses': [],
            'not_owed': [
                it('error', 'failed to create config file',
                   why='L400: `supabase init` exit 1 because config.toml existed — the first init (L391, "Finished supabase init.") had already worked in the right directory (L404-L406), and the Supabase files were built and committed after'),
                it('error', 'has been denied',
                   why="L395: permission denied for `rm -rf …/ALOS/supabase; supabase init`; the agent checked the path (L396) and went on in the right directory"),
                it('error', "The user doesn't want to proceed with this tool use",
                   why='L30: the user rejected the HTML-playground step and changed course to live data feeds (L33); not a failure of a command'),
                it('constraint', 'Do NOT proceed to Brief 2 or 3',
                   why="L365: words of the prompt the user pasted, written for Codex (and by the agent), not the user's rule for this agent"),
                it('commitment', 'Open up the zipped file',
                   why='L3: the first request, carried out (bundle unpacked, project scaffolded and built, L41-L163)'),
                it('handle', 'beb3453',
                   why='L142: a queue-operation entry for the foreground `npm install` call toolu_01DS1UExLDpr6ZHpvnaJ5CDS, whose result arrived at L147; not a background job'),
                it('handle', 'b7994a1',
                   why='L379: queue entry for the foreground `brew install supabase` call, which returned; supabase was then used (L393-L406)'),
                it('handle', 'a954e6f15ad4ffb17',
                   why='L253: the research Task agent; its Task call returned status completed at L306'),
            ],
            'notes': "Scaffold → clarify → spec → design pipeline for a dashboard, Codex doing the UI and the data feeds on branches. At the boundary the agent had just written the threshold engine (uncommitted) while Codex runs Brief 2 on forge/data-feeds. The summary keeps the request, the uncommitted state, the branch, Brief 3 and the prompt-format wish. Degrade.",
        },
        {
            'ordinal': 2, 'boundary_hint': '7419cba3-0424-47b2-baf1-64b67ee62310',
            'trigger': 'auto', 'pre_tokens': 170163, 'verdict': 'degrade',
            'open': [
                it('commitment', 'Create `SignalUpdateForm.jsx`', carried=True,
                   why="Plan approved by the user via ExitPlanMode (L1007), 'Implementation Order' step 3; steps 1-2 were done (L1014-L1033), step 3 not started (recorded: an approved plan step). Summary Pending Tasks, Current Work 'Step 3 IN PROGRESS', Next Step"),
                it('commitment', 'Wire sub-tabs into `CommandCenter.jsx`', carried=True,
                   why='Approved plan step 4 (L1007), not done (recorded). Summary Pending Tasks and Current Work "Step 4 TODO"'),
                it('commitment', 'Build + verify', carried=True,
                   why='Approved plan step 5 (L1007), not done (recorded). Summary Pending Tasks "Build + verify — `npm run build`"'),
                it('commitment', 'Deploy to Vercel via `git push`', carried=True,
                   why='Approved plan, Verification 6 (L1007); nothing of the new work committed (stated). Summary Pending Tasks "Commit and push — Deploy to Vercel"'),
                it('commitment', 'If there was a tab that could be like an update tab', carried=True,
                   why="L974: the user's request behind the plan (stated), unfinished. Summary Primary Request and Next Step quote it"),
                it('commitment', 'Deploy Edge Function', carried=True,
                   why="L747: the agent's 'What's left to go live' list, item 4 'Deploy Edge Function — `supabase functions deploy signal-alert`'; Supabase, keys, Telegram and Vercel were done after it, the function deploy never ran (inferred: a to-do line in a status message). Summary Pending Tasks 'Deploy Telegram Edge Function … (not yet done)'"),
                it('identifier', 'slyhwbmbeqoaanvloraa', carried=True,
                   why='L797-L838: the Supabase project ref the pending function deploy and webhook need. Summary Next Step names it'),
            ],
            'losses': [],
            'not_owed': [
                it('error', 'Access token not provided',
                   why='L759/L773: supabase CLI not logged in; the user made a token and the agent passed it as SUPABASE_ACCESS_TOKEN (L784-L792), then created, linked and seeded the project'),
                it('error', 'supabase projects create [project name] [flags]',
                   why='L791: usage error on the first create (bad region); rerun with --region us-east-1 succeeded (L792-L797)'),
                it('error', 'Project names can be up to 100 characters',
                   why='L939: vercel rejected the upper-case directory name; rerun with --name asymmetric-bridge deployed (L940-L961)'),
                it('error', 'Sibling tool call errored',
                   why='L760: a Read cancelled with its failing sibling; reread at L761'),
                it('commitment', 'build the threshold engine while Codex handles the feeds',
                   why='Owed at compaction 1; committed and pushed right after it (L559-L579) and wired in with the merged feeds: closed here (the summary lists it as history, not pending)'),
                it('commitment', 'yes prep the Brief 3 prompt for Telegram alerts',
                   why='L702: done (prompt given; Codex delivered, L726; merged)'),
                it('commitment', "let's set up the Supabase project and get the env vars configured",
                   why='L752: done (project created, migrations and seed pushed, .env written, L792-L860)'),
                it('commitment', "let's deploy to Vercel",
                   why='L932: done, live at L961'),
                it('constraint', 'Keep your token secure and store it safely',
                   why="L903: text the user pasted from Telegram's BotFather (with the bot token), not the user's own rule"),
                it('handle', 'b2a44cf',
                   why='L793: queue entry for the foreground `supabase projects create` call, whose result came back (project created, L797)'),
                it('handle', 'b8a4f90',
                   why='L801: queue entry for the foreground wait-and-push call; it returned and the agent read its output'),
                it('handle', 'b803b88',
                   why='L941: queue entry for the foreground vercel deploy call, which returned (L961 "It\'s live")'),
                it('handle', 'ab7e44048f77c5d39',
                   why='L981: the Explore sub-agent in plan mode; its Task call returned before the plan was written'),
            ],
            'notes': "Second span: threshold engine committed, Codex's feeds and Telegram function merged, Supabase project, keys, bot and Vercel set up; then the user asks for a How-It-Works tab and an Update tab, plan approved, two of five steps done. The summary keeps the three remaining plan steps, the deploy, the Edge Function deploy and the project ref. Degrade. The user pasted three API keys and a Supabase token in chat (L784, L873, L887): replaced in our copy (Entire had already masked some of them).",
        },
    ],
})

# ---------------------------------------------------------------- AsymmetricBridge, session bea57195 (a5/3fcc3903d8/1)
cases.append({
    'file': 'claude-code/cc-2.1.50-asymbridge-v3-1-codex-review-prompt-write.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.50', 'repo': AB,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'ffc2e56a-d005-4e20-bcd5-9203a2b4b6a3',
        'trigger': 'auto', 'pre_tokens': 167841, 'verdict': 'degrade',
        'open': [
            it('commitment', 'write a Codex Prompt to review the entire code base', carried=True,
               why="L198 (queued mid-turn, delivered): 'When you're finished, I want you to write a Codex Prompt to review the entire code base in an extensive way' (stated). The agent promised it (L204, L438); its Write at L439 did not land (see the handle below). Summary Primary Request, Pending Tasks, Current Work and Next Step"),
            it('commitment', 'Add API keys to Vercel project settings', carried=True,
               why="L3: item 1 of the pasted v3.1 plan the user asked to implement, 'Fix the Live Site'; the agent left it out of its six tasks (L137-L147) and never did it (inferred: a manual dashboard step the plan assigns to nobody in particular). Summary Primary Request lists it as plan item 1 '(API keys on Vercel - manual, not code)'"),
        ],
        'losses': [],
        'not_owed': [
            it('handle', 'toolu_01PU5vN3iw8zbuwJNyWpDQ9S',
               why="L439, the last call before the boundary: Write of the Codex review prompt with no tool_result on disk, only a PreToolUse hook_progress (security_reminder_hook, L440). The summary says the security hook blocked this write (the content named dangerouslySetInnerHTML) and that it must be retried; after the boundary the agent rewrites it with rephrased content (L446). The call returned (blocked): the unwritten last record, labelled not owed as in realtest5; a strict reader counting calls without a result on disk would call it intent_only (the summary names the write, not the id). The request behind it stays open above"),
            it('commitment', 'Glossary page + Research Discovery prompt generator',
               why='TaskCreate #6 (L147), last TaskUpdate in this file in_progress (L239); the glossary teammate marked it completed — TaskList at L310 shows "#6 [completed]" — and the agent verified the files and route (L346-L351) and the build (L357). Done; the summary says all six tasks are done (correct)'),
            it('commitment', 'v3.2',
               why="L3: the pasted plan's later batches (v3.2 'Make It Actually Work', v3.3) are gated on the user: 'I build each one. You test each one on Vercel before the next starts.' Not owed yet; the summary only names them as part of the plan"),
            it('commitment', 'shut down the team',
               why="L428: narration of what the same response does — shutdown requests sent to the three teammates (L431-L436). The summary still lists 'TeamDelete hasn't been called yet' (true; not a resurrection)"),
            it('error', 'File has been modified since read',
               why='L221: Write refused; re-read (L222) and written (L227)'),
            it('error', 'No task found with ID: web-fixes@ab-v3-1',
               why='L313: TaskOutput on a teammate name; the agent verified the teammates\' edits by reading the files instead (L318-L351)'),
            it('handle', 't52555e',
               why='L161: web-fixes teammate; its task #1 completed and verified (L318-L335, TaskUpdate L353), shutdown requested (L431)'),
            it('handle', 'tc97809',
               why='L199: copy-changes teammate; task #4 verified and completed (L335-L345, L355), shutdown requested'),
            it('handle', 'ta94651',
               why='L243: glossary teammate; task #6 completed (TaskList L310), shutdown requested'),
            it('handle', 'a9f96386e9f6dfd82',
               why='L16: Explore sub-agent; its Task call returned (report read at L73)'),
        ],
        'notes': "Implementing a pasted v3.1 plan with three in-process teammates; all six tasks done and built; the last act, writing the Codex review prompt the user asked for, was blocked by a PreToolUse security hook (no result on disk). The summary keeps the request and says the write must be retried. Degrade.",
    }],
})

# ---------------------------------------------------------------- Safecast, session ba492de5 (04/81df55f17d)
cases.append({
    'file': 'claude-code/cc-2.1.42-safecast-top-uploaders-rate-limit-offer.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.42', 'repo': SC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '7c76990a-14a2-4624-b58d-e6951499a16c',
        'trigger': 'auto', 'pre_tokens': 170432, 'verdict': 'degrade',
        'open': [],
        'losses': [],
        'not_owed': [
            it('commitment', 'Add rate limiting to the web-chat code?',
               why="L1284: an offer ('Would you like me to: A) … B) … C) …') answering the user's question about a 429 rate-limit screenshot; the user has not chosen. A question to the user, not an obligation"),
            it('commitment', 'What to do here?',
               why='L1282: a question, answered at L1284'),
            it('commitment', 'can we fix this with new tool too?',
               why='L1028: done (marker_count added, committed and deployed, L1076-L1090)'),
            it('commitment', 'That also works for devices?',
               why="L1182, then 'Yes' (L1189): group_by added, committed, pushed, deployed (L1192-L1275, run 22492639838 success)"),
            it('error', 'Process completed with exit code 7',
               why='L134: the deploy workflow\'s web-chat health check failed; the check was made resilient and later deploys passed'),
            it('error', 'File has not been read yet',
               why='L50/L1217: Edit before Read; read and edited right after'),
            it('error', "pathspec 'go/cmd/mcp-server/tool_top_uploaders.go' did not match",
               why='L1076: git add from the wrong directory; rerun from the repository root committed and pushed (L1081)'),
            it('error', 'jq: parse error',
               why='L1153: a read-only check whose output was not JSON; the agent looked at the raw response next'),
            it('error', "The user doesn't want to proceed with this tool use",
               why='L564: the user stopped a call and redirected (API key question, L678-L685)'),
            it('handle', 'b91e564',
               why='L1160: background SSH restart of web-chat; TaskOutput timed out (L1163), the agent restarted through a deployment instead (L1166, run 22492470729, success at L1272); its failed notification was delivered at L1268 and read. Superseded, closed'),
            it('handle', 'bacd80d',
               why='L689: background SSH check of the OpenClaw auth file; failed notification delivered (L994); the key question was settled by the user adding the GitHub secret (L882)'),
            it('handle', 'b60e47a',
               why='L315: background log check, failed notification delivered (L543); the crash cause was found another way'),
            it('handle', 'bdd545e',
               why='L321: background status check, failed notification delivered (L554)'),
        ],
        'notes': "Nothing owed at the boundary: every request done and deployed, the last exchange a question answered with an offer of three options. The summary says so ('Pending Tasks: None'). A false-alarm test: offers, answered questions, routed-around errors and failed-then-superseded background jobs. The summary's user-message list ends with 'Hold on more info:', a message that is not on disk before the boundary (sent while the compaction ran).",
    }],
})

# ---------------------------------------------------------------- Safecast, session 4df2f39a (1d/4be632ccda)
cases.append({
    'file': 'claude-code/cc-2.1.42-safecast-pr5-merge-unfinished-message.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.42', 'repo': SC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'e7b06898-ada4-480a-8727-8b4ea137979d',
        'trigger': 'auto', 'pre_tokens': 171235, 'verdict': 'degrade',
        'open': [
            it('commitment', 'The MPCP server has Calude buildinto the webchat with', carried=True,
               why="L337, the user's last message, cut off mid-sentence; the agent was looking at the web-chat directory (L339-L341). Whatever it asks is still unanswered (inferred: no request can be read in it yet). The summary quotes it (spelling corrected: 'The MCP server has Claude built into the webchat with') in All user messages, Current Work and Next Step"),
        ],
        'losses': [],
        'not_owed': [
            it('commitment', 'Push the resolved conflicts to GitHub',
               why='TodoWrite L147-L161: all three steps completed (a finished list)'),
            it('commitment', 'Please merge.',
               why='L266: PR #5 squash-merged (L268-L278)'),
            it('commitment', 'Can we fix this?',
               why='L291: the monthly-stats query fixed, built, committed and pushed (L293-L309)'),
            it('commitment', 'What other examples test do you have for me?',
               why='L330: answered with example queries (L332)'),
            it('constraint', 'If you comited it it build/deplys by itselve',
               why='L323: a description of the CI (push deploys), not an instruction'),
            it('error', 'GraphQL: Projects (classic) is being deprecated',
               why='L11: `gh pr view 5` failed on a deprecated field; the same data came from --json (L19)'),
            it('error', 'no checks reported',
               why='L17: informational (no CI on the PR branch)'),
            it('error', 'CONFLICT (content): Merge conflict in .gitignore',
               why='L41: merge conflicts in 18 files, all resolved, built and pushed (L43-L161)'),
            it('error', 'String to replace not found in file',
               why='L87: Edit retried with the right indentation (L89)'),
            it('error', 'Your local changes to the following files would be overwritten by checkout',
               why='L167/L173: checkout blocked by a built binary; stash and checkout worked (L178)'),
            it('error', 'Unknown JSON field',
               why='L273: `gh pr view --json merged`; rerun with mergedAt (L275)'),
        ],
        'notes': "PR #5 conflicts resolved and merged, a query fixed, examples given; the boundary falls right after an unfinished user message. The summary keeps it and says to wait for the rest. Degrade.",
    }],
})

# ---------------------------------------------------------------- Safecast, session 8ea091c9 (fc/fde32f4c71)
cases.append({
    'file': 'claude-code/cc-2.1.42-safecast-cloudfront-api-cpm-cps-request.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.42', 'repo': SC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '85775b37-19b2-4d95-ad12-1671cf212a46',
        'trigger': 'auto', 'pre_tokens': 169329, 'verdict': 'degrade',
        'open': [
            it('commitment', 'can you fix this issue?', carried=True,
               why="L2748 (interrupted at L2749, restated 'this :)' at L2752 with a screenshot): fix the CPM/CPS unit confusion (stated). The agent had only grepped (L2755-L2760). Summary Primary Request 'Final (interrupted): Fix CPM vs CPS unit confusion', Pending Tasks, Current Work, Next Step"),
        ],
        'losses': [],
        'not_owed': [
            it('commitment', 'Not sure if the fixed it?',
               why="L2682/L2716: stale list_sensors timestamps; the agent showed the server and REST API return current data and put it down to the MCP client's cache, the user asked 'A new chat will do too?' (L2741), was told yes, and moved on to the unit issue. Settled as far as the source goes (inferred at most); the summary carries it as Error 6 anyway"),
            it('commitment', 'Can you commit and push?',
               why='L1756: committed and pushed (L1767-L1770)'),
            it('commitment', 'Did you push the code?',
               why='L2671: answered — git status clean, everything pushed (L2674-L2677)'),
            it('error', 'cannot pull with rebase: You have unstaged changes',
               why='L1762: stash, pull, pop, commit and push worked (L1764-L1770)'),
            it('error', "pathspec 'go/cmd/mcp-server/tool_list_sensors.go' did not match",
               why='L1844: git add from the go/ directory; rerun from the root committed 306d784 (L1849-L1852)'),
            it('error', 'swag: command not found',
               why='L2177: swag installed with go install and the docs regenerated (L2179-L2182)'),
            it('error', 'Sibling tool call errored',
               why='L107/L147: cancelled siblings of failing read-only curl checks'),
            it('handle', 'b8bafbf',
               why='L2522: background deploy; completed notification delivered (L2664), the agent reported it'),
            it('handle', 'b4bac30',
               why='L937: background stop-deploy-start; completed, notification delivered and output read (L1731-L1736)'),
            it('handle', 'b15bc18',
               why='L244: background query run; completed (L874)'),
        ],
        'notes': "Long ops session (CloudFront /api behaviour, a 98% faster query, stale sensor timestamps, Swagger basePath); twelve background jobs, all completed and delivered before the boundary. At the boundary the user's fresh request (CPM vs CPS) is under way; the summary keeps it. Degrade.",
    }],
})

# ---------------------------------------------------------------- Safecast, session 0852daa6 (d0/d0df8fc423)
cases.append({
    'file': 'claude-code/cc-2.1.42-safecast-redis-webchat-subdomain-ai-hint.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.42', 'repo': SC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'ca172e3b-8ba6-4a12-a68e-e98143c5b9c1',
        'trigger': 'auto', 'pre_tokens': 172369, 'verdict': 'degrade',
        'open': [],
        'losses': [],
        'not_owed': [
            it('commitment', 'can you make an AI hintin the Go file',
               why="L1469, the user's last message before the boundary: done — tool_sensor_current.go edited (L1472-L1477), committed and pushed as 1523bbb (L1480-L1481), deployment completed (L1484). The summary says it was deployed (correct)"),
            it('commitment', 'Want me to add better logging',
               why='L1426: an offer; the user asked for something else (the AI hint)'),
            it('constraint', 'I want not green blue for the CSS',
               why='L593: a one-off request about the CSS being fixed then (no lasting cue); done (L595-L619)'),
            it('constraint', 'Only keep CouldFront for the map itselve',
               why="L1229: part of a hedged suggestion ('Maybe we should make a sub domain for it and by pass CloudFront. Only keep CouldFront for the map itselve.?'), carried out with the assistant.safecast.org subdomain (L1242-L1365); not a standing rule"),
            it('commitment', 'Test the fixes and verify web chat works',
               why='TodoWrite L619: all four steps completed'),
            it('handle', 'b816f44',
               why='L9: background SSH to the CloudFront host name; failed (notifications delivered L475-L483); replaced by SSH to the server IP'),
            it('handle', 'be134a8',
               why='L10: same, failed and delivered'),
            it('error', 'Exit code 124',
               why='L21/L24: timed-out port probes (read-only), superseded by nmap and the server IP'),
            it('error', 'go: command not found',
               why='L539: local build impossible; the agent committed and let CI build and deploy (L541 onward)'),
            it('error', 'Peer authentication failed',
               why="L1379: psql as the wrong user; rerun with the read-only user's password over TCP (L1381) worked"),
            it('error', "The user doesn't want to proceed with this tool use",
               why='L554: the user stopped a call to ask for blue instead of green (L593)'),
        ],
        'notes': "Redis hardening, web-chat logo/favicon/stream fixes, a subdomain that bypasses CloudFront, then an AI hint in a tool description — all done and deployed before the boundary; nothing owed. The summary's Pending Tasks names a markdown-rendering issue from a user message ('One other thing: Seems the markdown code is displayed') that is not on disk before the boundary: sent while the compaction ran, written only inside the summary record. Not a resurrection (it is no item of the source); a verifier should not count it as unsourced either without knowing this.",
    }],
})

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'labels-claude-code.json')
with open(out, 'w', encoding='utf-8') as f:
    json.dump({'cases': cases}, f, ensure_ascii=False, indent=1)
    f.write('\n')
print(out, len(cases), 'cases', sum(len(c['compactions']) for c in cases), 'compactions')
