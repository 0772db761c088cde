# hostile_inventory.py OUT.json [--shuffle SEED]: a JSON-array inventory whose module names
# contain quotes, backslashes, newlines, '#', ':', '*', '{', leading '-' or '!', YAML words and
# non-ASCII. Linear modules and Conv2d modules, plus plain ones.
import json
import random
import sys

hostile = ['a"b', 'back\\slash', 'hash#x', 'co:lon', 'st*ar', 'br{ace}', '-dash', '!bang',
           'yes', 'null', 'on', 'h\u00e9llo', '\u4e2d\u6587', 'sp ace', "it's", 'emoji\U0001f600']
mods = [{"name": "lin." + n, "type": "Linear"} for n in hostile]
mods += [{"name": "conv." + n, "type": "Conv2d"} for n in hostile]
mods += [{"name": "plain_linear", "type": "Linear"}, {"name": "plain_conv", "type": "Conv2d"}]
if len(sys.argv) > 3 and sys.argv[2] == "--shuffle":
    random.Random(int(sys.argv[3])).shuffle(mods)
with open(sys.argv[1], "w", encoding="utf-8") as f:
    json.dump(mods, f, ensure_ascii=False)
