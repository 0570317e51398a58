# view.sh NAME K LINE
n=$1; k=$2; ln=$3
echo "=== $n c$k boundary L$ln"
python3 /work/wt/corpus4/verify/testdata/realtest2/tools/tasks.py $n/raw.jsonl $ln
python3 /work/wt/corpus4/verify/testdata/realtest2/tools/asyncs.py $n/raw.jsonl $ln
python3 - "$n/out/c$k.txt" <<'PY'
import sys,re
t=open(sys.argv[1]).read()
def sec(name):
    m=re.search(r'^## '+re.escape(name)+r'.*?$(.*?)(?=^## |\Z)',t,re.S|re.M)
    return m.group(1) if m else ''
print('--HUMAN'); 
for l in sec('human user messages').split('\n'):
    if re.match(r'^L\d+',l): print(l[:400])
print('--ERRORS')
for l in sec('errors in span').split('\n'):
    if l.startswith('!!'): print(l[:300])
print('--BG')
for l in sec('background jobs').split('\n'):
    if re.match(r'^L\d+',l): print(l[:200])
PY
