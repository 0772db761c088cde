#!/usr/bin/python3
"""An evaluator that leaves processes behind, for process-tree.test.

It starts a grandchild that calls setsid() (leaving the evaluator's process group) and sleeps,
writing its pid to DIR/grandchild.pid. Then, with MODE "done", it writes a failing result and
exits at once; with "hang" it sleeps until killed.
"""
import json, os, sys, time

mode, piddir = sys.argv[1], sys.argv[2]
pid = os.fork()
if pid == 0:
    os.setsid()
    if os.fork() == 0:  # the grandchild: no parent in qtune's process group at all
        with open(os.path.join(piddir, "grandchild.pid.tmp"), "w") as f:
            f.write(str(os.getpid()))
        os.rename(os.path.join(piddir, "grandchild.pid.tmp"), os.path.join(piddir, "grandchild.pid"))
        time.sleep(600)
    os._exit(0)
os.waitpid(pid, 0)
while not os.path.exists(os.path.join(piddir, "grandchild.pid")):
    time.sleep(0.01)
with open(os.path.join(piddir, "evaluator.pid.tmp"), "w") as f:  # renamed: never read half-written
    f.write(str(os.getpid()))
os.rename(os.path.join(piddir, "evaluator.pid.tmp"), os.path.join(piddir, "evaluator.pid"))
if mode == "hang":
    time.sleep(600)
json.dump({"accuracy": 0.5}, open(os.environ["QSPEC_RESULT"], "w"))
