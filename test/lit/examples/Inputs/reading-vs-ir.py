# reading-vs-ir.py IR.json READING [--rest TYPES DEFAULT]
# Compares what a vendor tool reads from an emitted file (READING: "NAME TIER" lines, produced
# from the file by a vendor-side reader) with qcc's resolution (IR.json, --emit=ir). Every listed
# module must have that tier in the IR; with --rest, every IR module of TYPES (comma-separated,
# "*" = any type) that the reading does not list must be at DEFAULT in the IR (the file leaves it
# to the vendor's default). Vendor dtype words are read as tiers (qint8 -> int8, qint16 -> int16,
# torch.float16 -> fp16, torch.float32 -> float). Prints one line per difference and exits 1, or
# "agree: N listed (tiers), M at DEFAULT".
import collections
import json
import sys

WORDS = {"qint8": "int8", "qint16": "int16", "torch.float16": "fp16", "torch.float32": "float"}

ir = {m["name"]: m for m in json.load(open(sys.argv[1], encoding="utf-8"))["modules"]}
listed, bad = {}, []
for line in open(sys.argv[2], encoding="utf-8"):
    if not line.strip():
        continue
    name, tier = line.split()
    listed[name] = WORDS.get(tier, tier)
for name, tier in listed.items():
    if name not in ir:
        bad.append("%s: read from the file, but not in the inventory" % name)
    elif ir[name]["tier"] != tier:
        bad.append("%s: the file gives %s, the spec resolves %s" % (name, tier, ir[name]["tier"]))
rest = 0
if len(sys.argv) == 6 and sys.argv[3] == "--rest":
    types, default = sys.argv[4].split(","), sys.argv[5]
    for name, m in ir.items():
        if name in listed or ("*" not in types and m["type"] not in types):
            continue
        rest += 1
        if m["tier"] != default:
            bad.append("%s: not in the file (so %s), the spec resolves %s" % (name, default, m["tier"]))
for b in bad:
    print(b)
if bad:
    sys.exit(1)
tiers = collections.Counter(listed.values())
print("agree: %d listed (%s), %d at the default" % (
    len(listed), ", ".join("%s %d" % kv for kv in sorted(tiers.items())), rest))
