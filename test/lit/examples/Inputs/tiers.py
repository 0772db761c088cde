# Prints the inventory and scores summary of a --emit=ir file, then "NAME TYPE TIER RULE" for
# each module named on the command line (in that order).
import json
import sys

d = json.load(open(sys.argv[1]))
print("inventory", d["inventory"]["format"], d["inventory"]["modules"])
if d.get("scores"):
    print("scores", d["scores"]["format"], d["scores"]["entries"])
mods = {m["name"]: m for m in d["modules"]}
for name in sys.argv[2:]:
    m = mods[name]
    rule = m["tier_from"]["rule"].replace("built-in default", "builtin").replace(" ", "-")
    rule = {"defaults": "default", "protected": "protect"}.get(rule, rule)
    print(name, m["type"], m["tier"], rule)
