#!/usr/bin/python3
"""An evaluator written with the qspec_eval kit, for eval-contract.test.

The metric is sim_eval.py's (tiny.qspec: accuracy = 1 - 0.05 * sum of block score * tier
penalty), from the module tiers of QSPEC_IR. Failure injection at N float blocks (--at N):
--transient FLAG (a transient failure while FLAG does not exist, then it is created), --fatal
(a fatal failure), --traceback (an exception after some output). --log FILE gets one line per
run: the probe's key, its device and whether QSPEC_IR is in the environment. --kit MODULE
imports the kit by another name (qspec.tune, the package's module).
"""
import argparse, importlib, os, sys

ap = argparse.ArgumentParser()
ap.add_argument("--kit", default="qspec_eval")
ap.add_argument("--scores", required=True)
ap.add_argument("--at", type=int, default=-1)
ap.add_argument("--transient", default="")
ap.add_argument("--fatal", action="store_true")
ap.add_argument("--traceback", action="store_true")
ap.add_argument("--log", default="")
args = ap.parse_args()
qspec_eval = importlib.import_module(args.kit)

ev = qspec_eval.current()
if args.log:
    with open(args.log, "a") as f:
        f.write("key=%s device=%s visible=%s ir=%s\n" % (ev.key[:16], ev.device,
                os.environ.get("ASCEND_RT_VISIBLE_DEVICES", "-"), "QSPEC_IR" in os.environ))

scores = {}
for line in open(args.scores):
    line = line.strip()
    if line.startswith("- {name:"):
        scores[line.split("name:")[1].split(",")[0].strip()] = float(line.split("score:")[1].strip(" }"))

with qspec_eval.guard():
    print("reading the module tiers", file=sys.stderr)
    tiers = ev.module_tiers()
    penalty = {"int8": 1.0, "int16": 0.4, "dual-int16": 0.2, "fp16": 0.05, "float": 0.0}
    cost, blocks = 0.0, {}
    for name, tier in tiers.items():
        block = ".".join(name.split(".")[:3])
        if block in scores:
            cost += scores[block] * 0.05 * penalty[tier]
            blocks.setdefault(block, set()).add(tier)
    floats = len([b for b, t in blocks.items() if t == {"float"}])
    if floats == args.at:
        if args.transient and not os.path.exists(args.transient):
            open(args.transient, "w").write("lost once\n")
            qspec_eval.transient("device %s lost" % ev.device)
        if args.fatal:
            qspec_eval.fatal("calibration data missing")
        if args.traceback:
            for i in range(8):
                print("log line %d" % i, file=sys.stderr)
            raise ValueError("bad calibration batch")
    ev.write_metrics(accuracy=round(1.0 - cost, 6))
