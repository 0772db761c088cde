# Every rule in `qlint --list-rules` has its doc (docs/lint/<category>/<name>.md with the four
# sections), its lit test (test/lint/<category>/<name>.*) that mentions the rule ID, and its
# source file; and docs/lint/README.md lists it. Prints one line per problem, then a summary.
#   check_rule_files.py QLINT SRCROOT
import glob
import os
import re
import subprocess
import sys

qlint, root = sys.argv[1], sys.argv[2]
rows = subprocess.run([qlint, "--list-rules"], stdout=subprocess.PIPE, text=True, check=True).stdout.splitlines()
readme = open(os.path.join(root, "docs", "lint", "README.md")).read()
table = open(os.path.join(root, "lint", "Rules.def")).read()
problems = 0
for row in rows:
    rule = row.split("\t")[0]
    category = rule.split("-")[0]
    name = rule[len(category) + 1:]
    doc = os.path.join(root, "docs", "lint", category, name + ".md")
    if not os.path.isfile(doc):
        print("missing doc %s" % doc)
        problems += 1
    else:
        text = open(doc).read()
        for section in ["## What it checks", "## Why", "## Example that triggers it", "## Fix"]:
            if section not in text:
                print("doc %s lacks '%s'" % (doc, section))
                problems += 1
    tests = [t for t in glob.glob(os.path.join(root, "test", "lint", category, name + ".*"))
             if rule in open(t).read()]
    if not tests:
        print("missing test test/lint/%s/%s.* mentioning %s" % (category, name, rule))
        problems += 1
    enum = re.search(r'RULE\((\w+), "%s"' % re.escape(rule), table)
    if not enum or not os.path.isfile(os.path.join(root, "lint", "rules", category, enum.group(1) + ".cpp")):
        print("missing source for %s" % rule)
        problems += 1
    if "`%s`" % rule not in readme:
        print("docs/lint/README.md does not list %s" % rule)
        problems += 1
print("%d rules, %d problems" % (len(rows), problems))
