"""qspec.lint and qspec.import_file on several threads at once (the GIL is released while each
runs, and calls share no state): each gives what it gives alone.

usage: threads_lint_import.py LINT_PATH IMPORT_FILE INVENTORY
"""
import sys
from concurrent.futures import ThreadPoolExecutor

import qspec

lint_path, import_file, inventory = sys.argv[1:4]


def lint():
    return [(d.path, d.rule, d.line, d.column, d.message) for d in qspec.lint(lint_path)]


def imported():
    im = qspec.import_file(import_file, inventory=inventory)
    return im.data, im.diagnostics_text


alone = (lint(), imported())
jobs = [lint, imported] * 4
with ThreadPoolExecutor(max_workers=4) as pool:
    together = list(pool.map(lambda job: job(), jobs))
same = sum(1 for k, got in enumerate(together) if got == alone[k % 2])
print("%d calls on 4 threads, %d the same as alone" % (len(jobs), same))
print("findings %d, spec bytes %d" % (len(alone[0]), len(alone[1][0])))
