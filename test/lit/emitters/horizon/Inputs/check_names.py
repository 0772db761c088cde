# check_names.py INV.json RECORDS: every inventory name except "plain" was recorded by the stub
# as a frozen torch.float32 entry, byte for byte; "plain" was not.
import json
import sys

mods = json.load(open(sys.argv[1], encoding="utf-8"))
want = {m["name"] for m in mods if m["name"] != "plain"}
got = set()
for line in open(sys.argv[2], encoding="utf-8"):
    rec = json.loads(line)
    if "name" in rec:
        assert rec["dtype"] == "torch.float32" and rec["freeze"], rec
        got.add(rec["name"])
if got != want:
    sys.exit("mismatch: %r" % sorted(got ^ want))
print("ok: %d names" % len(got))
