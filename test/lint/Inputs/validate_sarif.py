# Validates a SARIF log against the SARIF 2.1.0 JSON schema (OASIS, draft-04) with the real
# jsonschema validator, then prints what the lit test checks: every rule's helpUri, the run's
# informationUri, each result's URI and whether it carries `fixes`.
# Usage: validate_sarif.py SCHEMA LOG
import json
import sys

import jsonschema

schema_path, log_path = sys.argv[1], sys.argv[2]
try:
    schema = json.load(open(schema_path))
except FileNotFoundError:
    sys.exit("missing %s: run scripts/setup-sarif-schema.sh (make test runs it)" % schema_path)
log = json.load(open(log_path))
validator = jsonschema.Draft4Validator(schema)
errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
for e in errors:
    print("invalid:", "/".join(str(p) for p in e.absolute_path), e.message)
if errors:
    sys.exit(1)
print("valid against", schema["title"])
driver = log["runs"][0]["tool"]["driver"]
print("informationUri", driver["informationUri"])
for r in driver["rules"]:
    assert r["helpUri"].startswith(driver["informationUri"].rsplit("/", 1)[0] + "/"), r["helpUri"]
print("helpUri for", sum(1 for r in driver["rules"] if r.get("helpUri")), "of", len(driver["rules"]), "rules")
for res in log["runs"][0]["results"]:
    loc = res["locations"][0]["physicalLocation"]["artifactLocation"]
    fixes = res.get("fixes", [])
    print("result", res["ruleId"], loc["uri"], loc.get("uriBaseId", "-"), "fixes", len(fixes))
    for f in fixes:
        for change in f["artifactChanges"]:
            for rep in change["replacements"]:
                print("  replace", rep["deletedRegion"]["byteOffset"], rep["deletedRegion"]["byteLength"],
                      json.dumps(rep["insertedContent"]["text"]))
