#!/usr/bin/env python3
"""Checks that every C++ source and header of the tree is as the root .clang-format formats it.

    check-format.py SRCROOT [CLANG_FORMAT]

Walks SRCROOT's source folders (build trees, node_modules and test inputs are not sources),
runs clang-format in dry-run mode on each .cpp/.h and prints one line per file that differs.
Exits 1 when any file differs, 2 when clang-format cannot be run.
"""
import os
import subprocess
import sys

SKIP_DIRS = {".git", "node_modules", "Inputs", "out"}


def sources(root):
    for top, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("build"))
        for name in sorted(files):
            if name.endswith((".cpp", ".h")):
                yield os.path.join(top, name)


def main():
    root = sys.argv[1]
    tool = sys.argv[2] if len(sys.argv) > 2 else "clang-format-14"
    files = list(sources(root))
    bad = []
    for start in range(0, len(files), 64):
        batch = files[start:start + 64]
        try:
            run = subprocess.run([tool, "--dry-run", "--style=file"] + batch,
                                 capture_output=True, text=True)
        except OSError as e:
            print(f"check-format: cannot run {tool}: {e}", file=sys.stderr)
            return 2
        for line in run.stderr.splitlines():
            if ": warning:" in line:
                path = os.path.relpath(line.split(":", 1)[0], root)
                if path not in bad:
                    bad.append(path)
    for path in bad:
        print(f"{path}: not formatted as .clang-format says (run clang-format -i {path})")
    print(f"{len(files)} files checked, {len(bad)} not formatted")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
