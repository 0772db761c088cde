"""`qtune status` while a run's first evaluations are in flight, for the live-status tests.

live_status(qtune, run_args, workdir, release) starts `qtune run RUN_ARGS` whose evaluators wait
for the file RELEASE (sim_eval.py --wait-for), polls `qtune status WORKDIR` until two evaluations
show as running, prints that table, releases the evaluators and prints the run's exit status.
"""
import subprocess
import time


def live_status(qtune, run_args, workdir, release):
    p = subprocess.Popen([qtune, "run", *run_args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out = ""
    end = time.time() + 600  # a guard against a hang: the loop ends as soon as both run
    while time.time() < end:
        r = subprocess.run([qtune, "status", workdir], capture_output=True, text=True)
        if r.stdout.count("running  ") >= 2:
            out = r.stdout
            break
        time.sleep(0.05)
    print(out)
    open(release, "w").close()
    print("live run: rc", p.wait(timeout=600))
