# warning-groups-documented.test.py IDS GROUPS DOC: prints each ungrouped warning and each
# undocumented group, then a summary line.
import sys

warnings = [l.split("\t")[0] for l in open(sys.argv[1]) if l.split("\t")[1:2] == ["warning"]]
groups = {}
for line in open(sys.argv[2]):
    name, ids = line.rstrip("\n").split("\t")
    groups[name] = ids.split()
doc = open(sys.argv[3]).read()
table = doc[doc.index("## Warning groups"):]
problems = 0
grouped = {i for ids in groups.values() for i in ids}
for w in warnings:
    if w not in grouped:
        print("ungrouped: " + w)
        problems += 1
for g in sorted(groups):
    if "`%s`" % g not in table:
        print("undocumented: " + g)
        problems += 1
print("%d warnings, %d groups, %d problems" % (len(warnings), len(groups), problems))
