"""Runs the ```python blocks of a Markdown page, in order, as one script.

usage: doc_blocks.py PAGE.md
"""
import sys

lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
script, inside = [], False
for line in lines:
    if not inside and line.strip() == "```python":
        inside = True
    elif inside and line.strip() == "```":
        inside = False
    elif inside:
        script.append(line)
if not script:
    sys.exit("doc_blocks: no python block in %s" % sys.argv[1])
exec(compile("\n".join(script) + "\n", sys.argv[1], "exec"), {"__name__": "__main__"})
