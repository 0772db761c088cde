# Driver of lock.test: starts a run whose evaluator waits for a file, tries a second run on the same
# work directory while the first one is surely in flight, then lets the first one finish.
import os, subprocess, sys, time
qtune, tmp, sim = sys.argv[1:4]
release = os.path.join(tmp, "release")
cmd = [qtune, "run", "--write-ir", tmp + "/tiny.qspec", "--workdir", tmp + "/w", "--no-progress", "--",
       "/usr/bin/python3", sim, "--scores", tmp + "/tiny-scores.yaml", "--wait-for", release]
first = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
deadline = time.time() + 600  # only a guard against a hang: the loop ends when the state is written
while not os.path.exists(tmp + "/w/state.json") and first.poll() is None and time.time() < deadline:
    time.sleep(0.02)
if first.poll() is not None:
    print("first run ended early: rc", first.returncode, first.stderr.read())
    sys.exit(1)
second = subprocess.run(cmd, capture_output=True, text=True)
print("second: rc", second.returncode)
print("second stderr:", second.stderr.strip())
status = subprocess.run([qtune, "status", tmp + "/w"], capture_output=True, text=True).stdout
print("status while running:", [l for l in status.splitlines() if l.startswith("state:")][0])
open(release, "w").close()
out, err = first.communicate()
print("first: rc", first.returncode)
print("first stdout:", out.strip())
# The lock is released with the process: a new run works (all cache hits).
print("after: rc", subprocess.run(cmd, capture_output=True).returncode)
