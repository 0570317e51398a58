import sys,re
# rng.py: print the cc_dump.py full.txt blocks of lines A..B, each cut to WIDTH chars (reading aid, independent of loupe).
# rng.py full.txt A B [width]: print blocks of full.txt whose line number is in [A,B], each cut
t=open(sys.argv[1]).read().split('\n')
a,b=int(sys.argv[2]),int(sys.argv[3]); w=int(sys.argv[4]) if len(sys.argv)>4 else 300
cur=None; buf=[]
def flush():
    if cur is not None and a<=cur<=b:
        print(' ⏎ '.join(buf)[:w])
for l in t:
    m=re.match(r'L(\d+) ',l)
    if m:
        flush(); cur=int(m.group(1)); buf=[l]
    else:
        buf.append(l)
flush()
