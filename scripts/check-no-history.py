#!/usr/bin/env python3
"""Checks that the tree speaks of the product only, not of how it was built.

    check-no-history.py SRCROOT

The repository ships without its tracker and without the machines it was written on, so a
sentence that points at either means nothing to a reader. Walks SRCROOT's sources, tests,
benchmarks, scripts and docs (build trees, node_modules, fuzz corpora and binary or vendor data
files are not ours to word) and prints one line per offending line:

    PATH:LINE: RULE: TEXT

The rules (RULES below): a work session named by number or by "this" or "that"; a tracker
reference (the word for a ticket followed by a number, or a number after a hash sign); a
description of the machine the work ran on (its load, its core count, the builds sharing it, or
"this" or "our" before the word for it); dated work (a time of day in UTC, or a calendar date
in a doc page). Exits 1 when any line offends.
"""
import os
import re
import sys

SKIP_DIRS = {".git", "node_modules", "out", "corpus", "__pycache__"}
# Binary models, generated pictures and vendor logs are data, not text we wrote.
SKIP_EXTS = (".onnx", ".safetensors", ".log", ".svg", ".part", ".pyc", ".png", ".gz", ".deb")

# The words are split so that this file does not report itself.
SESSION = "sess" + "ion"
ISSUE = "iss" + "ue"
RULES = [
    ("work session", re.compile(
        r"\b%ss?[ -][0-9]+\b|\b(this|that|previous|earlier|later)[ -]%s\b|"
        r"\bstart[ -]of[ -](the[ -])?%s\b" % (SESSION, SESSION, SESSION), re.I)),
    ("tracker reference", re.compile(
        r"\b%ss?[ -]#?[0-9]+|%s-#[0-9]|(^|[\s(\[,;/])#[0-9]+(\.[0-9]+)?(?![0-9A-Za-z_])"
        % (ISSUE, ISSUE), re.I)),
    ("machine description", re.compile(
        r"\b(host |at )?load (average |avg )?(of |about |was |is )?~?[0-9]|"
        r"\bdevelop" r"ment (machine|host)\b|\b(this|our) (machine|host)\b|"
        r"\bshared (2|two)-core\b|\b(idle|quiet) (machine|host)\b|\bother helpers?\b", re.I)),
    ("dated work", re.compile(r"\b[0-2][0-9]:[0-5][0-9](-[0-2][0-9]:[0-5][0-9])? UTC\b")),
]
# In a doc page any calendar date is the date of some work (a log line's timestamp, which the
# docs quote to show a vendor's format, is followed by its time of day).
DOC_DATE = re.compile(r"\b20[0-9]{2}-[01][0-9]-[0-3][0-9]\b(?! [0-2][0-9]:[0-5][0-9])")


def files(root):
    for top, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("build"))
        for name in sorted(names):
            if not name.endswith(SKIP_EXTS):
                yield os.path.join(top, name)


def offences(path, rel):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return
    if b"\0" in data:
        return
    doc = rel.endswith(".md")
    for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
        for rule, pattern in RULES:
            if pattern.search(line):
                yield number, rule, line
                break
        else:
            if doc and DOC_DATE.search(line):
                yield number, "dated work", line


def main():
    root = sys.argv[1]
    count = bad = 0
    for path in files(root):
        rel = os.path.relpath(path, root)
        count += 1
        for number, rule, line in offences(path, rel):
            bad += 1
            print(f"{rel}:{number}: {rule}: {line.strip()[:160]}")
    print(f"{count} files checked, {bad} lines speak of how the tree was built")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
