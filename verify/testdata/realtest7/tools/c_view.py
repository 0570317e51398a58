import sys,re
# c_view.py cK.txt: shorter view of a cc_dump.py digest (drops the "Files and Code" section of the summary and most of the last-60-events list). Reading aid, independent of loupe.
t=open(sys.argv[1]).read()
a,_,summ=t.partition('===== COMPACT SUMMARY')
# pre: drop most of last 60 events
pre,_,last=a.partition('## last 60 events before boundary')
print(pre)
ll=last.split('\n')
print('## last events (tail)'); print('\n'.join(l[:300] for l in ll[-45:]))
s,_,after=summ.partition('===== END SUMMARY =====')
# summary: drop section 3 Files and code
i=s.find('Summary:\n')
s=s[i:] if i>=0 else s
s=re.sub(r'\n\s*3\. Files and Code Sections:.*?(?=\n\s*4\. )', '\n[3 cut]', s, flags=re.S)
print('===== SUMMARY', s)
print('## after'); print('\n'.join(l[:250] for l in after.split('\n')[:40]))
