#!/usr/bin/env python3
"""Checks that qspec's layers only point down.

    check-layers.py SRCROOT

The stage folders, lowest first: support/ (process and speed support), ir/, then frontend/,
passes/ and vendors/ side by side, emitters/, lint/, driver/. A file of one folder may include
(`#include "FOLDER/..."`) only from its own folder and the folders ALLOWED lists for it, and a
folder's CMakeLists.txt files may link only libraries defined in those folders. A header under
lint/rules/ is private to the rules: nothing outside lint/rules/ includes one. Prints one line per
breach and a summary; exits 1 when there is a breach.
"""
import os
import re
import sys

ALLOWED = {
    "support": set(),
    "ir": {"support"},
    "frontend": {"support", "ir"},
    "passes": {"support", "ir"},
    "vendors": {"support", "ir"},
    "emitters": {"support", "ir", "frontend", "passes", "vendors"},
    "lint": {"support", "ir", "frontend", "passes", "vendors", "emitters"},
    "driver": {"support", "ir", "frontend", "passes", "vendors", "emitters", "lint"},
}
PRIVATE = "lint/rules/"
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
ADD_LIBRARY = re.compile(r"add_library\(\s*([A-Za-z0-9_]+)")
LINK = re.compile(r"target_link_libraries\(([^)]*)\)", re.S)


def files(root, folder, suffixes):
    for top, dirs, names in os.walk(os.path.join(root, folder)):
        dirs[:] = sorted(d for d in dirs if d not in {"node_modules", "Inputs"})
        for name in sorted(names):
            if name.endswith(suffixes):
                yield os.path.join(top, name)


def main():
    root = sys.argv[1]
    breaches, checked = [], 0
    owner = {}  # library name -> folder that defines it
    for folder in ALLOWED:
        for path in files(root, folder, ("CMakeLists.txt",)):
            with open(path, encoding="utf-8", errors="replace") as f:
                for lib in ADD_LIBRARY.findall(f.read()):
                    owner[lib] = folder
    for folder, below in ALLOWED.items():
        for path in files(root, folder, (".cpp", ".h", ".def", ".inc")):
            rel = os.path.relpath(path, root)
            checked += 1
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for inc in INCLUDE.findall(text):
                top = inc.split("/", 1)[0] if "/" in inc else None
                if top in ALLOWED and top != folder and top not in below:
                    breaches.append(f"{rel}: includes {inc}: {folder}/ may not include {top}/")
                elif inc.startswith(PRIVATE) and not rel.startswith(PRIVATE):
                    breaches.append(f"{rel}: includes {inc}: a rule-private header of {PRIVATE}")
        for path in files(root, folder, ("CMakeLists.txt",)):
            rel = os.path.relpath(path, root)
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for args in LINK.findall(text):
                for lib in args.split()[1:]:
                    top = owner.get(lib)
                    if top and top != folder and top not in below:
                        breaches.append(f"{rel}: links {lib}: {folder}/ may not link {top}/")
    for b in breaches:
        print(b)
    print(f"{checked} files checked, {len(breaches)} breaches")
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
