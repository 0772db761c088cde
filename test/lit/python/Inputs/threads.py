"""Several compilations at once, on threads: each gives the bytes a compilation alone gives.

usage: threads.py SPEC...
"""
import sys
from concurrent.futures import ThreadPoolExecutor

import qspec


def files(spec):
    return [(f.name, f.data) for f in qspec.compile(spec).files]


specs = sys.argv[1:]
alone = {s: files(s) for s in specs}
jobs = specs * 4
with ThreadPoolExecutor(max_workers=4) as pool:
    together = list(pool.map(files, jobs))
same = sum(1 for s, got in zip(jobs, together) if got == alone[s])
print("%d compilations on 4 threads, %d the same as alone" % (len(jobs), same))
print("files", sum(len(v) for v in alone.values()))
