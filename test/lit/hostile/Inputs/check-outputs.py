# Parses every file qcc wrote (and qlint's machine-readable output) with the format's own parser
# and fails if anything was injected or a raw control byte got through.
# check-outputs.py OUTDIR [QLINT-OUTPUTS...]
import ast
import json
import os
import re
import sys

import yaml

problems = []


def no_raw_controls(name, data):
    for i, b in enumerate(data):
        if (b < 0x20 and b not in (0x0A, 0x09, 0x0D)) or b == 0x7F:
            problems.append("%s: raw control byte 0x%02x at %d" % (name, b, i))
            return


def walk(o, name):
    if isinstance(o, dict):
        for k, v in o.items():
            if k == "INJECTED":
                problems.append("%s: injected key" % name)
            walk(v, name)
    elif isinstance(o, list):
        for v in o:
            walk(v, name)
    elif isinstance(o, str) and o == "INJECTED":
        problems.append("%s: injected value" % name)


def check_pbtxt(name, text):
    # Protobuf text: remove every well-formed string literal; nothing hostile may remain.
    rest = re.sub(r'"(?:[^"\\\n]|\\.)*"' + "|'(?:[^'\\\\\\n]|\\\\.)*'", '""', text)
    if "INJECTED" in rest:
        problems.append("%s: INJECTED outside a string literal" % name)
    if rest.count("{") != rest.count("}"):
        problems.append("%s: unbalanced braces outside strings" % name)


def check(path):
    data = open(path, "rb").read()
    name = os.path.basename(path)
    no_raw_controls(name, data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        problems.append("%s: not UTF-8 (%s)" % (name, e))
        return
    if name.endswith((".yaml", ".yml")):
        walk(yaml.safe_load(text), name)
    elif name.endswith((".json", ".sarif")):
        walk(json.loads(text), name)
    elif name.endswith(".py"):
        tree = ast.parse(text)
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id == "INJECTED":
                problems.append("%s: injected Python name" % name)
    elif name.endswith(".cfg"):
        check_pbtxt(name, text)
    elif name.endswith((".txt", ".err")):
        pass  # terminal / GitHub output: the control-byte check above is the test
    else:
        problems.append("%s: unexpected output file" % name)


outdir = sys.argv[1]
files = sorted(os.path.join(outdir, f) for f in os.listdir(outdir))
for f in files + sys.argv[2:]:
    check(f)
if problems:
    print("\n".join(problems))
    sys.exit(1)
print("checked %d files: nothing injected" % len(files + sys.argv[2:]))
