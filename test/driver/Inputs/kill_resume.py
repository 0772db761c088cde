#!/usr/bin/python3
"""kill -9 of qtune at several moments, then the same command again: the rerun must end with the
result of an uninterrupted run and must repeat no finished evaluation.

usage: kill_resume.py QTUNE SPEC SCORES WORKROOT JOBS
Prints one line per scenario and 'RESUME OK' when every check holds; exits 1 otherwise.
"""
import collections, json, os, signal, subprocess, sys, time

qtune, spec, scores, root, jobs = sys.argv[1:6]
sim = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sim_eval.py")

def command(work, counter):
    return [qtune, "run", "--write-ir", spec, "--workdir", work, "--jobs", jobs, "--no-progress", "--",
            "/usr/bin/python3", sim, "--scores", scores, "--sleep", "0.15", "--counter", counter]

def count(counter, what):
    if not os.path.exists(counter):
        return collections.Counter()
    return collections.Counter(l.split()[1] for l in open(counter) if l.startswith(what + " "))

def recorded(work):
    """The keys of the evaluations the history holds a result of: an evaluator killed after writing
    its result but before its 'done' line is recovered by the rerun, not run again. (A key covers
    the evaluator's command, whose --counter differs per work directory: compare their number.)"""
    path = os.path.join(work, "history.jsonl")
    return {r["key"] for r in map(json.loads, open(path)) if r["status"] == "ok"}

def best(work):
    s = json.load(open(os.path.join(work, "state.json")))
    return s["verdict"], s["best"] and (s["best"]["level"], s["best"]["modules"], s["best"]["metric"])

ok = True
base = os.path.join(root, "uninterrupted")
r = subprocess.run(command(base, base + ".counter"), capture_output=True, text=True)
want_out, want_best = r.stdout, best(base)
want_done = count(base + ".counter", "done")
want_keys = recorded(base)
print("uninterrupted: rc %d, %d evaluations, best %s" % (r.returncode, sum(want_done.values()), want_best))

for kill_after in (1, 2, 3, 4):
    work = os.path.join(root, "killed%d" % kill_after)
    counter = work + ".counter"
    p = subprocess.Popen(command(work, counter), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 600  # a guard against a hang only
    while sum(count(counter, "done").values()) < kill_after and p.poll() is None and time.time() < deadline:
        time.sleep(0.02)
    time.sleep(0.025 * kill_after)  # land at different points: between rounds, mid-evaluation
    if p.poll() is None:
        os.kill(p.pid, signal.SIGKILL)
    p.wait()
    r2 = subprocess.run(command(work, counter), capture_output=True, text=True)
    done = count(counter, "done")
    starts = count(counter, "start")
    twice = [k for k, n in done.items() if n > 1]
    same = r2.stdout == want_out and best(work) == want_best and len(recorded(work)) == len(want_keys)
    print("killed after %d: rc %d, %d started, %d finished, finished twice: %d, same result: %s" % (
        kill_after, r2.returncode, sum(starts.values()), sum(done.values()), len(twice), same))
    # Starts beyond the uninterrupted count can only be evaluations cut off by the kill.
    extra = sum(starts.values()) - sum(want_done.values())
    if twice or not same or r2.returncode != r.returncode or extra > int(jobs):
        ok = False
print("RESUME OK" if ok else "RESUME FAILED")
sys.exit(0 if ok else 1)
