# list_root.py ROOT: every file under ROOT, relative and sorted, one a line; a gzip file (by its
# magic bytes, not its name) is followed by " gzip".
import os
import sys

root = sys.argv[1]
paths = []
for d, _, files in os.walk(root):
    paths += [os.path.join(d, f) for f in files]
for p in sorted(paths):
    with open(p, "rb") as f:
        gz = f.read(2) == b"\x1f\x8b"
    print(os.path.relpath(p, root) + (" gzip" if gz else ""))
