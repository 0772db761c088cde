# Prints the parts of a qlint SARIF log that GitHub code scanning needs, one fact per line, so a
# lit test can FileCheck them.
import json
import sys

log = json.load(open(sys.argv[1]))
print("version", log["version"], "schema", log["$schema"])
run = log["runs"][0]
rules = run["tool"]["driver"]["rules"]
described = all(r["shortDescription"]["text"] and r["fullDescription"]["text"] and r["help"]["text"] for r in rules)
print("driver", run["tool"]["driver"]["name"], "rules", len(rules), "all-described", described)
ids = [r["id"] for r in rules]
for res in run["results"]:
    loc = res["locations"][0]["physicalLocation"]
    region = loc["region"]
    assert rules[res["ruleIndex"]]["id"] == res["ruleId"], "ruleIndex points at another rule"
    assert res["ruleId"] in ids
    print("result", res["ruleId"], res["level"], loc["artifactLocation"]["uri"],
          "%d:%d" % (region["startLine"], region["startColumn"]),
          "fingerprint", res["partialFingerprints"]["primaryLocationLineHash"])
