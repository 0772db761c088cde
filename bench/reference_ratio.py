#!/usr/bin/python3
"""qcc's ratio to the Python reference on DeepSeek-V3 with 100 patterns, round by round.

    reference_ratio.py BUILD_DIR [--base OTHER_BUILD_DIR] [--rounds 10] [--data DIR]

A shared or virtual host's speed can move by a third within minutes (the reference can take
3.2 s or 5.3 s of CPU in the same minute), so a median of qcc's runs and a median of the
reference's runs taken a minute apart can give 46x or 65x for the same binary (run_bench.py
times each case in turn). Here every round runs each qcc case three times, the reference
(bench/reference_qcc.py) once, and each qcc case three times again in reverse order; the round's
ratio is the reference's CPU time over the median of those six, and likewise in wall time (qcc
runs its emitters on two threads, the reference on one, so the two ratios differ). The cases
are `--emit=msmodelslim-yaml` (one practice YAML: the reference's own job) and `--emit=all` (three
backends), for BUILD_DIR and, with --base, for OTHER_BUILD_DIR in the same rounds. Prints a
Markdown table (docs/performance.md): per case the median CPU, each round's CPU ratio and their
median, and the median of the rounds' wall-time ratios.
"""
import argparse, os, shutil, statistics, subprocess, sys, tempfile, time

from scaling import deepseek

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
EMITS = ["msmodelslim-yaml", "all"]


def cpu_of(cmd):
    """CPU seconds (user + system) and wall seconds of one run; exits when the run fails."""
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.monotonic() - start
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    if status != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), err[-2000:]))
    return usage.ru_utime + usage.ru_stime, wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build")
    ap.add_argument("--base", default="", help="another build directory, timed in the same rounds")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--data", default="")
    args = ap.parse_args()
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    builds = [args.build] + ([args.base] if args.base else [])
    for b in builds:
        if not os.access(os.path.join(b, "bin", "qcc"), os.X_OK):
            sys.exit("reference_ratio.py: %s: no bin/qcc in this build directory" % b)
    data = args.data or os.path.join(ROOT, "build", "bench-data")
    os.makedirs(data, exist_ok=True)
    manifest = deepseek(data)
    spec = os.path.join(HERE, "specs", "deepseek-v3.qspec")
    work = tempfile.mkdtemp(prefix="qspec-ratio-")
    try:
        cases = []  # (label, command)
        for i, b in enumerate(builds):
            for emit in EMITS:
                out = os.path.join(work, "%d-%s" % (i, emit))
                cases.append(("%s `--emit=%s`" % (os.path.normpath(b), emit),
                              [os.path.join(b, "bin", "qcc"), spec, "--inventory", manifest, "--emit=" + emit,
                               "-o", out]))
        reference = [sys.executable, os.path.join(HERE, "reference_qcc.py"), spec, manifest,
                     os.path.join(work, "reference.yaml")]
        cpus = {label: [] for label, _ in cases}
        ratios = {label: [] for label, _ in cases}
        wall_ratios = {label: [] for label, _ in cases}
        references = []
        for r in range(args.rounds):
            order = cases if r % 2 == 0 else cases[::-1]
            runs = {label: [cpu_of(cmd) for _ in range(3)] for label, cmd in order}
            ref, ref_wall = cpu_of(reference)
            references.append(ref)
            for label, cmd in order[::-1]:
                runs[label] += [cpu_of(cmd) for _ in range(3)]
            for label, _ in cases:
                q = statistics.median(c for c, _ in runs[label])
                cpus[label].append(q)
                ratios[label].append(ref / q)
                wall_ratios[label].append(ref_wall / statistics.median(w for _, w in runs[label]))
        print("Reference CPU per round: %s s (%s UTC)" % (", ".join("%.2f" % x for x in references),
                                                         time.strftime("%H:%M", time.gmtime())))
        print()
        print("| qcc, DeepSeek-V3, 100 patterns | CPU, median | CPU ratio to the reference per round | median "
              "| wall ratio, median |")
        print("|---|---:|---|---:|---:|")
        for label, _ in cases:
            print("| %s | %.3f s | %s | %.0fx | %.0fx |" % (label, statistics.median(cpus[label]),
                                                         ", ".join("%.0f" % x for x in ratios[label]),
                                                         statistics.median(ratios[label]),
                                                         statistics.median(wall_ratios[label])))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
