#!/usr/bin/python3
"""Instruction counts of whole qcc (and qtune) runs under callgrind, optionally against a base build.

    instructions.py BUILD_DIR [--base OTHER_BUILD_DIR] [--qtune] [--data DIR]

Timings on a shared or virtual host move by 5-10% between two runs of the same binary, which hides
a change of a few percent. The number of instructions a run executes does not move, so this script
counts them (`valgrind --tool=callgrind`, nothing else collected) for `qcc
bench/specs/deepseek-v3.qspec --inventory MANIFEST --emit=KIND` with each backend and `all`, and
with `--qtune` for a whole `qtune run` search (16 rounds on DeepSeek-V3 against a trivial
evaluator, as bench/driver/qtune_scale.py --rounds 0 runs it; about a minute and a half per
build). With `--base`, every case runs on both builds, the table gives both counts and the
change, and the outputs of the two builds are compared byte for byte.

The counts leave out page faults, cache misses and waiting, so they bound a change's gain from
above; time it as well (run_bench.py, qtune_scale.py). Valgrind's CPU has no SHA instructions:
qtune's cache key runs libcrypto's SHA-256 without them under it (real runs use them), so the
qtune row is also given without `sha256_block_data_order*`. Prints a Markdown table
(docs/performance.md).
"""
import argparse, filecmp, json, os, shutil, subprocess, sys, tempfile

from scaling import deepseek

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
EMITS = ["msmodelslim-yaml", "amct-cfg", "horizon-py", "all"]
EVALUATOR = """import json, os
json.dump({"accuracy": 0.1 if os.environ["QSPEC_ROUND"] == "1" else 0.9}, open(os.environ["QSPEC_RESULT"], "w"))
"""


def counted(cmd, work, cwd=None):
    """Runs cmd under callgrind; returns (instructions in all, of them in libcrypto's SHA-256 rounds)."""
    out = os.path.join(work, "callgrind.out")
    r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + cmd, cwd=cwd,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("failed (exit %d): %s\n%s" % (r.returncode, " ".join(cmd), r.stderr[-2000:]))
    total = sha = None
    for line in open(out):
        if line.startswith("summary:"):
            total = int(line.split()[1])
    ann = subprocess.run(["callgrind_annotate", out], capture_output=True, text=True).stdout
    for line in ann.splitlines():
        if "sha256_block_data_order" in line:
            sha = (sha or 0) + int(line.split()[0].replace(",", ""))
    os.remove(out)
    if total is None:
        sys.exit("no summary line in callgrind's output for: " + " ".join(cmd))
    return total, sha or 0


def qcc_case(build, spec, manifest, emit, work):
    dest = os.path.join(work, "out-" + emit)
    counts = counted([os.path.join(build, "bin", "qcc"), spec, "--inventory", manifest, "--emit=" + emit, "-o",
                      dest], work)
    return counts, dest


def qtune_case(build, spec, manifest, work):
    wd = os.path.join(work, "qtune")
    ev = os.path.join(work, "eval.py")
    open(ev, "w").write(EVALUATOR)
    counts = counted([os.path.join(build, "bin", "qtune"), "run", spec, "--inventory", manifest, "--workdir", wd,
                      "--no-progress", "--no-report", "--", "/usr/bin/python3", ev], work)
    return counts, wd


def qtune_files(wd):
    """The files each round gave its evaluator, in round order (the keys hash the evaluator's path)."""
    rows = [json.loads(l) for l in open(os.path.join(wd, "history.jsonl"))]
    return [(r["round"], r["probe"], os.path.join(wd, "evals", r["key"][:16])) for r in rows]


def same_output(a, b):
    if os.path.isdir(a):
        cmp = filecmp.dircmp(a, b)
        return not (cmp.left_only or cmp.right_only) and all(
            filecmp.cmp(os.path.join(a, f), os.path.join(b, f), shallow=False) for f in cmp.common_files)
    return filecmp.cmp(a, b, shallow=False)


def same_qtune(a, b):
    ra, rb = qtune_files(a), qtune_files(b)
    if [x[:2] for x in ra] != [x[:2] for x in rb]:
        return False
    return all(same_output(os.path.join(x[2], "config"), os.path.join(y[2], "config")) and
               same_output(os.path.join(x[2], "tune.qspec"), os.path.join(y[2], "tune.qspec"))
               for x, y in zip(ra, rb))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build")
    ap.add_argument("--base", default="", help="another build directory to compare with")
    ap.add_argument("--qtune", action="store_true", help="also a whole qtune search")
    ap.add_argument("--data", default="")
    args = ap.parse_args()
    if not shutil.which("valgrind") or not shutil.which("callgrind_annotate"):
        sys.exit("instructions.py needs valgrind (Debian package valgrind)")
    builds = [args.build] + ([args.base] if args.base else [])
    for b in builds:
        for tool in ["qcc"] + (["qtune"] if args.qtune else []):
            if not os.access(os.path.join(b, "bin", tool), os.X_OK):
                sys.exit("instructions.py: %s: no bin/%s in this build directory" % (b, tool))
    data = args.data or os.path.join(ROOT, "build", "bench-data")
    os.makedirs(data, exist_ok=True)
    manifest = deepseek(data)
    spec_text = open(os.path.join(HERE, "specs", "deepseek-v3.qspec")).read()
    work = tempfile.mkdtemp(prefix="qspec-instructions-")
    try:
        dirs = []
        for i, _ in enumerate(builds):
            d = os.path.join(work, str(i))
            os.makedirs(d)
            dirs.append(d)
        spec = os.path.join(work, "deepseek-v3.qspec")
        open(spec, "w").write(spec_text)
        tuned = os.path.join(work, "ds-tune.qspec")
        open(tuned, "w").write(spec_text + "\ntune { metric accuracy >= 0.5 }\n")
        rows = []
        for emit in EMITS:
            got = [qcc_case(b, spec, manifest, emit, d) for b, d in zip(builds, dirs)]
            same = same_output(got[0][1], got[1][1]) if len(got) > 1 else None
            rows.append(("qcc `--emit=%s`, DeepSeek-V3, 100 patterns" % emit, [g[0][0] for g in got], same))
        if args.qtune:
            got = [qtune_case(b, tuned, manifest, d) for b, d in zip(builds, dirs)]
            same = same_qtune(got[0][1], got[1][1]) if len(got) > 1 else None
            rows.append(("qtune, whole search", [g[0][0] for g in got], same))
            rows.append(("the same without the portable SHA-256", [g[0][0] - g[0][1] for g in got], same))
        head = "| case | " + " | ".join(os.path.normpath(b) for b in builds)
        if len(builds) > 1:
            print(head + " | change | same output |")
            print("|---|---:|---:|---:|---|")
        else:
            print(head + " |")
            print("|---|---:|")
        for name, counts, same in rows:
            cells = " | ".join("{:,}".format(c) for c in counts)
            if len(counts) > 1:
                change = (counts[0] - counts[1]) / counts[1] * 100
                print("| %s | %s | %+.1f%% | %s |" % (name, cells, change, "yes" if same else "**no**"))
            else:
                print("| %s | %s |" % (name, cells))
        if any(same is False for _, _, same in rows):
            sys.exit("the builds' outputs differ")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
