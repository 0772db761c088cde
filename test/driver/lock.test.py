# Driver of lock.test: starts a slow run, tries a second one on the same work directory.
import os, subprocess, sys, time
qtune, tmp, sim = sys.argv[1:4]
cmd = [qtune, "run", "--write-ir", tmp + "/tiny.qspec", "--workdir", tmp + "/w", "--no-progress", "--",
       "/usr/bin/python3", sim, "--scores", tmp + "/tiny-scores.yaml", "--sleep", "0.4"]
first = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
deadline = time.time() + 30
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
out, err = first.communicate()
print("first: rc", first.returncode)
print("first stdout:", out.strip())
# The lock is released with the process: a new run works (all cache hits).
print("after: rc", subprocess.run(cmd, capture_output=True).returncode)
