# hostile_inventory.py OUT.json [--shuffle SEED]: a JSON-array inventory of Linear modules
# whose names hold quotes, backslashes, '#', ':', '*', '{', leading '-' or '!', YAML words,
# Python keywords and non-ASCII (the readers refuse control characters).
import json
import random
import sys

hostile = ['a"b', 'back\\slash', 'hash#x', 'co:lon', 'st*ar', 'br{ace}', '-dash', '!bang', 'yes', 'null',
           'on', 'h\u00e9llo', '\u4e2d\u6587', 'sp ace', "it's", 'emoji\U0001f600', '"""', "'''",
           '__import__("os")', '{x}', 'a\\"b', 'x\u2028y']
mods = [{"name": n, "type": "Linear"} for n in hostile] + [{"name": "plain", "type": "Conv2d"}]
if len(sys.argv) > 3 and sys.argv[2] == "--shuffle":
    random.Random(int(sys.argv[3])).shuffle(mods)
with open(sys.argv[1], "w", encoding="utf-8") as f:
    json.dump(mods, f, ensure_ascii=False)
