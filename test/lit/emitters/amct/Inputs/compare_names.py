# compare_names.py INV.json NAMES.txt: the skip and override names read back from the .cfg
# (amct_roundtrip.py output) are exactly the protected ones (Conv2d + plain_linear) and the
# other Linear modules.
import json
import sys

mods = json.load(open(sys.argv[1], encoding="utf-8"))
skip, name = set(), set()
for line in open(sys.argv[2], encoding="utf-8"):
    kind, _, value = line.rstrip("\n").partition(" ")
    (skip if kind == "skip" else name).add(json.loads(value))
want_skip = {m["name"] for m in mods if m["type"] == "Conv2d" or m["name"] == "plain_linear"}
want_name = {m["name"] for m in mods if m["type"] == "Linear" and m["name"] != "plain_linear"}
if skip != want_skip or name != want_name:
    sys.exit("mismatch: skip %r vs %r; names %r vs %r" % (sorted(skip ^ want_skip), [], sorted(name ^ want_name), []))
print("ok: %d skipped, %d overrides" % (len(skip), len(name)))
