"""qspec.lint's options against qlint's flags: the same findings (rule, file, line, column,
severity) for each pair.

usage: lint_options.py QLINT PATH   (one line per option; exits 1 on a difference)
"""
import json
import subprocess
import sys

import qspec

qlint, path = sys.argv[1], sys.argv[2]
CASES = [("select=spec", {"select": "spec"}, ["--select=spec"]),
         ("ignore=spec", {"ignore": ["spec"]}, ["--ignore=spec"]),
         ("werror=True", {"werror": True}, ["-Werror"]),
         ("werror=['spec']", {"werror": ["spec"]}, ["-Werror=spec"]),
         ("config=False", {"config": False}, ["--no-config"])]
failed = False
for name, kwargs, flags in CASES:
    run = subprocess.run([qlint, "--format=json"] + flags + [path], capture_output=True,
                         text=True)
    want = [(x["rule"], x["location"].get("file"), x["location"].get("line"),
             x["location"].get("column"), x["severity"])
            for f in json.loads(run.stdout)["files"] for x in f["findings"]]
    got = [(d.rule, d.file, d.line, d.column, d.severity) for d in qspec.lint(path, **kwargs)]
    same = got == want
    failed = failed or not same
    print("%s: %s" % (name, "same as qlint" if same else "differs: %d vs %d findings"
                      % (len(got), len(want))))
sys.exit(1 if failed else 0)
