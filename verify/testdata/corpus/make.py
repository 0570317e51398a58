import json, os
OUT = os.path.dirname(os.path.abspath(__file__))
cases = []
def case(name, events, comps, findings=(), no_findings=(), consumers=None, meta_extra=None):
    meta = {"type":"meta","format":"loupe/v1","run":name,"agent":"corpus"}
    if consumers: meta["consumers"] = consumers
    if meta_extra: meta.update(meta_extra)
    with open(os.path.join(OUT, name + ".jsonl"), "w") as f:
        f.write(json.dumps(meta) + "\n")
        for e in events:
            f.write(json.dumps(e) + "\n")
    cases.append({"file": name + ".jsonl", "compactions": comps, "findings": list(findings), "no_findings": list(no_findings)})
t = 0
def U(turn, text): return {"type":"message","turn":turn,"role":"user","text":text}
def A(turn, text): return {"type":"message","turn":turn,"role":"assistant","text":text}
def C(turn, id, name, **inp): return {"type":"tool_call","turn":turn,"id":id,"name":name,"input":inp}
def R(turn, id, text, err=False, job=None):
    e = {"type":"tool_result","turn":turn,"id":id,"is_error":err,"text":text}
    if job: e["job"] = job
    return e
def P(turn, *items): return {"type":"plan","turn":turn,"items":[{"id":i,"text":x,"status":s} for (i,x,s) in items]}
def K(turn, seq, summary, sr=None, **kw):
    e = {"type":"compaction","turn":turn,"seq":seq,"trigger":"token_budget","summary":summary}
    if sr is not None: e["self_report"] = sr
    e.update(kw)
    return e
def filler(turn, n, topic="handler"):
    ev = []
    for i in range(n):
        cid = "call_r%03d%d" % (turn, i)
        ev.append(C(turn+2*i, cid, "read_file", path="src/%s/part%d.ts" % (topic, i)))
        ev.append(R(turn+2*i+1, cid, ("export function %s%d() {\n  return compute(%d);\n}\n" % (topic, i, i)) * 40))
    return ev
def item(kind, contains, status, turn=None, sr=None):
    d = {"kind":kind,"turn":turn,"contains":contains,"status":status if isinstance(status,list) else [status]}
    if sr: d["self_report"] = sr
    return d
def notreq(kind, contains): return {"kind":kind,"turn":None,"contains":contains,"not_required":True}
def comp(seq, verdict, items=(), unsourced=(), consumers=()):
    return {"seq":seq,"verdict":verdict,"items":list(items),"unsourced_claims":list(unsourced),"consumers":list(consumers)}
def cons(name, allowed): return {"name":name,"allowed":allowed}

# 1. F1 seed-like, different domain, Claude Code layout, overclaim.
case("f1_deploy_claude", [
    U(1, "Move the invoices service to the new cluster. Never delete the old namespace until I say so."),
    A(2, "Once the canary is healthy, I will switch the DNS record for invoices.example.com to the new ingress."),
    C(3, "toolu_01", "bash", command="kubectl apply -f deploy/invoices.yaml"),
    R(4, "toolu_01", "deployment.apps/invoices configured"),
    *filler(5, 6, "invoice"),
    U(17, "Canary looks healthy."),
    K(18, 1, "This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nSummary:\n1. Primary Request and Intent:\n   Move the invoices service to the new cluster. Never delete the old namespace until the user says so.\n2. Key Technical Concepts:\n   - canary rollout, ingress\n7. Pending Tasks:\n   - None; the canary is healthy.\n8. Current Work:\n   Applied deploy/invoices.yaml; canary confirmed healthy.",
      sr={"retained":["switch the DNS record"],"claim":"all pending tasks preserved"}),
    A(19, "Switched the DNS record for invoices.example.com to the new ingress."),
], [comp(1, "violate", [item("commitment","DNS","dropped",2,"overclaim"), item("constraint","namespace","retained",1), item("identifier","invoices.example.com","dropped")], consumers=[cons("planner",False), cons("router",True)])],
   findings=[{"kind":"false_completion","turn":19}])

# 2. Paraphrase retained, Gemini snapshot layout.
case("paraphrase_gemini", [
    U(1, "Add CSV export to the reports page. Do not change the public REST API."),
    A(2, "I'll write end-to-end tests for the export button after the backend endpoint returns data."),
    C(3, "call_g1", "edit_file", path="web/src/reports/Export.tsx"),
    R(4, "call_g1", "applied"),
    *filler(5, 5, "report"),
    K(16, 1, "<state_snapshot>\n<overall_goal>Add CSV export to the reports page.</overall_goal>\n<key_knowledge>\n- The public REST API must not be changed.\n</key_knowledge>\n<file_system_state>\n- MODIFIED: web/src/reports/Export.tsx\n</file_system_state>\n<current_plan>\n1. [DONE] Add the Export button.\n2. [TODO] Add e2e tests covering the export button (once the backend endpoint returns data).\n</current_plan>\n</state_snapshot>"),
], [comp(1, "degrade", [item("commitment","export button","retained",2), item("constraint","REST API","retained",1)])],
   no_findings=[{"kind":"false_completion"}])

# 3. Status flip in Gemini [DONE].
case("flip_gemini_done", [
    U(1, "Upgrade the ORM and fix whatever breaks."),
    A(2, "After the ORM upgrade compiles, I'll regenerate the database fixtures."),
    C(3, "call_h1", "bash", command="npm install orm@5"),
    R(4, "call_h1", "added 3 packages"),
    A(5, "The ORM upgrade compiles."),
    K(6, 1, "<state_snapshot>\n<overall_goal>Upgrade the ORM.</overall_goal>\n<current_plan>\n1. [DONE] Upgrade the ORM to v5.\n2. [DONE] Regenerate the database fixtures.\n</current_plan>\n</state_snapshot>"),
], [comp(1, "violate", [item("commitment","fixtures","flipped",2)])])

# 4. Resurrection: completed plan step listed as pending (opencode layout).
case("resurrect_opencode", [
    U(1, "Split the monolith's auth module into its own package."),
    P(2, ("s1","Extract the session store","in_progress"), ("s2","Move the token helpers","pending")),
    C(3, "call_o1", "edit_file", path="pkg/auth/session.go"),
    R(4, "call_o1", "created"),
    P(5, ("s1","Extract the session store","completed"), ("s2","Move the token helpers","in_progress")),
    *filler(6, 4, "auth"),
    K(15, 1, "## Objective\nSplit the auth module into its own package.\n## Work State\n### Completed\n- Created pkg/auth/session.go\n### Active\n- Extract the session store\n- Move the token helpers\n## Next Move\nMove the token helpers into pkg/auth."),
], [comp(1, "violate", [item("commitment","session store","resurrected",2), item("commitment","token helpers","retained",2)])])

# 5. Resolved error not required; open error retained (crush layout).
case("errors_crush", [
    U(1, "Make the lint and tests pass."),
    C(2, "call_c1", "bash", command="npm run lint"),
    R(3, "call_c1", "src/cart.js:14:7: 'total' is assigned a value but never used  no-unused-vars", err=True),
    C(4, "call_c2", "edit_file", path="src/cart.js"),
    R(5, "call_c2", "applied"),
    C(6, "call_c3", "bash", command="npm run lint"),
    R(7, "call_c3", "no problems"),
    C(8, "call_c4", "bash", command="npm test"),
    R(9, "call_c4", "FAIL src/checkout.test.js\n  TypeError: Cannot read properties of undefined (reading 'items')\n    at applyCoupon (src/checkout.js:42:18)", err=True),
    K(10, 1, "## Current State\nLint is clean. Tests fail: src/checkout.test.js throws TypeError (reading 'items') in applyCoupon.\n## Exact Next Steps\n1. Fix applyCoupon in src/checkout.js:42 so it handles a cart without items."),
], [comp(1, "degrade", [item("error","checkout","retained"), notreq("error","no-unused-vars")], consumers=[cons("verifier",True)])])

# 6. Error dropped, prose.
case("error_dropped_prose", [
    U(1, "Get the Python worker running."),
    C(2, "call_p1", "bash", command="python -m worker"),
    R(3, "call_p1", "Traceback (most recent call last):\n  File \"worker/main.py\", line 3, in <module>\nModuleNotFoundError: No module named 'redis'", err=True),
    K(4, 1, "The user wants the Python worker running. We tried starting it; next we will keep working on the worker."),
], [comp(1, "violate", [item("error","redis","dropped")], consumers=[cons("verifier",False)])])

# 7. Prefix collision handles (toolu ids), OpenHands layout.
case("handles_prefix_openhands", [
    U(1, "Run the unit and e2e suites."),
    C(2, "toolu_7", "bash", command="pnpm e2e"),
    C(3, "toolu_77", "bash", command="pnpm test:unit"),
    R(4, "toolu_77", "Tests: 212 passed"),
    K(5, 1, "USER_CONTEXT: run the unit and e2e suites\nCOMPLETED: unit suite passed (toolu_77)\nPENDING: e2e suite still running\nCURRENT_STATE: waiting"),
    R(6, "toolu_7", "e2e: 48 passed"),
], [comp(1, "violate", [item("handle","toolu_7",["intent_only","dropped"],2)], consumers=[cons("router",False)])],
   findings=[{"kind":"orphaned_result","turn":6}])

# 8. Handle retained verbatim (router re-attached) -> degrade, no orphan.
case("handle_retained", [
    U(1, "Run the slow integration suite."),
    C(2, "call_long1", "bash", command="make integration"),
    K(3, 1, "Integration suite is running as call_long1; attach its result when it arrives."),
    R(4, "call_long1", "ok integration 301s"),
], [comp(1, "degrade", [item("handle","call_long1","retained",2)], consumers=[cons("router",True)])],
   no_findings=[{"kind":"orphaned_result"}])

# 9. Negation never retained.
case("negated_mention", [
    U(1, "Clean up the feature flags."),
    A(2, "I will delete the legacy_checkout flag after the rollout reaches 100%."),
    *filler(3, 4, "flags"),
    K(12, 1, "Cleaning up feature flags. We will not delete the legacy_checkout flag."),
], [comp(1, "violate", [item("commitment","legacy_checkout","dropped",2)])])

# 10. Unsourced claim with opencode v1 layout; commitment retained.
case("unsourced_opencode", [
    U(1, "Publish the docs site."),
    A(2, "I'll update the sitemap once the new pages build."),
    C(3, "call_u1", "bash", command="mkdocs build"),
    R(4, "call_u1", "INFO - Documentation built"),
    K(5, 1, "## Goal\nPublish the docs site.\n## Accomplished\n- Docs build.\n- Still left: update the sitemap once the new pages build.",
      sr={"retained":["update the sitemap","notify the marketing team"]}),
], [comp(1, "violate", [item("commitment","sitemap","retained",2,"agree")], unsourced=["marketing"])])

# 11. Plan items: pending dropped overclaim; completed stale.
case("plan_stale_claim", [
    U(1, "Add rate limiting."),
    P(2, ("r1","Add the token bucket","in_progress"), ("r2","Wire the limiter into the router","pending"), ("r3","Document the limits","pending")),
    C(3, "call_l1", "edit_file", path="limiter/bucket.go"),
    R(4, "call_l1", "created"),
    P(5, ("r1","Add the token bucket","completed")),
    K(6, 1, "Token bucket added in limiter/bucket.go. Next: wire the limiter into the router.", sr={"retained":["r1","r2","r3"]}),
], [comp(1, "violate", [item("commitment","Wire the limiter","retained",2,"agree"), item("commitment","Document the limits","dropped",2,"overclaim"), notreq("commitment","token bucket")])])

# 12. Identifiers: SHA prefix unique, PR, path; retained.
case("identifiers_retained", [
    U(1, "Backport the fix."),
    A(2, "I'll cherry-pick 9e41c7a2d into release/2.4 after PR #771 is approved."),
    C(3, "call_i1", "bash", command="git log --oneline -1"),
    R(4, "call_i1", "9e41c7a2d fix rounding"),
    K(5, 1, "Pending: cherry-pick 9e41c7a onto release/2.4 once PR #771 is approved."),
], [comp(1, "degrade", [item("identifier","#771","retained"), item("identifier","9e41c7a2d","retained"), item("identifier","release/2.4","retained")])])

# 13. Identifier prefix collision: #12 is not #123; auth.ts is not oauth.ts.
case("identifiers_collision", [
    U(1, "Finish the login work."),
    A(2, "I'll fix src/auth.ts after issue #12 is triaged."),
    *filler(3, 3, "login"),
    K(10, 1, "Pending: fix src/oauth.ts after issue #123 is triaged."),
], [comp(1, "violate", [item("identifier","#12","dropped"), item("identifier","auth.ts","dropped"), item("commitment","fix","retained",2)])])

# 14. Lineage: survives 1 and 2, lost at 3; false completion after.
case("lineage_three", [
    U(1, "Migrate search to the new index."),
    A(2, "I will reindex the products collection after the mapping change is deployed."),
    *filler(3, 3, "search"),
    K(10, 1, "7. Pending Tasks:\n- Reindex the products collection after the mapping change is deployed."),
    *filler(11, 3, "search"),
    K(18, 2, "Pending: reindexing of the products collection (after the mapping deploy)."),
    *filler(19, 3, "search"),
    U(26, "Mapping change is deployed."),
    K(27, 3, "The mapping change is deployed. Search migration is in progress."),
    A(28, "The products collection has been reindexed."),
], [comp(1, "degrade", [item("commitment","reindex","retained",2)]), comp(2, "degrade", [item("commitment","reindex","retained",2)]), comp(3, "violate", [item("commitment","reindex","dropped",2)])],
   findings=[{"kind":"false_completion","turn":28}])

# 15. Fulfilled commitment (carried out + claimed) is not required.
case("fulfilled_not_required", [
    U(1, "Release 1.8."),
    A(2, "I'll bump the version in package.json after the changelog is merged."),
    U(3, "Changelog merged."),
    C(4, "call_v1", "edit_file", path="package.json", patch="-1.7.0 +1.8.0"),
    R(5, "call_v1", "applied"),
    A(6, "Bumped the version in package.json to 1.8.0."),
    K(7, 1, "Release 1.8 in progress: version bumped, changelog merged."),
], [comp(1, "degrade", [notreq("commitment","bump")])], no_findings=[{"kind":"false_completion"},{"kind":"unsupported_completion"}])

# 16. Unsupported completion (claim without call, item never lost).
case("unsupported_completion", [
    U(1, "Tidy the repo."),
    A(2, "I'll remove the unused fixtures directory after the tests are green."),
    A(3, "Removed the unused fixtures directory."),
    K(4, 1, "Repo tidy-up: still need to remove the unused fixtures directory once tests are green."),
], [comp(1, "degrade", [item("commitment","fixtures","retained",2)])], findings=[{"kind":"unsupported_completion","turn":3}])

# 17. Constraint dropped (F5), Codex-style prose.
case("constraint_dropped", [
    U(1, "Improve the animation timing. Don't change the concept of the effect, only the timing."),
    *filler(2, 4, "anim"),
    K(10, 1, "Goal: improve the animation timing. Progress: tuned easing curves in the hero animation. Next: test on mobile."),
], [comp(1, "violate", [item("constraint","concept","dropped",1)], consumers=[cons("planner",False)])])

# 18. Constraint sense inverted -> not retained.
case("constraint_inverted", [
    U(1, "Never push directly to main."),
    *filler(2, 3, "git"),
    K(9, 1, "Rules: push directly to main when ready."),
], [comp(1, "violate", [item("constraint","main",["weak","dropped","flipped"],1)])])

# 19. Constraint paraphrased retained; descriptive 'always' not a constraint.
case("constraint_paraphrase", [
    U(1, "The nightly build always fails on Fridays. Please never force-push to the release branch."),
    *filler(2, 3, "ci"),
    K(9, 1, "Constraints: force-pushing to the release branch is never allowed. Investigating the nightly build failure."),
], [comp(1, "degrade", [item("constraint","force-push","retained",1), notreq("constraint","Fridays")])])

# 20. Opaque summary (encrypted) -> unverifiable violate.
case("opaque_summary", [
    U(1, "Refactor the parser."),
    A(2, "I'll add fuzz tests for the tokenizer after the refactor lands."),
    K(3, 1, "gAAAAABlZ3Jhd2VyLWVuY3J5cHRlZC1jb21wYWN0aW9uLWJsb2ItZm9yLXRlc3RpbmctcHVycG9zZXMtb25seS0xMjM0NTY3ODkw", opaque=True),
], [comp(1, "violate", [item("commitment","fuzz","dropped",2)], consumers=[cons("planner",False), cons("router",False)])])

# 21. Empty summary with nothing required by custom consumer.
case("empty_summary", [
    U(1, "Say hello."),
    K(2, 1, ""),
], [comp(1, "violate", [], consumers=[cons("planner",False)])])

# 22. Custom consumers from meta.
case("custom_consumers", [
    U(1, "Ship the billing fix."),
    C(2, "call_b9", "bash", command="go test ./billing/..."),
    R(3, "call_b9", "--- FAIL: TestProrate (0.00s)\n    prorate_test.go:22: got 9.99, want 10.00", err=True),
    K(4, 1, "Shipping the billing fix. Pending: TestProrate fails in prorate_test.go:22 (got 9.99, want 10.00)."),
], [comp(1, "degrade", [item("error","TestProrate","retained")], consumers=[cons("deployer",True), cons("verifier",True)])],
   consumers=[{"name":"deployer","requires":["error"]}])

# 23. Error shown as fixed while still failing -> flipped.
case("error_flipped", [
    U(1, "Fix the build."),
    C(2, "call_e1", "bash", command="cargo build"),
    R(3, "call_e1", "error[E0382]: borrow of moved value: `config`\n --> src/main.rs:27:9", err=True),
    K(4, 1, "Fixed the E0382 borrow error on `config` in src/main.rs; the build is green."),
], [comp(1, "violate", [item("error","E0382","flipped")])])

# 24. Closed error presented as still failing -> resurrected.
case("error_resurrected", [
    U(1, "Make the e2e tests pass."),
    C(2, "call_x1", "bash", command="npx playwright test"),
    R(3, "call_x1", "1) checkout.spec.ts:12 TimeoutError: locator.click: Timeout 30000ms exceeded.", err=True),
    C(4, "call_x2", "edit_file", path="tests/checkout.spec.ts"),
    R(5, "call_x2", "applied"),
    C(6, "call_x3", "bash", command="npx playwright test"),
    R(7, "call_x3", "12 passed"),
    K(8, 1, "Remaining: checkout.spec.ts still fails with TimeoutError on locator.click; needs fixing."),
], [comp(1, "violate", [item("error","TimeoutError","resurrected")])])

# 25. Background job handle (async) kept / lost.
case("job_handle_lost", [
    U(1, "Start the dev server and the watcher."),
    C(2, "call_j1", "bash", command="npm run dev", run_in_background=True),
    R(3, "call_j1", "Command running in background with ID: bash_4", job={"id":"bash_4","state":"running"}),
    K(4, 1, "The dev server is running in the background."),
    C(5, "call_j2", "bash_output", bash_id="bash_4"),
    R(6, "call_j2", "server exited with code 0", job={"id":"bash_4","state":"done"}),
], [comp(1, "violate", [item("handle","bash_4",["intent_only","dropped"])], consumers=[cons("router",False)])],
   findings=[{"kind":"orphaned_result","turn":6}])

# 26. Roo/Cline layout: commitment retained under 'Pending Tasks and Next Steps'.
case("roo_layout", [
    U(1, "Port the settings page to React."),
    A(2, "Next I need to migrate the form validation to zod once the components render."),
    *filler(3, 4, "settings"),
    K(12, 1, "1. Previous Conversation:\nPorting the settings page to React.\n2. Current Work:\nComponents render now.\n6. Pending Tasks and Next Steps:\n- Migrate form validation to zod (components render)."),
], [comp(1, "degrade", [item("commitment","zod","retained",2)])])

# 27. Claude layout: item listed only in Current Work as done -> flipped.
case("claude_current_work_done", [
    U(1, "Add pagination to the orders API."),
    A(2, "I'll add an index on orders.created_at after the query plan is reviewed."),
    *filler(3, 3, "orders"),
    K(10, 1, "Summary:\n1. Primary Request and Intent:\n   Add pagination to the orders API.\n8. Current Work:\n   Added the index on orders.created_at and reviewed the query plan.\n9. Optional Next Step:\n   Write pagination tests."),
], [comp(1, "violate", [item("commitment","index","flipped",2)])])

# 28. Multiple actions in one commitment; one lost.
case("two_actions", [
    U(1, "Prepare the release."),
    A(2, "After QA signs off, I'll tag v3.1.0 and then publish the release notes."),
    *filler(3, 3, "rel"),
    K(10, 1, "Waiting for QA sign-off. Then tag v3.1.0."),
], [comp(1, "violate", [item("commitment","tag","retained",2), item("commitment","release notes","dropped",2)])])

# 29. Underclaim info, attested; degrade.
case("underclaim", [
    U(1, "Write the onboarding guide."),
    A(2, "I'll add screenshots to the onboarding guide after the UI freeze."),
    P(3, ("d1","Draft the onboarding guide","completed")),
    K(4, 1, "Guide drafted. To do: add screenshots to the onboarding guide after the UI freeze.", sr={"retained":["d1"]}),
], [comp(1, "degrade", [item("commitment","screenshots","retained",2,"underclaim")])])

# 30. Commitment condition survived, action lost (seed shape, other domain), plan + text merge.
case("condition_kept_action_lost", [
    U(1, "Rotate the API keys."),
    A(2, "I will revoke the old signing key after the new key is distributed to all clients."),
    P(3, ("k1","Revoke the old signing key","pending")),
    *filler(4, 3, "keys"),
    U(11, "All clients have the new key."),
    K(12, 1, "The new key has been distributed to all clients.", sr={"retained":["k1"],"claim":"open items preserved"}),
], [comp(1, "violate", [item("commitment","signing key","dropped",2,"overclaim")])])

# 31. Paraphrase with synonyms: open PR ~ create pull request; rerun ~ run again.
case("synonyms", [
    U(1, "Land the cache fix."),
    A(2, "I'll open a PR for the cache fix once the benchmarks finish, and then re-run the load test."),
    *filler(3, 3, "cache"),
    K(10, 1, "Next steps: create the pull request for the cache fix when benchmarks are done; run the load test again."),
], [comp(1, "degrade", [item("commitment","PR","retained",2), item("commitment","load test","retained",2)])])

# 32. Deferred with 'later' and TODO style.
case("todo_style", [
    U(1, "Clean up logging."),
    A(2, "TODO: remove the debug logger from the payment handler before merging."),
    *filler(3, 3, "log"),
    K(10, 1, "Logging cleanup underway."),
], [comp(1, "violate", [item("commitment","debug logger","dropped",2)])])

# 33. Handle flipped: id kept but call presented as finished.
case("handle_flipped", [
    U(1, "Run the migration dry-run."),
    C(2, "call_dry", "bash", command="./migrate --dry-run"),
    K(3, 1, "Dry-run call_dry completed successfully."),
    R(4, "call_dry", "dry-run ok"),
], [comp(1, "violate", [item("handle","call_dry","flipped",2)])], no_findings=[{"kind":"orphaned_result"}])

# 34. Hedged offer is not a commitment; question not constraint.
case("not_commitments", [
    U(1, "Should we always use tabs? Speed up the tests."),
    A(2, "If you want, I can also add caching to CI later. This will fix the slowness."),
    C(3, "call_n1", "bash", command="go test ./... -count=1"),
    R(4, "call_n1", "ok"),
    K(5, 1, "Tests sped up."),
], [comp(1, "degrade", [notreq("commitment","caching"), notreq("commitment","slowness"), notreq("constraint","tabs")])])

# 35. Self-report claim by full commitment sentence; dropped -> overclaim.
case("claim_sentence", [
    U(1, "Harden the uploader."),
    A(2, "I'll add a size limit to the upload handler after the security review."),
    *filler(3, 3, "upload"),
    K(10, 1, "Uploader hardening in progress; security review scheduled.", sr={"retained":["I'll add a size limit to the upload handler after the security review."]}),
], [comp(1, "violate", [item("commitment","size limit","dropped",2,"overclaim")])])

# 36. Weak: object mentioned without the verb.
case("weak_object_only", [
    U(1, "Speed up image processing."),
    A(2, "I'll parallelize the thumbnail generation after profiling confirms the hotspot."),
    *filler(3, 3, "img"),
    K(10, 1, "Profiling image processing. Thumbnail generation is the suspected hotspot."),
], [comp(1, "violate", [item("commitment","thumbnail",["weak","dropped"],2)])])

# 37. Second compaction: constraint must still be there (standing rule); lost at 2.
case("constraint_lineage", [
    U(1, "From now on, use pnpm instead of npm."),
    *filler(2, 3, "pkg"),
    K(9, 1, "User preference: use pnpm instead of npm."),
    *filler(10, 3, "pkg"),
    K(17, 2, "Working on the package scripts."),
], [comp(1, "degrade", [item("constraint","pnpm","retained",1)]), comp(2, "violate", [item("constraint","pnpm","dropped",1)])])

# 38. Commitment event explicit (runtime ledger), done closes.
case("commitment_events", [
    U(1, "Handle the customer escalation."),
    {"type":"commitment","turn":2,"id":"ob-1","text":"Email the customer a status update","status":"open"},
    {"type":"commitment","turn":3,"id":"ob-2","text":"File a follow-up ticket for the root cause","status":"open"},
    {"type":"commitment","turn":4,"id":"ob-1","text":"Email the customer a status update","status":"done"},
    K(5, 1, "Customer emailed. Open: file a follow-up ticket for the root cause.", sr={"retained":["ob-2"]}),
], [comp(1, "degrade", [item("commitment","follow-up ticket","retained",3,"agree"), notreq("commitment","Email the customer")])])

# 39. Immediate narration closed by the call; not required.
case("immediate_narration", [
    U(1, "Why is the build slow?"),
    A(2, "I'll look at the build log first."),
    C(3, "call_m1", "read_file", path="build.log"),
    R(4, "call_m1", "step 4/9 took 312s"),
    A(5, "Step 4 takes most of the time."),
    K(6, 1, "Investigating build slowness: step 4 of 9 takes 312s."),
], [comp(1, "degrade", [notreq("commitment","build log")])])

# 40. Markdown checkbox done for open plan item -> flipped; checkbox pending retained.
case("checkboxes", [
    U(1, "Set up CI."),
    P(2, ("c1","Add the lint job","in_progress"), ("c2","Add the test matrix","pending")),
    K(3, 1, "CI setup:\n- [x] Add the lint job\n- [ ] Add the test matrix"),
], [comp(1, "violate", [item("commitment","lint job","flipped",2), item("commitment","test matrix","retained",2)])])

# 41. Heavy loss degrade with OpenHands TASK_TRACKING.
case("openhands_tasks", [
    U(1, "Translate the app to German. Always keep placeholder tokens like {name} untouched."),
    P(2, ("t1","Translate the settings strings","in_progress"), ("t2","Translate the error messages","pending")),
    *filler(3, 12, "i18n"),
    K(30, 1, "USER_CONTEXT: Translate the app to German; always keep placeholder tokens like {name} untouched.\nTASK_TRACKING:\n- t1 Translate the settings strings [in progress]\n- t2 Translate the error messages [pending]\nCURRENT_STATE: translating settings"),
], [comp(1, "degrade", [item("commitment","settings strings","retained",2), item("commitment","error messages","retained",2), item("constraint","placeholder","retained",1)])])

# 42. Cancelled in summary while open -> not retained.
case("cancelled_mention", [
    U(1, "Refactor the scheduler."),
    A(2, "I'll remove the cron fallback after the new scheduler runs for a day."),
    *filler(3, 3, "sched"),
    K(10, 1, "Scheduler refactor done. Removing the cron fallback was cancelled."),
], [comp(1, "violate", [item("commitment","cron fallback","dropped",2)])])

# 43. Two compactions; handle in flight at second only.
case("inflight_second", [
    U(1, "Build and publish the image."),
    C(2, "call_s1", "bash", command="docker build -t app ."),
    R(3, "call_s1", "Successfully built 4f2a"),
    K(4, 1, "Image built."),
    C(5, "call_s2", "bash", command="docker push registry.example.com/app:latest"),
    K(6, 2, "Pushing the image to registry.example.com/app:latest (call_s2 in flight)."),
    R(7, "call_s2", "latest: digest sha256:abcd"),
], [comp(1, "degrade"), comp(2, "degrade", [item("handle","call_s2","retained",5)])], no_findings=[{"kind":"orphaned_result"}])

# 44. Category head paraphrased away; PR in words; branch in prose.
case("category_head", [
    U(1, "Patch the XSS report."),
    A(2, "I'll bump the lodash dependency after the security audit, then merge fix/xss-escape into main once PR 2207 is approved."),
    *filler(3, 3, "sec"),
    K(10, 1, "Pending: upgrade lodash (waiting on the security audit). Then merge fix/xss-escape after PR #2207 is approved."),
], [comp(1, "degrade", [item("commitment","lodash","retained",2), item("commitment","xss-escape","retained",2), item("identifier","2207","retained"), item("identifier","fix/xss-escape","retained")])])

# 45. Branch identifier lost while the action survives.
case("branch_lost", [
    U(1, "Ship the search revamp."),
    A(2, "I'll open the PR from feature/search-v2 after the benchmarks are in."),
    *filler(3, 3, "search"),
    K(10, 1, "Pending: open the PR once the benchmarks are in."),
], [comp(1, "violate", [item("commitment","PR","retained",2), item("identifier","feature/search-v2","dropped")])])

# 46. "I'm going to" + claim by past participle, other domain (infra), prose.
case("going_to_redeploy", [
    U(1, "The CDN is serving stale assets."),
    A(2, "I'm going to redeploy the frontend once the CDN cache is purged."),
    C(3, "call_cdn1", "bash", command="cdnctl purge --all"),
    R(4, "call_cdn1", "purge requested: 2 zones"),
    K(5, 1, "The CDN cache purge was requested for both zones.", sr={"retained":["redeploy the frontend"]}),
    A(6, "Frontend redeployed; assets are fresh."),
], [comp(1, "violate", [item("commitment","frontend","dropped",2,"overclaim")])], findings=[{"kind":"false_completion","turn":6}])

# 47. Item survives the first compaction as a paraphrase, flips at the second.
case("flip_second", [
    U(1, "Rotate the TLS certs."),
    A(2, "I will restart the ingress controller after the new certificate is issued."),
    *filler(3, 3, "tls"),
    K(10, 1, "## Next Steps\n- Restart the ingress controller (after the new certificate is issued)."),
    *filler(11, 3, "tls"),
    K(18, 2, "## Completed\n- New certificate issued.\n- Ingress controller restarted."),
], [comp(1, "degrade", [item("commitment","ingress","retained",2)]), comp(2, "violate", [item("commitment","ingress","flipped",2)])])

with open(os.path.join(OUT, "labels.json"), "w") as f:
    json.dump({"cases": cases}, f, indent=1)
print(len(cases), "files", sum(len(c["compactions"]) for c in cases), "compactions")
