#!/usr/bin/env python3
"""Builds the qspec wheel: the Python package (qspec/, with its extension qspec._core) and the
command-line tools as the wheel's scripts, so `pip install` puts qcc, qlint, qtune and qspec-lsp
on a virtual environment's PATH. Written by hand per the wheel format (PEP 427, PEP 376's
RECORD): standard library only, offline.

The extension links Debian's shared libraries (ANTLR's runtime, yaml-cpp, protobuf), so the
wheel is for the system it was built on: its platform tag is the interpreter's own
(linux_x86_64), not a manylinux one. `make wheel` runs this (target qspec_wheel).

usage: build-wheel.py --version V --package DIR --out DIR --tool PATH [--tool PATH...]
                      [--module FILE...]   (top-level modules besides the package)
"""
import argparse
import base64
import hashlib
import os
import sys
import sysconfig
import zipfile

# A fixed time for every entry: the same inputs give the same wheel bytes.
FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def tags():
    impl = "cp%d%d" % sys.version_info[:2]
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return impl, impl, platform


def digest(data):
    h = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + h.decode()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--version", required=True)
    ap.add_argument("--package", required=True, help="the built qspec/ package folder")
    ap.add_argument("--tool", action="append", default=[], help="a tool to install as a script")
    ap.add_argument("--module", action="append", default=[],
                    help="a top-level module (qspec_eval.py, the evaluator kit's first name)")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    py, abi, plat = tags()
    name = "qspec-%s-%s-%s-%s.whl" % (args.version, py, abi, plat)
    dist_info = "qspec-%s.dist-info" % args.version
    data_dir = "qspec-%s.data" % args.version
    entries = []  # (archive name, bytes, executable)
    for f in sorted(os.listdir(args.package)):
        path = os.path.join(args.package, f)
        if os.path.isfile(path) and not f.endswith(".pyc"):
            with open(path, "rb") as fh:
                entries.append(("qspec/" + f, fh.read(), False))
    if not any(e[0].startswith("qspec/_core") for e in entries):
        sys.exit("build-wheel: no extension qspec/_core*.so in %s" % args.package)
    for module in args.module:
        with open(module, "rb") as fh:
            entries.append((os.path.basename(module), fh.read(), False))
    for tool in args.tool:
        with open(tool, "rb") as fh:
            entries.append(("%s/scripts/%s" % (data_dir, os.path.basename(tool)), fh.read(), True))
    metadata = ("Metadata-Version: 2.1\nName: qspec\nVersion: %s\n"
                "Summary: qspec: a compiler and linter for quantization configs\n"
                "Requires-Python: ==%d.%d.*\n" % ((args.version,) + sys.version_info[:2]))
    wheel = ("Wheel-Version: 1.0\nGenerator: qspec build-wheel.py\nRoot-Is-Purelib: false\n"
             "Tag: %s-%s-%s\n" % (py, abi, plat))
    entries.append((dist_info + "/METADATA", metadata.encode(), False))
    entries.append((dist_info + "/WHEEL", wheel.encode(), False))
    record = "".join("%s,%s,%d\n" % (n, digest(d), len(d)) for n, d, _ in entries)
    record += dist_info + "/RECORD,,\n"
    entries.append((dist_info + "/RECORD", record.encode(), False))

    os.makedirs(args.out, exist_ok=True)
    target = os.path.join(args.out, name)
    tmp = target + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for n, d, executable in entries:
            info = zipfile.ZipInfo(n, FIXED_TIME)
            info.external_attr = (0o100755 if executable else 0o100644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, d)
    os.replace(tmp, target)
    print(target)


if __name__ == "__main__":
    main()
