#!/usr/bin/env python3
"""Writes db/opencode.db (+ -wal): opencode 1.18's tables session, message and
part (the columns opencode 1.18.33 creates), two sessions. The first is
checkpointed into the file; the second, and a part changed in the first,
are only in the WAL, as opencode leaves a live store. Run from this folder."""
import json, os, shutil, sqlite3

os.makedirs("db", exist_ok=True)
tmp = "/tmp/loupe-mkdb.db"
for f in (tmp, tmp + "-wal", tmp + "-shm"):
    if os.path.exists(f):
        os.remove(f)
c = sqlite3.connect(tmp)
c.execute("pragma page_size=1024")
c.executescript("""
CREATE TABLE `session` (`id` text PRIMARY KEY, `project_id` text NOT NULL, `workspace_id` text, `parent_id` text,
  `slug` text NOT NULL, `directory` text NOT NULL, `path` text, `title` text NOT NULL, `version` text NOT NULL,
  `time_created` integer NOT NULL, `time_updated` integer NOT NULL);
CREATE TABLE `message` (`id` text PRIMARY KEY, `session_id` text NOT NULL, `time_created` integer NOT NULL,
  `time_updated` integer NOT NULL, `data` text NOT NULL);
CREATE TABLE `part` (`id` text PRIMARY KEY, `message_id` text NOT NULL, `session_id` text NOT NULL,
  `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `data` text NOT NULL,
  CONSTRAINT `fk_part` FOREIGN KEY (`message_id`) REFERENCES `message`(`id`) ON DELETE CASCADE);
CREATE INDEX `part_session_idx` ON `part` (`session_id`);
""")

def session(sid, title, t):
    c.execute("insert into session values (?,?,?,?,?,?,?,?,?,?,?)",
              (sid, "global", None, None, "slug", "/home/dev/proj", "", title, "1.18.33", t, t + 9000))

def msg(sid, mid, t, **data):
    c.execute("insert into message values (?,?,?,?,?)", (mid, sid, t, t, json.dumps(data)))

def part(sid, mid, pid, t, **data):
    c.execute("insert into part values (?,?,?,?,?,?)", (pid, mid, sid, t, t, json.dumps(data)))

def conversation(sid, n, t, summary, auto):
    u1, a1, cu, cs, cont = (f"msg_{n}01", f"msg_{n}02", f"msg_{n}03", f"msg_{n}04", f"msg_{n}05")
    msg(sid, u1, t + 1, role="user", time={"created": t + 1}, agent="build")
    part(sid, u1, f"prt_{n}01", t + 1, type="text", text="Prepare the orders-service database migration.")
    msg(sid, a1, t + 2, role="assistant", parentID=u1, modelID="fake-model", time={"created": t + 2},
        tokens={"input": 190000, "output": 50, "cache": {"read": 0, "write": 0}})
    part(sid, a1, f"prt_{n}02", t + 2, type="step-start")
    part(sid, a1, f"prt_{n}03", t + 2, type="text", text="I'll re-run the migration after the schema diff is reviewed.")
    part(sid, a1, f"prt_{n}04", t + 2, type="tool", tool="bash", callID=f"call_{n}",
         state={"status": "completed", "input": {"command": "echo hi"}, "output": "hi\n", "metadata": {"exit": 0}})
    part(sid, a1, f"prt_{n}05", t + 2, type="step-finish")
    msg(sid, cu, t + 3, role="user", time={"created": t + 3})
    part(sid, cu, f"prt_{n}06", t + 3, type="compaction", auto=auto, overflow=False)
    msg(sid, cs, t + 4, role="assistant", parentID=cu, mode="compaction", agent="compaction", summary=True,
        time={"created": t + 4}, tokens={"input": 2000, "output": 50, "cache": {"read": 0, "write": 0}})
    part(sid, cs, f"prt_{n}07", t + 4, type="text", text=summary)
    msg(sid, cont, t + 5, role="user", time={"created": t + 5})
    part(sid, cont, f"prt_{n}08", t + 5, type="text", synthetic=True, metadata={"compaction_continue": True},
         text="Continue if you have next steps, or stop and ask for clarification if you are unsure how to proceed.")

conversation("ses_first", "1", 1796166670000, "## Goal\nPrepare the migration.\n\n## Progress\n- The schema diff is being reviewed.\n", True)
session("ses_first", "First session", 1796166670000)
c.commit()
c.execute("pragma journal_mode=wal")
c.execute("pragma wal_autocheckpoint=0")
conversation("ses_second", "2", 1796166690000, "## Goal\nPrepare the migration.\n\n## Next\n- " + "Keep going. " * 120, False)
session("ses_second", "Second session, only in the WAL", 1796166690000)
c.commit()
c.execute("update part set data=? where id='prt_101'",
          (json.dumps({"type": "text", "text": "Prepare the orders-service database migration (changed in the WAL)."}),))
c.commit()
shutil.copy(tmp, "db/opencode.db")
shutil.copy(tmp + "-wal", "db/opencode.db-wal")
c.close()

# export/ses_first.json: what `opencode export ses_first` prints.
r = sqlite3.connect("file:db/opencode.db?mode=ro&immutable=1", uri=True)  # the file alone: as checkpointed
s = r.execute("select id, project_id, directory, title, version, time_created, time_updated from session where id='ses_first'").fetchone()
out = {"info": {"id": s[0], "projectID": s[1], "directory": s[2], "title": s[3], "version": s[4],
                "time": {"created": s[5], "updated": s[6]}}, "messages": []}
for mid, data in r.execute("select id, data from message where session_id='ses_first' order by time_created, id"):
    info = json.loads(data); info["id"] = mid; info["sessionID"] = "ses_first"
    parts = []
    for pid, pdata in r.execute("select id, data from part where message_id=? order by id", (mid,)):
        p = json.loads(pdata); p["id"] = pid; p["messageID"] = mid; p["sessionID"] = "ses_first"
        parts.append(p)
    out["messages"].append({"info": info, "parts": parts})
os.makedirs("export", exist_ok=True)
json.dump(out, open("export/ses_first.json", "w"), indent=2)
