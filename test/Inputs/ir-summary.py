# Reads `qcc --emit=ir` JSON on stdin and prints one line per module, then the groups and the
# excluded set, so lit tests can check a resolution compactly:
#   MODULE <name> <tier> <rule>@<line>:<col> [protected] [tuned] [group=<name>]
#   GROUP <name> <kind> <member> <member> ...
#   EXCLUDED <name> <name> ...
import json
import sys


def where(at):
    # "path:line:col" -> "line:col" (the path depends on where the test runs)
    parts = at.rsplit(":", 2)
    return ":".join(parts[1:]) if len(parts) == 3 else at


ir = json.load(sys.stdin)
for m in ir["modules"]:
    frm = m["tier_from"]
    line = "MODULE %s %s %s@%s" % (m["name"], m["tier"], frm["rule"].replace(" ", "-"), where(frm["at"]))
    if m.get("protected"):
        line += " protected"
    if m.get("tuned"):
        line += " tuned"
    if "group" in m:
        line += " group=" + m["group"]
    print(line)
for g in ir["groups"]:
    print("GROUP %s %s %s" % (g["name"], g["kind"], " ".join(g["members"])))
print("EXCLUDED " + " ".join(ir["excluded"]))
