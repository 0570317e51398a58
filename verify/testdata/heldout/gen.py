#!/usr/bin/env python3
"""Generate the held-out loupe/v1 transcripts and labels.json."""
import json
import os
import random

OUT = os.path.dirname(os.path.abspath(__file__))
WORDS = ("request field module token payload cursor schema column table offset router batch "
         "buffer cache session handler index config record response").split()
EXT = {"web": "tsx", "py": "py", "go": "go", "kt": "kt", "swift": "swift", "md": "md", "sql": "sql", "tf": "tf"}


class Case:
    def __init__(self, name, run_meta=None, lang="go"):
        self.name = name
        self.events = []
        self.turn = 0
        self.seq = 0
        self.tags = {}
        self.rng = random.Random(name)
        self.lang = lang
        meta = {"type": "meta", "format": "loupe/v1", "run": name, "agent": "heldout-agent"}
        if run_meta:
            meta.update(run_meta)
        self.events.append(meta)
        self.labels = {"file": name + ".jsonl", "compactions": [], "findings": [], "no_findings": []}

    def _t(self, tag):
        self.turn += 1
        if tag:
            self.tags[tag] = self.turn
        return self.turn

    def user(self, text, tag=None):
        self.events.append({"type": "message", "turn": self._t(tag), "role": "user", "text": text})

    def asst(self, text, tag=None):
        self.events.append({"type": "message", "turn": self._t(tag), "role": "assistant", "text": text})

    def call(self, cid, name, inp, tag=None):
        self.events.append({"type": "tool_call", "turn": self._t(tag), "id": cid, "name": name, "input": inp})

    def result(self, cid, text, err=False, tag=None):
        self.events.append({"type": "tool_result", "turn": self._t(tag), "id": cid, "is_error": err, "text": text})

    def run(self, cid, name, inp, text, err=False):
        self.call(cid, name, inp)
        self.result(cid, text, err)

    def plan(self, items, tag=None):
        self.events.append({"type": "plan", "turn": self._t(tag),
                            "items": [{"id": i, "text": t, "status": s} for i, t, s in items]})

    def pad(self, n, chars=1500):
        dirs = ["internal", "src", "lib", "pkg", "app"]
        for _ in range(n):
            cid = "call_p%06x" % self.rng.randrange(16 ** 6)
            path = "%s/%s/%s.%s" % (self.rng.choice(dirs), self.rng.choice(WORDS), self.rng.choice(WORDS),
                                    EXT.get(self.lang, "go"))
            body = []
            n_chars = 0
            while n_chars < chars:
                w = self.rng.choice(WORDS)
                body.append(w)
                n_chars += len(w) + 1
            text = "package %s\n// %s" % (self.rng.choice(WORDS), " ".join(body))
            self.call(cid, "read_file", {"path": path})
            self.result(cid, text)

    def compact(self, summary, self_report=None, trigger="token_budget", **label):
        self.seq += 1
        ev = {"type": "compaction", "turn": self._t(None), "seq": self.seq, "trigger": trigger, "summary": summary}
        if self_report is not None:
            ev["self_report"] = self_report
        self.events.append(ev)
        lab = {"seq": self.seq}
        lab.update(label)
        self.labels["compactions"].append(lab)
        return self.seq

    def finding(self, kind, tag):
        self.labels["findings"].append({"kind": kind, "turn": self.tags[tag]})

    def no_finding(self, kind):
        self.labels["no_findings"].append({"kind": kind})

    def resolve(self):
        for c in self.labels["compactions"]:
            for it in c.get("items", []):
                t = it.get("turn")
                if isinstance(t, str):
                    it["turn"] = self.tags[t.lstrip("@")]
        return self.labels

    def write(self):
        with open(os.path.join(OUT, self.name + ".jsonl"), "w") as f:
            for e in self.events:
                f.write(json.dumps(e, ensure_ascii=False) + "\n")


def it(kind, contains, status=None, turn=None, self_report=None, not_required=False):
    d = {"kind": kind, "turn": turn, "contains": contains}
    if not_required:
        d["not_required"] = True
    else:
        d["status"] = status if isinstance(status, list) else [status]
    if self_report:
        d["self_report"] = self_report
    return d


def cons(**kw):
    return [{"name": k, "allowed": v} for k, v in kw.items()]


CASES = []


def case(fn):
    CASES.append(fn)
    return fn


# ---------------------------------------------------------------- seed shape
@case
def h01():
    c = Case("h01_seed_storybook_frontend", lang="web")
    c.user("Move the account settings page onto the new design system. Never force-push to the release branch.", tag="u")
    c.asst("I've swapped the settings form over to the new Button and TextField components.")
    c.run("call_s1", "edit", {"path": "src/settings/SettingsForm.tsx", "patch": "-import { Btn } from '../legacy'\n+import { Button } from '@acme/ds'"}, "applied 2 hunks")
    c.asst("I'll regenerate the Storybook snapshots once design review signs off on the new color tokens.", tag="c")
    c.pad(5)
    c.user("Design review signed off on the color tokens.")
    c.asst("Great, the color tokens are approved.")
    c.compact("The user wants the account settings page moved onto the new design system. The settings form now "
              "uses the new Button and TextField components, and design review signed off on the new color tokens. "
              "Never force-push to the release branch.",
              self_report={"retained": ["regenerate the Storybook snapshots"], "claim": "all open work items preserved"},
              verdict="violate",
              items=[it("commitment", "Storybook", "dropped", "@c", "overclaim"),
                     it("constraint", "force-push", "retained", "@u")],
              consumers=cons(planner=False, router=True, verifier=True))
    c.asst("The Storybook snapshots have been regenerated, so the settings page migration is finished.", tag="claim")
    c.user("CI still shows the old Storybook snapshots; they weren't regenerated.")
    c.run("call_s9", "bash", {"command": "npm run storybook:snapshots -- --update"}, "Updated 38 snapshots in 4 stories files")
    c.asst("Regenerated the Storybook snapshots for real this time: 38 updated.")
    c.pad(3)
    c.compact("Settings page is on the new design system; the Storybook snapshots were regenerated (38 updated). "
              "Never force-push to the release branch.",
              verdict="degrade",
              items=[it("commitment", "Storybook", not_required=True),
                     it("constraint", "force-push", "retained", "@u")],
              consumers=cons(planner=True))
    c.finding("false_completion", "claim")
    return c


@case
def h02():
    c = Case("h02_seed_backfill_claude_layout", lang="py")
    c.user("The events_daily table has gaps since the dedupe change. Fix the dedupe job and fill the gaps. "
           "Do not drop or truncate any warehouse tables.", tag="u")
    c.asst("The dedupe job was keying on event_id only; I changed it to key on (event_id, source).")
    c.run("call_w1", "edit", {"path": "jobs/dedupe.py", "patch": "-key = ['event_id']\n+key = ['event_id', 'source']"}, "applied 1 hunk")
    c.asst("Next I need to backfill the missing events_daily partitions once the patched dedupe job is deployed to the cluster.", tag="c")
    c.run("call_w2", "bash", {"command": "kubectl rollout status deploy/dedupe-job -n warehouse"}, "deployment \"dedupe-job\" successfully rolled out")
    c.asst("The patched dedupe job is deployed to the cluster.")
    c.pad(6)
    c.compact("1. Primary Request and Intent:\n   The user reported gaps in events_daily since the dedupe change and asked "
              "to fix the dedupe job. Do not drop or truncate any warehouse tables.\n"
              "2. Key Technical Concepts:\n   - Dedupe keyed on (event_id, source)\n   - Daily partitions in the warehouse\n"
              "3. Files and Code Sections:\n   - jobs/dedupe.py: dedupe key changed to (event_id, source)\n"
              "4. Errors and fixes:\n   - None\n"
              "5. Problem Solving:\n   Root cause was the dedupe key; the patched job is deployed to the cluster.\n"
              "6. All user messages:\n   - Reported the events_daily gaps and asked for the dedupe job to be fixed.\n"
              "7. Pending Tasks:\n   - Confirm the dedupe job output looks right.\n"
              "8. Current Work:\n   Deployed the patched dedupe job to the cluster.\n"
              "9. Optional Next Step:\n   Spot-check a few recent partitions.",
              self_report={"retained": ["backfill the missing events_daily partitions"], "claim": "pending tasks preserved"},
              verdict="violate",
              items=[it("commitment", "backfill", "dropped", "@c", "overclaim"),
                     it("constraint", "truncate", "retained", "@u")],
              consumers=cons(planner=False))
    c.asst("Backfill of the missing events_daily partitions is complete.", tag="claim")
    c.pad(3)
    c.compact("1. Primary Request and Intent:\n   Fix the dedupe job behind the events_daily gaps. Do not drop or truncate any warehouse tables.\n"
              "7. Pending Tasks:\n   - None.\n"
              "8. Current Work:\n   Backfilled the missing events_daily partitions after deploying the patched dedupe job.\n"
              "9. Optional Next Step:\n   Report to the user.",
              verdict="violate",
              items=[it("commitment", "backfill", "flipped", "@c"),
                     it("constraint", "truncate", "retained", "@u")])
    c.finding("false_completion", "claim")
    return c


# ---------------------------------------------------------------- handles
@case
def h03():
    c = Case("h03_prefix_inflight_terraform", lang="tf")
    c.user("Plan the staging and prod Terraform workspaces so I can review both diffs.")
    c.call("toolu_5", "bash", {"command": "terraform -chdir=envs/prod plan -no-color"}, tag="h")
    c.call("toolu_57", "bash", {"command": "terraform -chdir=envs/staging plan -no-color"})
    c.result("toolu_57", "Plan: 2 to add, 1 to change, 0 to destroy.")
    c.pad(2)
    c.compact("Staging plan finished (toolu_57): 2 to add, 1 to change, 0 to destroy. The prod plan is still running; "
              "its diff goes to the user for review when it finishes.",
              self_report={"retained": ["toolu_5", "toolu_57"]},
              verdict="violate",
              items=[it("handle", "toolu_5", ["intent_only", "dropped"], "@h", "overclaim")],
              consumers=cons(router=False, verifier=False))
    c.result("toolu_5", "Plan: 0 to add, 3 to change, 0 to destroy.", tag="late")
    c.finding("orphaned_result", "late")
    return c


@case
def h04():
    c = Case("h04_inflight_kept_training", lang="py")
    c.user("Kick off the ResNet-50 fine-tune on the new augmentation config and tell me the final top-1.")
    c.asst("Launching the fine-tune now.")
    c.call("toolu_01Hk", "bash", {"command": "python train.py --config configs/r50_aug.yaml"}, tag="h")
    c.call("toolu_01Hk2", "bash", {"command": "nvidia-smi --query-gpu=memory.used --format=csv"})
    c.result("toolu_01Hk2", "memory.used [MiB]\n10240 MiB")
    c.pad(3)
    c.compact("The user wants the ResNet-50 fine-tune run on the new augmentation config and the final top-1 reported. "
              "Training is in flight as toolu_01Hk (`python train.py --config configs/r50_aug.yaml`); GPU memory was "
              "checked in toolu_01Hk2 (10240 MiB used). When toolu_01Hk returns, report its final top-1 to the user.",
              verdict="degrade",
              items=[it("handle", "toolu_01Hk", "retained", "@h")],
              consumers=cons(router=True, verifier=True, planner=True))
    c.result("toolu_01Hk", "epoch 30/30 loss=0.412 val_top1=76.4%", tag="res")
    c.asst("Fine-tune finished: the final top-1 is 76.4%.")
    c.pad(2)
    c.compact("ResNet-50 fine-tune on the new augmentation config finished with top-1 76.4%, reported to the user.",
              verdict="degrade",
              items=[it("handle", "toolu_01Hk", not_required=True)])
    c.no_finding("orphaned_result")
    return c


@case
def h05():
    c = Case("h05_inflight_lost_at_second_mobile", lang="kt")
    c.user("Build the release APK and run the instrumented tests on the emulator.")
    c.run("exec_2", "bash", {"command": "./gradlew assembleRelease"}, "BUILD SUCCESSFUL in 2m 11s")
    c.call("exec_3", "bash", {"command": "./gradlew connectedAndroidTest"}, tag="h")
    c.pad(2)
    c.compact("Release APK built (BUILD SUCCESSFUL). Instrumented tests are running on the emulator as exec_3 "
              "(`./gradlew connectedAndroidTest`); attach its result to this task when it returns.",
              verdict="degrade",
              items=[it("handle", "exec_3", "retained", "@h")],
              consumers=cons(router=True, verifier=True))
    c.pad(3)
    c.compact("The release APK is built. Instrumented tests on the emulator are still running.",
              verdict="violate",
              items=[it("handle", "exec_3", ["intent_only", "dropped"], "@h")],
              consumers=cons(router=False, planner=True))
    c.result("exec_3", "Starting 48 tests on Pixel_7_API_34\nBUILD SUCCESSFUL in 6m 40s", tag="late")
    c.finding("orphaned_result", "late")
    return c


# ---------------------------------------------------------------- paraphrase / degrade
@case
def h06():
    c = Case("h06_paraphrase_db_partitioning", lang="sql")
    c.user("Partition the sessions table by month. Always take a snapshot before altering a table.", tag="u")
    c.run("call_d1", "bash", {"command": "pg_dump -Fc -t sessions appdb > snapshots/sessions_pre.dump"}, "")
    c.asst("I'll re-run the schema linter once the partition key columns are added.", tag="c1")
    c.run("call_d2", "bash", {"command": "psql appdb -f ddl/add_partition_key.sql"}, "ALTER TABLE")
    c.asst("Partition key columns are added. Next I need to migrate the sessions table to the partitioned layout "
           "after the read replica catches up.", tag="c2")
    c.pad(4)
    c.compact("Goal: partition the sessions table by month. A snapshot of sessions was taken and the partition key "
              "columns were added. Open items: the schema linter has to be run again now that the partition key "
              "columns are in; migration of the sessions table to the partitioned layout is pending until the read "
              "replica catches up. Standing rule: always take a snapshot before altering a table.",
              self_report={"retained": ["re-run the schema linter", "migrate the sessions table to the partitioned layout"]},
              verdict="degrade",
              items=[it("commitment", "linter", "retained", "@c1", "agree"),
                     it("commitment", "partitioned layout", "retained", "@c2", "agree"),
                     it("constraint", "snapshot", "retained", "@u")],
              consumers=cons(planner=True))
    c.no_finding("false_completion")
    return c


@case
def h07():
    c = Case("h07_paraphrase_passive_openhands_cdn", lang="web")
    c.user("Ship the new marketing assets to the CDN bucket. Make sure the old asset URLs keep working.", tag="u")
    c.asst("I still have to invalidate the CDN cache when the new assets finish uploading.", tag="c1")
    c.run("call_k1", "bash", {"command": "aws s3 sync dist/ s3://mkt-assets/v2/"}, "upload: 214 files to s3://mkt-assets/v2/")
    c.asst("TODO: add redirect rules for the renamed hero images once the cache is invalidated.", tag="c2")
    c.pad(3)
    c.compact("USER_CONTEXT: Ship the new marketing assets to the CDN bucket; make sure the old asset URLs keep working.\n"
              "COMPLETED: New assets synced to the v2 prefix of the bucket (214 files).\n"
              "PENDING:\n- The CDN cache still needs to be invalidated (the upload has finished).\n"
              "- Redirect rules for the renamed hero images are to be added after the invalidation.\n"
              "CURRENT_STATE: About to start the cache invalidation.",
              verdict="degrade",
              items=[it("commitment", "invalidate", "retained", "@c1", "unattested"),
                     it("commitment", "redirect", "retained", "@c2"),
                     it("constraint", "asset URLs", "retained", "@u")])
    c.no_finding("unsupported_completion")  # amended after first run
    return c


@case
def h08():
    c = Case("h08_paraphrase_synonyms_opencode_web", lang="web")
    c.user("Clear the npm audit findings in the dashboard app and fix the date picker timezone bug.")
    c.run("call_n1", "bash", {"command": "npm audit --omit=dev"}, "lodash  <4.17.21  Severity: high  Prototype Pollution\n1 high severity vulnerability")
    c.asst("I'll bump the lodash dependency after the audit report is reviewed by security.", tag="c1")
    c.run("call_n2", "edit", {"path": "src/components/DatePicker.tsx", "patch": "-new Date(value)\n+parseISO(value, { tz })"}, "applied 1 hunk")
    c.asst("The timezone fix is up for review. TODO: add a regression test for the date picker timezone bug once the fix is merged.", tag="c2")
    c.pad(4)
    c.compact("## Work State\n### Completed\n- Ran npm audit on the dashboard app: one high-severity advisory in lodash.\n"
              "- Timezone fix for the date picker is up for review.\n"
              "### Active\n- Upgrade lodash once security has reviewed the audit report.\n"
              "- Create a regression test for the date picker timezone bug after the fix merges.\n"
              "## Next Move\nWait for the security review of the audit report.",
              self_report={"retained": ["bump the lodash dependency", "add a regression test for the date picker timezone bug"]},
              verdict="degrade",
              items=[it("commitment", "lodash", "retained", "@c1", "agree"),
                     it("commitment", "regression test", "retained", "@c2", "agree")])
    return c


# ---------------------------------------------------------------- status flips
@case
def h09():
    c = Case("h09_flip_past_tense_security", lang="py")
    c.user("An API key for the payments sandbox leaked in a public gist. Contain it.")
    c.run("call_g1", "bash", {"command": "gh api -X DELETE gists/payments-sandbox-note"}, "HTTP 204")
    c.asst("The gist is gone. I'll rotate the leaked sandbox API key as soon as the incident channel confirms which environments used it.", tag="c1")
    c.asst("I'll write a postmortem in the security wiki after the rotation.", tag="c2")
    c.user("Incident channel confirms only the sandbox used that key.")
    c.pad(3)
    c.compact("A payments sandbox API key leaked in a public gist; the gist was deleted and the incident channel "
              "confirmed only the sandbox used the key. The leaked sandbox API key was rotated. "
              "Next: write the postmortem in the security wiki.",
              verdict="violate",
              items=[it("commitment", "rotate", "flipped", "@c1"),
                     it("commitment", "postmortem", "retained", "@c2")],
              consumers=cons(planner=False, router=True))
    return c


@case
def h10():
    c = Case("h10_flip_gemini_done_search", lang="py")
    c.user("Reindex the product search cluster with the new synonym analyzer.")
    c.plan([("p1", "Add the synonym analyzer to the index template", "in_progress"),
            ("p2", "Reindex the product search cluster", "pending"),
            ("p3", "Switch the products alias to the new index", "pending")])
    c.run("call_e1", "edit", {"path": "templates/products.json", "patch": "+\"analyzer\": \"synonym_en\""}, "applied 1 hunk")
    c.plan([("p1", "Add the synonym analyzer to the index template", "completed"),
            ("p2", "Reindex the product search cluster", "in_progress"),
            ("p3", "Switch the products alias to the new index", "pending")])
    c.pad(3)
    c.compact("<state_snapshot>\n  <overall_goal>Reindex the product search cluster with the new synonym analyzer.</overall_goal>\n"
              "  <key_knowledge>The synonym analyzer lives in the products index template.</key_knowledge>\n"
              "  <current_plan>\n"
              "    1. [DONE] Add the synonym analyzer to the index template\n"
              "    2. [DONE] Reindex the product search cluster\n"
              "    3. [TODO] Switch the products alias to the new index\n"
              "  </current_plan>\n</state_snapshot>",
              verdict="violate",
              items=[it("commitment", "Reindex the product", "flipped"),
                     it("commitment", "alias", "retained"),
                     it("commitment", "synonym analyzer to the index", not_required=True)],
              consumers=cons(planner=False))
    return c


@case
def h11():
    c = Case("h11_flip_checklist_ios_sdk", lang="swift")
    c.user("Regenerate the OpenAPI client for the iOS app and update the SDK docs to match.")
    c.asst("I'll regenerate the OpenAPI client after the backend team publishes the v3 spec.", tag="c1")
    c.asst("Once the client is regenerated, I'll update the SDK docs with the new method names.", tag="c2")
    c.pad(3)
    c.user("Backend published the v3 spec.")
    c.compact("Progress:\n- [x] Backend published the v3 spec\n- [x] Regenerate the OpenAPI client\n"
              "- [ ] Update the SDK docs with the new method names",
              self_report={"retained": ["regenerate the OpenAPI client", "update the SDK docs"]},
              verdict="violate",
              items=[it("commitment", "OpenAPI client", "flipped", "@c1", "overclaim"),
                     it("commitment", "SDK docs", "retained", "@c2", "agree")])
    c.no_finding("unsupported_completion")  # amended after first run
    return c


@case
def h12():
    c = Case("h12_flip_has_been_billing", lang="go")
    c.user("Invoices are double-counting prorated seats. Fix the proration math and get it to staging.")
    c.run("call_b1", "edit", {"path": "billing/proration.go", "patch": "-total += seat.Price\n+total += seat.Prorated()"}, "applied 1 hunk")
    c.asst("I'll deploy the proration fix to staging once the invoice golden tests pass.", tag="c")
    c.run("call_b2", "bash", {"command": "go test ./billing/... -run TestInvoiceGolden"}, "ok  \texample.com/billing\t3.2s")
    c.asst("Invoice golden tests pass.")
    c.pad(3)
    c.compact("Proration math for prorated seats was fixed in billing/proration.go and the invoice golden tests pass. "
              "The proration fix has been deployed to staging.",
              verdict="violate",
              items=[it("commitment", "staging", "flipped", "@c")],
              consumers=cons(planner=False))
    c.pad(2)
    c.asst("Deployed the proration fix to staging; invoices are correct now.", tag="claim")
    c.pad(2)
    c.compact("Proration fix: code change done, golden tests green, deployment to staging completed.",
              verdict="violate",
              items=[it("commitment", "staging", "flipped", "@c")])
    c.finding("false_completion", "claim")
    return c


# ---------------------------------------------------------------- resurrection
@case
def h13():
    c = Case("h13_resurrect_gemini_s3", lang="py")
    c.user("Make the nightly export resilient to S3 throttling.")
    c.plan([("t1", "Add a retry wrapper around the S3 uploader", "in_progress"),
            ("t2", "Add a jittered backoff to the retry wrapper", "pending"),
            ("t3", "Load-test the exporter against a throttled bucket", "pending")])
    c.run("call_r1", "edit", {"path": "exporter/upload.py", "patch": "+@retry(on=SlowDown, attempts=5)"}, "applied 1 hunk")
    c.plan([("t1", "Add a retry wrapper around the S3 uploader", "completed"),
            ("t2", "Add a jittered backoff to the retry wrapper", "in_progress"),
            ("t3", "Load-test the exporter against a throttled bucket", "pending")])
    c.pad(3)
    c.compact("<state_snapshot>\n <overall_goal>Make the nightly export resilient to S3 throttling.</overall_goal>\n"
              " <current_plan>\n 1. [TODO] Add a retry wrapper around the S3 uploader\n"
              " 2. [IN PROGRESS] Add a jittered backoff to the retry wrapper\n"
              " 3. [TODO] Load-test the exporter against a throttled bucket\n </current_plan>\n</state_snapshot>",
              verdict="violate",
              items=[it("commitment", "S3 uploader", "resurrected"),
                     it("commitment", "jittered", "retained"),
                     it("commitment", "Load-test", "retained")])
    return c


@case
def h14():
    c = Case("h14_resurrect_claude_pending_alembic", lang="py")
    c.user("Add an invoices table with alembic and expose it in the admin.")
    c.plan([("a1", "Write the alembic migration for the invoices table", "in_progress"),
            ("a2", "Register the Invoice model in the admin site", "pending")])
    c.run("call_a1", "bash", {"command": "alembic revision -m 'add invoices table'"},
          "Generating migrations/versions/7c1e_add_invoices_table.py ...  done")
    c.plan([("a1", "Write the alembic migration for the invoices table", "completed"),
            ("a2", "Register the Invoice model in the admin site", "pending")])
    c.pad(4)
    c.compact("1. Primary Request and Intent:\n   Add an invoices table with alembic and expose it in the admin.\n"
              "2. Key Technical Concepts:\n   - Alembic revisions, admin site registration\n"
              "3. Files and Code Sections:\n   - migrations/versions/7c1e_add_invoices_table.py\n"
              "4. Errors and fixes:\n   - None\n5. Problem Solving:\n   - None so far\n"
              "6. All user messages:\n   - \"Add an invoices table with alembic and expose it in the admin.\"\n"
              "7. Pending Tasks:\n   - Write the alembic migration for the invoices table\n"
              "   - Register the Invoice model in the admin site\n"
              "8. Current Work:\n   Reading the admin configuration.\n"
              "9. Optional Next Step:\n   Write the alembic migration for the invoices table.",
              verdict="violate",
              items=[it("commitment", "alembic migration", "resurrected"),
                     it("commitment", "Register the Invoice", "retained")])
    return c


@case
def h15():
    c = Case("h15_resurrect_fulfilled_commitment_proto", lang="go")
    c.user("Add a currency field to the Price message and update the Go services.")
    c.run("call_q1", "edit", {"path": "proto/price.proto", "patch": "+  string currency = 4;"}, "applied 1 hunk")
    c.asst("I'll regenerate the protobuf stubs after the proto change passes buf lint.", tag="c1")
    c.run("call_q2", "bash", {"command": "buf lint proto/"}, "")
    c.run("call_q3", "bash", {"command": "./scripts/regenerate_stubs.sh proto/"}, "regenerated 14 stub files under gen/go")
    c.asst("Regenerated the protobuf stubs; 14 files changed under gen/go.")
    c.asst("Next I need to update the pricing service to populate the currency field.", tag="c2")
    c.pad(3)
    c.compact("Added a currency field to the Price message; buf lint passes. Next: regenerate the protobuf stubs, "
              "then update the pricing service to populate the currency field.",
              verdict="violate",
              items=[it("commitment", "protobuf stubs", "resurrected", "@c1"),
                     it("commitment", "pricing service", "retained", "@c2")])
    c.run("call_q4", "edit", {"path": "services/pricing/price.go", "patch": "+\tp.Currency = req.Currency"}, "applied 1 hunk")
    c.asst("The pricing service now populates the currency field.")
    c.pad(2)
    c.compact("Currency field added to Price, protobuf stubs regenerated, and the pricing service was updated to "
              "populate the currency field.",
              verdict="degrade",
              items=[it("commitment", "protobuf stubs", not_required=True),
                     it("commitment", "pricing service", not_required=True)])
    c.no_finding("unsupported_completion")  # amended after first run
    return c


# ---------------------------------------------------------------- errors
@case
def h16():
    c = Case("h16_errors_onnx_export", lang="py")
    c.user("Get the ONNX export of the detector working for the edge build.")
    c.run("call_x1", "bash", {"command": "python -m pytest tests/test_detector.py"},
          "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB", err=True)
    c.run("call_x2", "edit", {"path": "tests/conftest.py", "patch": "+os.environ['CUDA_VISIBLE_DEVICES'] = ''"}, "applied 1 hunk")
    c.run("call_x3", "bash", {"command": "python -m pytest tests/test_detector.py"}, "12 passed in 8.10s")
    c.run("call_x4", "bash", {"command": "python export_onnx.py --opset 19"},
          "torch.onnx.errors.UnsupportedOperatorError: Exporting the operator 'aten::_upsample_bicubic2d_aa' to ONNX opset version 19 is not supported.", err=True)
    c.pad(3)
    c.compact("Detector tests pass on CPU after hiding the GPU in tests/conftest.py. Working on the ONNX export for the edge build.",
              verdict="violate",
              items=[it("error", "upsample_bicubic2d", ["dropped", "weak"]),
                     it("error", "CUDA out of memory", not_required=True)],
              consumers=cons(verifier=False, router=True))
    return c


@case
def h17():
    c = Case("h17_errors_kept_docs", lang="md")
    c.user("The docs site build is red; get it green.")
    c.run("call_m1", "bash", {"command": "npm run lint:md"},
          "docs/guide/install.md:14 MD040/fenced-code-language Fenced code blocks should have a language specified", err=True)
    c.run("call_m2", "edit", {"path": "docs/guide/install.md", "patch": "-```\n+```bash"}, "applied 1 hunk")
    c.run("call_m3", "bash", {"command": "npm run lint:md"}, "markdownlint: no issues found")
    c.run("call_m4", "bash", {"command": "mkdocs build --strict"},
          "WARNING - Doc file 'guide/upgrade.md' contains a link 'release-notes.md', but the target is not found among documentation files.\nAborted with 1 warnings in strict mode!", err=True)
    c.pad(3)
    c.compact("Markdown lint is clean after tagging the fenced code block in docs/guide/install.md. Still failing: "
              "`mkdocs build --strict` reports \"WARNING - Doc file 'guide/upgrade.md' contains a link 'release-notes.md', "
              "but the target is not found among documentation files.\" That link is the next thing to fix.",
              verdict="degrade",
              items=[it("error", "release-notes.md", "retained"),
                     it("error", "MD040", not_required=True)],
              consumers=cons(verifier=True))
    return c


@case
def h18():
    c = Case("h18_errors_resurrected_docker", lang="py")
    c.user("Containerize the API service.")
    c.run("call_y1", "bash", {"command": "docker build -t api:dev ."},
          "COPY failed: file not found in build context: requirements.lock", err=True)
    c.run("call_y2", "bash", {"command": "pip-compile --output-file requirements.lock requirements.in"}, "wrote requirements.lock")
    c.run("call_y3", "bash", {"command": "docker build -t api:dev ."}, "Successfully built 3b1f0c2d9e8a\nSuccessfully tagged api:dev")
    c.pad(3)
    c.compact("The API service image builds as api:dev now that requirements.lock is generated.",
              verdict="degrade",
              items=[it("error", "COPY failed", not_required=True)],
              consumers=cons(verifier=True))
    c.pad(2)
    c.compact("Containerizing the API service. The docker build still fails with \"COPY failed: file not found in build "
              "context: requirements.lock\"; that has to be fixed before anything else.",
              verdict="violate",
              items=[it("error", "COPY failed", "resurrected")])
    return c


# ---------------------------------------------------------------- self-report
@case
def h19():
    c = Case("h19_unsourced_claim_dunning", lang="web")
    c.user("Draft the dunning email sequence for failed card payments.")
    c.run("call_u1", "edit", {"path": "templates/dunning/day1.mjml", "patch": "+<mj-text>Your card was declined</mj-text>"}, "created")
    c.asst("I'll send the dunning templates to legal for review once the copy is final.", tag="c")
    c.user("Copy is final.")
    c.pad(2)
    c.compact("Dunning email sequence drafted (templates/dunning/day1.mjml onward); the copy is final. "
              "Pending: send the dunning templates to legal for review.",
              self_report={"retained": ["send the dunning templates to legal for review",
                                        "refund the duplicate charge on invoice INV-5521"]},
              verdict="violate",
              items=[it("commitment", "legal", "retained", "@c", "agree")],
              unsourced_claims=["duplicate charge"])
    return c


@case
def h20():
    c = Case("h20_stale_claim_degrade_expectations", lang="py")
    c.user("Add a schema check to the ingestion DAG.")
    c.plan([("s1", "Write the Great Expectations suite for the orders feed", "in_progress"),
            ("s2", "Wire the suite into the ingestion DAG", "pending")])
    c.run("call_v1", "edit", {"path": "expectations/orders_feed.json", "patch": "+{\"expectation_type\": \"expect_column_values_to_not_be_null\"}"}, "created")
    c.plan([("s1", "Write the Great Expectations suite for the orders feed", "completed"),
            ("s2", "Wire the suite into the ingestion DAG", "pending")])
    c.pad(3)
    c.compact("The Great Expectations suite for the orders feed is written. Pending: wire the suite into the ingestion DAG.",
              self_report={"retained": ["s1", "s2"]},
              verdict="degrade",
              items=[it("commitment", "Wire the suite", "retained", None, "agree"),
                     it("commitment", "Great Expectations suite", not_required=True)])
    return c


@case
def h21():
    c = Case("h21_underclaim_dark_mode", lang="web")
    c.user("Add dark mode to the marketing site.")
    c.asst("I'll add a prefers-color-scheme media query to the base stylesheet after the palette is approved.", tag="c1")
    c.asst("Once the media query is in, I'll audit the hero images for contrast in dark mode.", tag="c2")
    c.user("Palette approved.")
    c.pad(3)
    c.compact("Dark mode for the marketing site: the palette is approved. Next steps: add a prefers-color-scheme media "
              "query to the base stylesheet, then audit the hero images for contrast in dark mode.",
              self_report={"retained": ["add a prefers-color-scheme media query to the base stylesheet"]},
              verdict="degrade",
              items=[it("commitment", "stylesheet", "retained", "@c1", "agree"),
                     it("commitment", "hero images", "retained", "@c2", "underclaim")])
    return c


# ---------------------------------------------------------------- plan items
@case
def h22():
    c = Case("h22_plan_openhands_overclaim_push", lang="kt")
    c.user("Roll out the new push notification opt-in screen on Android.")
    c.plan([("n1", "Create the notif_optin_v2 feature flag", "in_progress"),
            ("n2", "Ship the opt-in screen to 10% of Android users", "pending"),
            ("n3", "Log the opt-in analytics event", "pending")])
    c.run("call_o1", "bash", {"command": "flagctl create notif_optin_v2 --default off"}, "flag notif_optin_v2 created")
    c.plan([("n1", "Create the notif_optin_v2 feature flag", "completed"),
            ("n2", "Ship the opt-in screen to 10% of Android users", "pending"),
            ("n3", "Log the opt-in analytics event", "in_progress")])
    c.pad(3)
    c.compact("USER_CONTEXT: Roll out the new push notification opt-in screen on Android.\n"
              "COMPLETED: notif_optin_v2 feature flag created (default off).\n"
              "PENDING: Log the opt-in analytics event.\n"
              "CURRENT_STATE: Implementing the analytics event.",
              self_report={"retained": ["n1", "n2", "n3"]},
              verdict="violate",
              items=[it("commitment", "Ship the opt-in", ["dropped", "weak"], None, "overclaim"),
                     it("commitment", "analytics event", "retained", None, "agree"),
                     it("commitment", "feature flag", not_required=True)],
              consumers=cons(planner=False))
    return c


@case
def h23():
    c = Case("h23_plan_opencode_degrade_dbt", lang="sql")
    c.user("Move the revenue models from the legacy SQL scripts to dbt.")
    c.plan([("r1", "Port stg_payments to dbt", "in_progress"),
            ("r2", "Port fct_revenue to dbt", "pending"),
            ("r3", "Add dbt tests for fct_revenue", "pending")])
    c.run("call_t1", "edit", {"path": "models/staging/stg_payments.sql", "patch": "+select * from {{ source('pay', 'payments') }}"}, "created")
    c.run("call_t2", "bash", {"command": "dbt run --select stg_payments"}, "Completed successfully\nDone. PASS=1 WARN=0 ERROR=0 SKIP=0 TOTAL=1")
    c.plan([("r1", "Port stg_payments to dbt", "completed"),
            ("r2", "Port fct_revenue to dbt", "in_progress"),
            ("r3", "Add dbt tests for fct_revenue", "pending")])
    c.pad(4)
    c.compact("## Work State\n### Completed\n- Port stg_payments to dbt (dbt run succeeded)\n"
              "### Active\n- Port fct_revenue to dbt\n"
              "## Next Move\n- Add dbt tests for fct_revenue once it is ported.",
              verdict="degrade",
              items=[it("commitment", "Port fct_revenue", "retained"),
                     it("commitment", "dbt tests", "retained"),
                     it("commitment", "stg_payments", not_required=True)],
              consumers=cons(planner=True))
    return c


# ---------------------------------------------------------------- identifiers
@case
def h24():
    c = Case("h24_identifiers_sha_ticket_branch", lang="py")
    c.user("Backport the CSRF fix to the 2.4 release line.")
    c.run("call_i1", "bash", {"command": "git log --oneline -1 --grep CSRF"}, "9e1d4c7 Enforce SameSite and CSRF token on form posts")
    c.asst("I'll cherry-pick commit 9e1d4c7 onto release/2.4 once QA signs off on SEC-2207.", tag="c")
    c.pad(3)
    c.compact("The CSRF fix is being backported to the 2.4 release line. Next: cherry-pick the CSRF fix commit onto the "
              "release branch once QA signs off.",
              verdict="violate",
              items=[it("commitment", "cherry-pick", "retained", "@c"),
                     it("identifier", "9e1d4c7", "dropped"),
                     it("identifier", "SEC-2207", "dropped"),
                     it("identifier", "release/2.4", "dropped")])
    return c


@case
def h25():
    c = Case("h25_identifiers_pr_number_path", lang="web")
    c.user("Address the review feedback on the date picker PR.")
    c.run("call_j1", "bash", {"command": "gh pr view 1287 --comments"},
          "#1287 Date picker keyboard navigation (supersedes #128)\n3 review comments on src/components/DatePicker.tsx")
    c.asst("I'll address the review comments on PR #1287 in src/components/DatePicker.tsx after the design tokens land.", tag="c")
    c.pad(3)
    c.compact("Date picker PR (supersedes #128). Pending: address the review comments in components/DatePicker.tsx "
              "once the design tokens land.",
              verdict="violate",
              items=[it("commitment", "review comments", "retained", "@c"),
                     it("identifier", "1287", "dropped"),
                     it("identifier", "DatePicker.tsx", "retained")])
    return c


@case
def h26():
    c = Case("h26_identifiers_url_branch_kept", lang="tf")
    c.user("Move the API health check to the new endpoint.")
    c.run("call_l1", "bash", {"command": "kubectl get ingress api -n edge -o name"}, "ingress.networking.k8s.io/api")
    c.asst("I'll point the load balancer health check at https://api.internal.example.com/healthz once the "
           "hotfix/tls-renewal branch is deployed.", tag="c")
    c.pad(3)
    c.compact("Goal: move the API health check to the new endpoint. Open: point the load balancer health check at "
              "https://api.internal.example.com/healthz once the hotfix/tls-renewal branch is deployed.",
              verdict="degrade",
              items=[it("commitment", "health check", "retained", "@c", "unattested"),
                     it("identifier", "healthz", "retained"),
                     it("identifier", "hotfix/tls-renewal", "retained")])
    return c


@case
def h27():
    c = Case("h27_identifier_boundaries_auth", lang="web")
    c.user("The login redirect loops for SSO users; fix it. Looks related to INC-421 from last week.")
    c.run("call_z1", "read_file", {"path": "src/lib/oauth.ts"}, "export function callback(req) { return redirect(req.query.next) }")
    c.asst("I'll patch the redirect guard in src/lib/auth.ts after INC-42 is triaged by the on-call.", tag="c")
    c.pad(3)
    c.compact("SSO login redirect loop; read src/lib/oauth.ts. Pending: patch the redirect guard once INC-421 is "
              "triaged by the on-call.",
              verdict="violate",
              items=[it("commitment", "redirect guard", "retained", "@c"),
                     it("identifier", "lib/auth.ts", "dropped"),
                     it("identifier", "INC-42", "dropped")])
    return c


# ---------------------------------------------------------------- lineage
@case
def h28():
    c = Case("h28_lineage_constraint_ios", lang="swift")
    c.user("Add biometric unlock to the iOS app. From now on, don't change the deployment target without asking me first.", tag="u")
    c.asst("Adding LocalAuthentication to the unlock flow.")
    c.run("call_f1", "edit", {"path": "ios/App/UnlockViewController.swift", "patch": "+import LocalAuthentication"}, "applied 1 hunk")
    c.pad(3)
    c.compact("Task: biometric unlock for the iOS app; LocalAuthentication added to UnlockViewController.swift. "
              "Rule from the user: don't change the deployment target without asking first.",
              verdict="degrade",
              items=[it("constraint", "deployment target", "retained", "@u")],
              consumers=cons(planner=True))
    c.pad(3)
    c.run("call_f2", "edit", {"path": "ios/App/Info.plist", "patch": "+<key>NSFaceIDUsageDescription</key>"}, "applied 1 hunk")
    c.compact("Biometric unlock is wired into UnlockViewController.swift and Info.plist has the Face ID usage string.",
              verdict="violate",
              items=[it("constraint", "deployment target", "dropped", "@u")],
              consumers=cons(planner=False))
    return c


@case
def h29():
    c = Case("h29_lineage_commitment_three_ml", lang="py")
    c.user("Fine-tune the sentiment model on the new reviews dataset.")
    c.asst("I'll evaluate the best checkpoint on the held-out test split once training passes epoch 10.", tag="c")
    c.run("call_h1", "bash", {"command": "python finetune.py --epochs 12 --data data/reviews_v3"},
          "epoch 12/12 val_loss=0.231 saved checkpoints/best.pt")
    c.pad(2)
    c.compact("Fine-tuning the sentiment model on reviews v3; training ran 12 epochs with val_loss 0.231. "
              "Still to do: evaluate the best checkpoint on the held-out test split.",
              verdict="degrade",
              items=[it("commitment", "checkpoint", "retained", "@c")])
    c.pad(2)
    c.compact("Sentiment model fine-tuned on reviews v3 (val_loss 0.231). Remaining: evaluation of the best checkpoint "
              "on the held-out test split.",
              verdict="degrade",
              items=[it("commitment", "checkpoint", "retained", "@c")])
    c.pad(2)
    c.compact("Sentiment model fine-tuned on reviews v3 with val_loss 0.231; best weights saved to checkpoints/best.pt.",
              verdict="violate",
              items=[it("commitment", "checkpoint", "dropped", "@c")],
              consumers=cons(planner=False))
    c.asst("Evaluated the best checkpoint on the held-out test split: accuracy is 91.3%.", tag="claim")
    c.finding("false_completion", "claim")
    return c


# ---------------------------------------------------------------- negation
@case
def h30():
    c = Case("h30_negated_ledger_backfill", lang="go")
    c.user("Fix the currency rounding in the ledger.")
    c.run("call_n1", "edit", {"path": "ledger/rounding.go", "patch": "-math.Round(x)\n+roundHalfEven(x, 2)"}, "applied 1 hunk")
    c.asst("I'll re-run the ledger backfill after the rounding fix merges.", tag="c1")
    c.asst("I'll also restart the reconciliation workers once the backfill is done.", tag="c2")
    c.run("call_n2", "bash", {"command": "gh pr merge 3310 --squash"}, "Merged pull request #3310")
    c.pad(3)
    c.compact("The currency rounding fix for the ledger merged (#3310). We will not re-run the ledger backfill; the "
              "old rows stay as they are. Next: restart the reconciliation workers.",
              verdict="violate",
              items=[it("commitment", "backfill", ["dropped", "weak"], "@c1"),
                     it("commitment", "reconciliation", "retained", "@c2")],
              consumers=cons(planner=False))
    c.no_finding("unsupported_completion")  # amended after first run
    return c


@case
def h31():
    c = Case("h31_negated_no_need_nginx", lang="tf")
    c.user("Roll the new nginx config out to the edge pool.")
    c.asst("I'll reload nginx on every edge node once the config passes nginx -t.", tag="c")
    c.run("call_g1", "bash", {"command": "nginx -t -c /etc/nginx/edge.conf"},
          "nginx: the configuration file /etc/nginx/edge.conf syntax is ok\nnginx: configuration file /etc/nginx/edge.conf test is successful")
    c.pad(2)
    c.compact("The new edge nginx config passes nginx -t. There is no need to reload nginx on the edge nodes.",
              verdict="violate",
              items=[it("commitment", "reload", ["dropped", "weak"], "@c")],
              consumers=cons(planner=False))
    return c


# ---------------------------------------------------------------- constraints / consumers
@case
def h32():
    c = Case("h32_constraints_mixed_security", lang="py")
    c.user("Add the /v1/exports endpoint to the reports API. Do not commit anything under secrets/. "
           "Make sure every new endpoint requires an auth token. Always use parameterized queries for the exports lookup.", tag="u")
    c.run("call_c1", "edit", {"path": "api/routes/exports.py", "patch": "+@router.get('/v1/exports')"}, "applied 1 hunk")
    c.pad(3)
    c.compact("Added the /v1/exports endpoint in api/routes/exports.py. Rules: do not commit anything under secrets/; "
              "make sure every new endpoint requires an auth token.",
              verdict="violate",
              items=[it("constraint", "secrets/", "retained", "@u"),
                     it("constraint", "auth token", "retained", "@u"),
                     it("constraint", "parameterized", "dropped", "@u")],
              consumers=cons(planner=False, router=True, verifier=True))
    return c


@case
def h33():
    c = Case("h33_custom_consumers_tax", lang="py",
             run_meta={"consumers": [{"name": "ticket_sync", "requires": ["identifier"]},
                                     {"name": "planner", "requires": ["commitment"]}]})
    c.user("Customers on annual plans are charged tax twice. Fix it and update the ticket. Never email customers directly.", tag="u")
    c.run("call_k1", "edit", {"path": "billing/tax.py", "patch": "-tax = line.tax + invoice.tax\n+tax = line.tax"}, "applied 1 hunk")
    c.asst("I'll post the root cause on BILL-7741 after the tax fix is reviewed.", tag="c")
    c.pad(2)
    c.compact("Annual-plan customers were charged tax twice; the fix in billing/tax.py is up for review. "
              "Pending: post the root cause on the ticket after the tax fix is reviewed.",
              verdict="violate",
              items=[it("commitment", "root cause", "retained", "@c"),
                     it("constraint", "email", "dropped", "@u"),
                     it("identifier", "BILL-7741", "dropped")],
              consumers=cons(ticket_sync=False, planner=True))
    return c


# ---------------------------------------------------------------- completions
@case
def h34():
    c = Case("h34_unsupported_completion_docs", lang="md")
    c.user("Publish the 4.0 migration guide.")
    c.asst("I'll add a section on the removed config keys after the API reference is regenerated.", tag="c")
    c.run("call_a1", "bash", {"command": "make api-reference"}, "wrote 212 pages to site/reference")
    c.asst("The API reference is regenerated.")
    c.pad(2)
    c.compact("4.0 migration guide in progress; the API reference was regenerated. Pending: add a section on the "
              "removed config keys.",
              verdict="degrade",
              items=[it("commitment", "config keys", "retained", "@c")])
    c.asst("Added the section on the removed config keys to the migration guide.", tag="claim")
    c.finding("unsupported_completion", "claim")
    c.no_finding("false_completion")
    return c


@case
def h35():
    c = Case("h35_true_completion_rollup", lang="py")
    c.user("Speed up the nightly clickstream rollup.")
    c.asst("I'll rerun the clickstream rollup with the new partition pruning once the staging dry run looks clean.", tag="c")
    c.run("call_s1", "bash", {"command": "spark-submit rollup.py --dry-run --env staging"},
          "dry run ok: 0 rows written, plan pruned 118/120 partitions")
    c.asst("The staging dry run looks clean.")
    c.pad(2)
    c.compact("Nightly clickstream rollup now prunes partitions; the staging dry run is clean (118/120 partitions "
              "pruned). Next: run the clickstream rollup again with the new partition pruning.",
              verdict="degrade",
              items=[it("commitment", "rollup", "retained", "@c")])
    c.run("call_s2", "bash", {"command": "spark-submit rollup.py --env prod"}, "rollup finished in 14m02s")
    c.asst("Re-ran the clickstream rollup with partition pruning: 14 minutes instead of 61.")
    c.pad(2)
    c.compact("Nightly clickstream rollup now prunes partitions and finishes in 14 minutes instead of 61.",
              verdict="degrade",
              items=[it("commitment", "rollup", not_required=True)])
    c.no_finding("false_completion")
    c.no_finding("unsupported_completion")
    return c


@case
def h36():
    c = Case("h36_claude_layout_heavy_degrade_applepay", lang="web")
    c.user("Add Apple Pay to the checkout page. Don't touch the legacy PayPal flow.", tag="u")
    c.asst("I'll wire the Apple Pay button into CheckoutForm once the merchant validation endpoint returns a session.", tag="c1")
    c.run("call_ap1", "bash", {"command": "curl -s -X POST localhost:3000/api/applepay/validate"}, "{\"merchantSession\":{\"epochTimestamp\":1732900000}}")
    c.asst("The merchant validation endpoint returns a session. After that I still have to add the Apple Pay domain "
           "association file to the public folder before the staging deploy.", tag="c2")
    c.pad(20)
    c.compact("1. Primary Request and Intent:\n   Add Apple Pay to the checkout page. The user said: don't touch the legacy PayPal flow.\n"
              "2. Key Technical Concepts:\n   - Apple Pay JS, merchant validation sessions\n"
              "3. Files and Code Sections:\n   - The validate endpoint returns a merchant session\n"
              "4. Errors and fixes:\n   - None\n"
              "5. Problem Solving:\n   - Merchant validation works locally.\n"
              "6. All user messages:\n   - \"Add Apple Pay to the checkout page. Don't touch the legacy PayPal flow.\"\n"
              "7. Pending Tasks:\n   - Wire the Apple Pay button into CheckoutForm (the merchant validation endpoint now returns a session).\n"
              "   - Add the Apple Pay domain association file to the public folder before the staging deploy.\n"
              "8. Current Work:\n   Verified that the merchant validation endpoint returns a session.\n"
              "9. Optional Next Step:\n   Wire the Apple Pay button into CheckoutForm.",
              self_report={"retained": ["wire the Apple Pay button into CheckoutForm", "add the Apple Pay domain association file"]},
              verdict="degrade",
              items=[it("commitment", "CheckoutForm", "retained", "@c1", "agree"),
                     it("commitment", "domain association", "retained", "@c2", "agree"),
                     it("constraint", "PayPal", "retained", "@u")],
              consumers=cons(planner=True, router=True, verifier=True))
    return c


@case
def h37():
    c = Case("h37_opaque_summary", lang="go")
    c.user("Upgrade the gRPC gateway to v2.")
    c.asst("I'll regenerate the gateway handlers after go.mod is bumped.", tag="c")
    c.run("call_op1", "bash", {"command": "go get github.com/grpc-ecosystem/grpc-gateway/v2@v2.20.0"}, "go: added github.com/grpc-ecosystem/grpc-gateway/v2 v2.20.0")
    c.pad(3)
    blob = "gAAAAABnSx" + "".join(random.Random(7).choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") for _ in range(600)) + "=="
    c.compact(blob, trigger="server_side",
              verdict="violate",
              consumers=cons(planner=False))
    return c


def main():
    labels = {"cases": []}
    total = 0
    for fn in CASES:
        c = fn()
        c.write()
        labels["cases"].append(c.resolve())
        total += c.seq
    with open(os.path.join(OUT, "labels.json"), "w") as f:
        json.dump(labels, f, indent=1)
    print(len(CASES), "cases,", total, "compactions")


if __name__ == "__main__":
    main()
