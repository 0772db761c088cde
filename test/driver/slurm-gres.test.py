# Driver of slurm-gres.test, run inside the test's Slurm cluster: (1) a run whose evaluators wait
# for a file, so `qtune status` sees both in flight; (2) a run whose evaluator fails once as
# transient, to see how the retry is announced. Prints each part's output.
import os, subprocess, sys, time
qtune, tmp, inputs = sys.argv[1:4]
ev = [os.path.join(inputs, "sim_eval.py"), "--scores", tmp + "/tiny-scores.yaml"]
slurm = ["--executor", "slurm", "--jobs", "2", "--gres", "gpu:4", "--no-progress"]

release = os.path.join(tmp, "release")
p = subprocess.Popen([qtune, "run", "--write-ir", tmp + "/tiny.qspec", "--workdir", tmp + "/live",
                      *slurm, "--", "/usr/bin/python3", *ev, "--wait-for", release],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
out = ""
end = time.time() + 600  # a guard against a hang: the loop ends as soon as both run
while time.time() < end:
    r = subprocess.run([qtune, "status", tmp + "/live"], capture_output=True, text=True)
    if r.stdout.count("running  ") >= 2:
        out = r.stdout
        break
    time.sleep(0.05)
print(out)
open(release, "w").close()
print("live run: rc", p.wait(timeout=600))

kit = os.path.join(inputs, "kit_eval.py")
env = dict(os.environ, PYTHONPATH=os.path.join(inputs, "..", "..", "..", "driver", "qtune", "python"))
r = subprocess.run([qtune, "run", "--write-ir", tmp + "/tiny.qspec", "--workdir", tmp + "/tr",
                    *slurm, "--", "/usr/bin/python3", kit, "--scores", tmp + "/tiny-scores.yaml",
                    "--at", "4", "--transient", tmp + "/tr.flag"],
                   capture_output=True, text=True, env=env)
print(r.stderr, end="")
print("transient run: rc", r.returncode)
