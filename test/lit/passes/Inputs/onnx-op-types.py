#!/usr/bin/python3
"""Checks ir/OnnxOpTypes.def against the onnx package's schema registry (see onnx-op-types.test)."""
import re
import sys

import onnx
import onnx.defs

rows = re.findall(r"^ONNX_OP\((\w+)\)$", open(sys.argv[1]).read(), re.M)
if rows != sorted(set(rows), key=lambda s: s.encode()):
    sys.exit("the table is not sorted by byte order, or repeats a row")
print("sorted, no repeats")
schemas = {s.name for s in onnx.defs.get_all_schemas_with_history() if s.domain == ""}
missing = sorted(schemas - set(rows))
if missing:
    sys.exit("missing from the table: " + ", ".join(missing))
print(f"every ai.onnx schema of onnx {onnx.__version__} ({len(schemas)} operators) is in the table")
