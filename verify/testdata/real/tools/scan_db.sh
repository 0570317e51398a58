#!/bin/bash
# scan_db.sh <git-dir>: every historical version of .crush/crush.db / .opencode/opencode.db, with session and summary counts
g="git -C $1"
$g log --all --format='%H' --name-only --no-renames -- '*crush.db' '*opencode.db' | awk 'length($0)==40 && $0 ~ /^[0-9a-f]+$/{c=$0;next} NF{print c, $0}' | sort -u -k1,2 | while read c p; do
  b=$($g rev-parse "$c:$p" 2>/dev/null) || continue
  t=/tmp/scan_db_$$.db; $g cat-file -p $b > $t 2>/dev/null || { echo "MISSING $c $p"; continue; }
  python3 - "$t" "$c" "$p" <<'PY'
import sqlite3,sys
t,c,p=sys.argv[1:]
try:
    con=sqlite3.connect(t); cur=con.cursor()
    tabs=[r[0] for r in cur.execute("select name from sqlite_master where type='table'")]
    cols=[r[1] for r in cur.execute("pragma table_info(messages)")] if 'messages' in tabs else []
    ns=cur.execute("select count(*) from sessions").fetchone()[0] if 'sessions' in tabs else -1
    nm=cur.execute("select count(*) from messages").fetchone()[0] if 'messages' in tabs else -1
    summ=cur.execute("select count(*) from sessions where summary_message_id is not null and summary_message_id!=''").fetchone()[0] if 'sessions' in tabs and 'summary_message_id' in [r[1] for r in cur.execute('pragma table_info(sessions)')] else -1
    ism=cur.execute("select count(*) from messages where is_summary_message=1").fetchone()[0] if 'is_summary_message' in cols else -1
    import os
    print(f"{summ} {ism} sessions={ns} msgs={nm} size={os.path.getsize(t)} {c} {p}")
except Exception as e:
    print('ERR',e,c,p)
PY
  rm -f $t
done
