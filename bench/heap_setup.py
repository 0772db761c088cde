#!/usr/bin/python3
"""What support::configureHeap buys: qcc and qlint with and without the huge-page heap.

    bench/heap_setup.py BUILD_DIR [--runs 7] [--base OTHER_BUILD_DIR] [--modules N] [--tools qcc,qlint]

Not a test (nothing asserts on time). The heap set-up (support/Heap.h) backs the main heap and
one arena per thread with transparent huge pages, and it steps aside under a limit of address
space. So one binary runs both ways: as is, and under `ulimit -v` of 64 TiB (a limit that limits
nothing else), where glibc grows the heaps as it would without the set-up. Cases: the typical spec
examples/qwen3-32b and DeepSeek-V3 (bench/gen_inventory.py, 45,337 modules,
bench/specs/deepseek-v3.qspec, its three targets); with --modules also a synthetic inventory of that
many modules on the same spec. The runs of all variants are interleaved, so a change in the host's
load touches them alike. Per case: median wall and CPU time (user + sys, from wait4) and peak RSS.
With --base, OTHER_BUILD_DIR's qcc and qlint run as a third variant (e.g. the main branch's).
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NO_HEAP_LIMIT = 64 << 40  # bytes of address space: far above any run's use


def timed(cmd, cwd, limit):
    def preexec():
        if limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    start = time.monotonic()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         preexec_fn=preexec)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("failed: %s" % " ".join(cmd))
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--base", help="another build dir whose tools run as a third variant")
    ap.add_argument("--modules", type=int, default=0, help="also a synthetic inventory this large")
    ap.add_argument("--tools", default="qcc,qlint", help="which tools to run (default qcc,qlint)")
    args = ap.parse_args()
    variants = [("heap set-up", os.path.abspath(args.build), 0),
                ("without (ulimit -v)", os.path.abspath(args.build), NO_HEAP_LIMIT)]
    if args.base:
        variants.append(("base", os.path.abspath(args.base), 0))
    with tempfile.TemporaryDirectory() as work:
        gen = os.path.join(ROOT, "bench", "gen_inventory.py")
        ds = os.path.join(work, "ds")
        subprocess.run([sys.executable, gen, "deepseek-v3", ds], check=True, capture_output=True)
        spec = os.path.join(ROOT, "bench", "specs", "deepseek-v3.qspec")
        qwen = os.path.join(ROOT, "examples", "qwen3-32b")
        cases = [("examples/qwen3-32b", qwen, [os.path.join(qwen, "qwen3-32b.qspec")]),
                 ("deepseek-v3, 45,337 modules", work,
                  [spec, "--inventory", os.path.join(ds, "deepseek-v3.manifest")])]
        if args.modules:
            big = os.path.join(work, "big")
            subprocess.run([sys.executable, gen, "deepseek-v3", big, "--modules", str(args.modules)],
                           check=True, capture_output=True)
            cases.append(("deepseek-v3, %d modules" % args.modules, work,
                          [spec, "--inventory", os.path.join(big, "deepseek-v3.manifest")]))
        print("| spec | tool | variant | median wall | median CPU | peak RSS |")
        print("|---|---|---|---:|---:|---:|")
        for name, cwd, inputs in cases:
            for tool in args.tools.split(","):
                samples = {v[0]: [] for v in variants}
                for _ in range(args.runs):
                    for label, build, limit in variants:
                        exe = os.path.join(build, "bin", tool)
                        cmd = [exe] + inputs + (["--emit=all", "-o", os.path.join(work, "out")]
                                                if tool == "qcc" else ["--no-config"])
                        samples[label].append(timed(cmd, cwd, limit))
                for label, _, _ in variants:
                    s = samples[label]
                    print("| %s | %s | %s | %.3f s | %.3f s | %.0f MB |" %
                          (name, tool, label, statistics.median(x[0] for x in s),
                           statistics.median(x[1] for x in s), max(x[2] for x in s) / 1024))


if __name__ == "__main__":
    main()
