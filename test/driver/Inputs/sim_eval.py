#!/usr/bin/python3
"""Deterministic simulated evaluator for qtune tests (the evaluator protocol of docs/driver.md).

The metric is computed from the tier of every module in QSPEC_IR: each module of block i costs
score(i) * 0.05 * penalty(tier), penalty int8 1, int16 0.4, dual-int16 0.2, fp16 0.05, float 0;
accuracy = 1 - total cost. With tiny.qspec (three modules per block) and every block at int8 the
cost is 0.15 * 3.9 = 0.585; a block moved to float removes 0.15 * its score.

Landscapes: monotone (default); noisy (a deterministic +-NOISE from a hash of the tier map);
nonmono (exactly TRAP float blocks: the metric drops by TRAP_DROP). Failure injection: --fail MODE
(crash, hang, bad-json, no-metric, no-result, nan, and results qtune must refuse: fifo, link,
dup-key, not-utf8, deep, huge) applied when the number of float blocks is
--fail-at N (default: always). --audit FILE gets one line per evaluation checking that no group
is split and every protected module is float; --counter FILE gets 'start KEY' and 'done KEY'.
--wait-starts N makes evaluations that qtune runs at once overlap for sure (a barrier on the
counter file) instead of by a sleep that a loaded machine can outlast.
"""
import argparse, hashlib, json, os, sys, time

ap = argparse.ArgumentParser()
ap.add_argument("--scores", required=True)
ap.add_argument("--landscape", default="monotone", choices=["monotone", "noisy", "nonmono"])
ap.add_argument("--noise", type=float, default=0.004)
ap.add_argument("--trap", type=int, default=4)
ap.add_argument("--trap-drop", type=float, default=0.5)
ap.add_argument("--fail", default="")
ap.add_argument("--fail-at", type=int, default=-1)
ap.add_argument("--sleep", type=float, default=0)
ap.add_argument("--counter", default="")
ap.add_argument("--audit", default="")
ap.add_argument("--env-log", default="")
ap.add_argument("--mmlu-offset", type=float, default=None, help="also report mmlu = accuracy + OFFSET")
ap.add_argument("--spam", type=int, default=0, help="write this many bytes to stderr first")
ap.add_argument("--fail-once", default="", help="with --fail: fail only while FILE does not exist, then create it")
ap.add_argument("--clock", default="", help="add --clock-step seconds to the number in FILE (qtune's QSPEC_TUNE_CLOCK_FILE)")
ap.add_argument("--clock-step", type=float, default=1200)
ap.add_argument("--wait-for", default="", help="wait until FILE exists before writing the result")
ap.add_argument("--wait-starts", type=int, default=0,
                help="with --counter: wait until the counter holds N starts (evaluations that run at "
                     "once meet here, whatever the machine's load), or 600 s have passed")
args = ap.parse_args()

key = os.environ.get("QSPEC_KEY", "?")
def append(path, line):
    if path:
        with open(path, "a") as f:
            f.write(line + "\n")
            f.flush()
            os.fsync(f.fileno())
append(args.counter, "start " + key)

scores = {}
for line in open(args.scores):
    line = line.strip()
    if line.startswith("- {name:"):
        name = line.split("name:")[1].split(",")[0].strip()
        scores[name] = float(line.split("score:")[1].strip(" }"))

ir = json.load(open(os.environ["QSPEC_IR"]))
penalty = {"int4": 2.0, "int8": 1.0, "int16": 0.4, "dual-int16": 0.2, "fp16": 0.05, "float": 0.0}
cost = 0.0
float_blocks = set()
all_blocks = {}
problems = []
for m in ir["modules"]:
    parts = m["name"].split(".")
    block = ".".join(parts[:3]) if len(parts) > 3 else None
    if block in scores:
        cost += scores[block] * 0.05 * penalty[m["tier"]]
        all_blocks.setdefault(block, set()).add(m["tier"])
    if m.get("protected") and m["tier"] != "float":
        problems.append("protected %s at %s" % (m["name"], m["tier"]))
tiers = {m["name"]: m["tier"] for m in ir["modules"]}
for g in ir["groups"]:
    seen = {tiers[n] for n in g["members"]}
    if len(seen) != 1:
        problems.append("group %s split: %s" % (g["name"], sorted(seen)))
float_blocks = {b for b, t in all_blocks.items() if t == {"float"}}
append(args.audit, ("violation " + "; ".join(problems)) if problems else "ok %d float blocks" % len(float_blocks))
if problems:
    sys.exit(3)

accuracy = 1.0 - cost
if args.landscape == "noisy":
    h = hashlib.sha256(json.dumps(sorted(tiers.items())).encode()).digest()
    accuracy += (h[0] / 255.0 * 2 - 1) * args.noise
if args.landscape == "nonmono" and len(float_blocks) == args.trap:
    accuracy -= args.trap_drop

if args.env_log:
    append(args.env_log, "round=%s slurm_job=%s device=%s visible=%s anti_outlier=%s config_dir=%s cuda=%s" % (
        os.environ.get("QSPEC_ROUND"), os.environ.get("SLURM_JOB_ID", "-"), os.environ.get("QSPEC_DEVICE"),
        os.environ.get("ASCEND_RT_VISIBLE_DEVICES", os.environ.get("MY_DEVICE", "-")),
        os.environ.get("QSPEC_ANTI_OUTLIER", ""), os.path.isdir(os.environ["QSPEC_CONFIG_DIR"]),
        os.environ.get("CUDA_VISIBLE_DEVICES", "-")))

if args.sleep:
    time.sleep(args.sleep)
if args.wait_for:
    while not os.path.exists(args.wait_for):
        time.sleep(0.02)
if args.wait_starts:
    give_up = time.monotonic() + 600  # never hang a test: a missing start then shows in its checks
    while time.monotonic() < give_up:
        with open(args.counter) as f:
            if sum(line.startswith("start ") for line in f) >= args.wait_starts:
                break
        time.sleep(0.02)
if args.clock:
    import fcntl
    with open(args.clock, "a+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.seek(0)
        now = float(f.read().strip() or 0) + args.clock_step
        f.seek(0)
        f.truncate()
        f.write("%g\n" % now)
if args.spam:
    chunk = "x" * 1023 + "\n"
    for _ in range(args.spam // 1024):
        sys.stderr.write(chunk)
    sys.stderr.write("the last stderr line\n")

result = {"accuracy": round(accuracy, 6), "float_blocks": len(float_blocks)}
if args.mmlu_offset is not None:
    result["mmlu"] = round(accuracy + args.mmlu_offset, 6)
failing = args.fail and (args.fail_at < 0 or args.fail_at == len(float_blocks))
if failing and args.fail_once:
    if os.path.exists(args.fail_once):
        failing = False
    else:
        open(args.fail_once, "w").write("failed once\n")
if failing:
    if args.fail == "crash":
        sys.stderr.write("simulated crash: out of device memory\n")
        sys.exit(7)
    if args.fail == "hang":
        time.sleep(60)
    if args.fail == "no-result":
        append(args.counter, "done " + key)
        sys.exit(0)
    if args.fail == "bad-json":
        open(os.environ["QSPEC_RESULT"], "w").write("accuracy: 0.9\n")
        append(args.counter, "done " + key)
        sys.exit(0)
    if args.fail == "no-metric":
        result = {"acc": 0.9}
    if args.fail == "nan":
        open(os.environ["QSPEC_RESULT"], "w").write('{"accuracy": NaN}')
        append(args.counter, "done " + key)
        sys.exit(0)
    # Results that must be refused without reading them whole (a FIFO would block a reader
    # forever; a link is not followed) or before a tree is built.
    bad = {
        "dup-key": b'{"accuracy": 0.1, "accuracy": 0.95}',
        "not-utf8": b'{"accuracy": 0.95, "note": "caf\xe9"}',
        "deep": b'{"accuracy": 0.95, "x": ' + b"[" * 100000 + b"]" * 100000 + b"}",
        "huge": b'{"accuracy": 0.95, "pad": "' + b"x" * (2 << 20) + b'"}',
    }
    if args.fail in bad:
        open(os.environ["QSPEC_RESULT"], "wb").write(bad[args.fail])
        sys.exit(0)
    if args.fail == "fifo":
        os.mkfifo(os.environ["QSPEC_RESULT"])
        sys.exit(0)
    if args.fail == "link":
        target = os.environ["QSPEC_RESULT"] + ".real"
        open(target, "w").write('{"accuracy": 0.95}')
        os.symlink(target, os.environ["QSPEC_RESULT"])
        sys.exit(0)
with open(os.environ["QSPEC_RESULT"], "w") as f:
    json.dump(result, f)
append(args.counter, "done " + key)
