# Validates --emit=ir documents against docs/ir.schema.json with the jsonschema library
# (Debian's python3-jsonschema): check_ir_schema.py SCHEMA IR.json...
# Prints `FILE: valid` or `FILE: invalid: WHY` per document; exits 1 if any is invalid.
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
jsonschema.Draft7Validator.check_schema(schema)
validator = jsonschema.Draft7Validator(schema)
bad = 0
for path in sys.argv[2:]:
    errors = sorted(validator.iter_errors(json.load(open(path))), key=lambda e: list(e.path))
    if errors:
        bad += 1
        e = errors[0]
        print("%s: invalid: %s at %s" % (path.split("/")[-1], e.message, "/".join(str(p) for p in e.path)))
    else:
        print("%s: valid" % path.split("/")[-1])
sys.exit(1 if bad else 0)
