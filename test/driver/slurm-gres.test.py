# Driver of slurm-gres.test, run inside the test's Slurm cluster: (1) a run whose evaluators wait
# for a file, so `qtune status` sees both in flight; (2) a run whose evaluator fails once as
# transient, to see how the retry is announced. Prints each part's output.
import os, subprocess, sys
qtune, tmp, inputs = sys.argv[1:4]
sys.path.insert(0, inputs)
from live_status import live_status
ev = [os.path.join(inputs, "sim_eval.py"), "--scores", tmp + "/tiny-scores.yaml"]
slurm = ["--executor", "slurm", "--jobs", "2", "--gres", "gpu:4", "--no-progress"]

release = os.path.join(tmp, "release")
live_status(qtune, ["--write-ir", tmp + "/tiny.qspec", "--workdir", tmp + "/live", *slurm, "--",
                    "/usr/bin/python3", *ev, "--wait-for", release], tmp + "/live", release)

kit = os.path.join(inputs, "kit_eval.py")
env = dict(os.environ, PYTHONPATH=os.path.join(inputs, "..", "..", "..", "driver", "qtune", "python"))
r = subprocess.run([qtune, "run", "--write-ir", tmp + "/tiny.qspec", "--workdir", tmp + "/tr",
                    *slurm, "--", "/usr/bin/python3", kit, "--scores", tmp + "/tiny-scores.yaml",
                    "--at", "4", "--transient", tmp + "/tr.flag"],
                   capture_output=True, text=True, env=env)
print(r.stderr, end="")
print("transient run: rc", r.returncode)
