#!/usr/bin/env python3
"""Checks that the sources of one target can share a translation unit without changing meaning.

    check-unity-names.py BUILD_DIR [SRCROOT]

A unity build (QSPEC_UNITY_BUILD; qspec_lint's rule folders always) compiles several sources of a
target as one translation unit. Their anonymous namespaces become one, their file-scope `static`
names share a scope, and a macro one file leaves defined reaches the files after it. Two
file-local classes or variables of one name fail to compile, but two file-local functions of one
name are overloads of each other, and a call may then quietly pick the other file's; a leftover
macro may quietly rewrite a later file. Which sources share a unit depends on the batch size and
on the files' order, so the check holds for every pair of sources of a target:

- no file-local name (a function, variable, class, enum, union or type alias in an anonymous
  namespace, or a `static` one at namespace scope) is defined by two sources, under the same
  enclosing namespace;
- a source undefines (#undef) every macro it defines.

BUILD_DIR is a configured Ninja tree: its build.ninja names each target's sources, and a unity
source names the sources it includes. Sources outside SRCROOT (generated code) are not checked.
Prints one line per clash and exits 1 if there is one. Uses universal-ctags (`make test`
installs it).
"""
import collections
import json
import os
import re
import shutil
import subprocess
import sys

FILE_LOCAL_KINDS = {"function", "variable", "class", "struct", "union", "enum", "typedef"}
# What ctags reads as functions in a GoogleTest source.
GTEST_MACROS = {"TEST", "TEST_F", "TEST_P", "TYPED_TEST", "TYPED_TEST_P"}
BUILD_RE = re.compile(r"^build (\S+?\.o): CXX_COMPILER__\S* (\S+)")
UNITY_INCLUDE_RE = re.compile(r'^#include "(.+)"$', re.M)
DEFINE_RE = re.compile(r"^\s*#\s*define\s+(\w+)", re.M)
UNDEF_RE = re.compile(r"^\s*#\s*undef\s+(\w+)", re.M)


def target_sources(build_dir, srcroot):
    """{target: [source, ...]} from build.ninja; unity sources are opened up."""
    targets = collections.defaultdict(list)
    with open(os.path.join(build_dir, "build.ninja")) as f:
        for line in f:
            m = BUILD_RE.match(line)
            if not m or "/CMakeFiles/" not in "/" + m.group(1):
                continue
            target = m.group(1).split("CMakeFiles/", 1)[1].split(".dir/", 1)[0]
            src = m.group(2)
            paths = [src]
            if "/Unity/unity_" in src:
                with open(src) as u:
                    paths = UNITY_INCLUDE_RE.findall(u.read())
            for p in paths:
                p = os.path.realpath(p)
                if p.startswith(srcroot + os.sep) and not p.startswith(os.path.realpath(build_dir)):
                    targets[target].append(p)
    return targets


def file_local_names(paths):
    """{path: {(enclosing namespace, name)}} of the file-local definitions of `paths` (one ctags)."""
    out = subprocess.run(
        ["ctags", "--output-format=json", "--language-force=C++", "--fields=+KZs",
         "--fields-C++=+{properties}", "-f", "-"] + paths,
        capture_output=True, text=True, check=True).stdout
    names = collections.defaultdict(set)
    for line in out.splitlines():
        tag = json.loads(line)
        name, kind = tag.get("name", ""), tag.get("kind")
        if kind not in FILE_LOCAL_KINDS or name.startswith("__anon") or name in GTEST_MACROS:
            continue
        scope = tag.get("scope", "")
        parts = scope.split("::") if scope else []
        anonymous = bool(parts) and parts[-1].startswith("__anon")
        static = "static" in tag.get("properties", "") and tag.get("scopeKind", "namespace") == "namespace"
        if not (anonymous and tag.get("scopeKind") == "namespace") and not static:
            continue
        named = "::".join(p for p in parts if not p.startswith("__anon"))
        names[tag["path"]].add((named, name))
    return names


def leftover_macros(path):
    text = open(path, errors="replace").read()
    return sorted(set(DEFINE_RE.findall(text)) - set(UNDEF_RE.findall(text)))


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    build_dir = sys.argv[1]
    srcroot = os.path.realpath(sys.argv[2] if len(sys.argv) == 3 else
                               os.path.join(os.path.dirname(__file__), ".."))
    if not os.path.isfile(os.path.join(build_dir, "build.ninja")):
        sys.exit("check-unity-names.py: %s: no build.ninja (a tree configured with -G Ninja)" % build_dir)
    if not shutil.which("ctags"):
        sys.exit("check-unity-names.py: universal-ctags is missing (`make test` installs it: "
                 "apt-get install universal-ctags)")
    problems = []
    targets = target_sources(build_dir, srcroot)
    checked = 0
    for target in sorted(targets):
        sources = sorted(set(targets[target]))
        checked += len(sources)
        for src in sources:
            for macro in leftover_macros(src):
                problems.append("%s: %s: macro %s is not #undef'd at the end of the file"
                                % (target, os.path.relpath(src, srcroot), macro))
        if len(sources) < 2:
            continue
        owners = collections.defaultdict(list)
        local = file_local_names(sources)
        for src in sources:
            for key in local[src]:
                owners[key].append(os.path.relpath(src, srcroot))
        for (named, name), files in sorted(owners.items()):
            if len(files) > 1:
                qualified = named + "::" + name if named else name
                problems.append("%s: file-local %s is defined in %s" % (target, qualified, ", ".join(files)))
    for p in problems:
        print(p)
    print("%d targets, %d sources checked, %d clashes" % (len(targets), checked, len(problems)))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
