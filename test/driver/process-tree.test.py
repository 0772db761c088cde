# Driver of process-tree.test: after each way a probe or qtune ends, no evaluator process is left.
import os, signal, subprocess, sys, time
qtune, tmp, ev = sys.argv[1:4]

def cmd(mode, work):
    return [qtune, "run", tmp + "/tiny.qspec", "--workdir", work, "--max-rounds", "1", "--no-progress",
            "--no-report", "--", "/usr/bin/python3", ev, mode, tmp]

def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False

def pid_of(name, timeout=600):
    path = os.path.join(tmp, name)
    end = time.time() + timeout
    while not os.path.exists(path) and time.time() < end:
        time.sleep(0.02)
    return int(open(path).read())

def clean():
    for n in ("grandchild.pid", "evaluator.pid"):
        if os.path.exists(os.path.join(tmp, n)):
            os.remove(os.path.join(tmp, n))

def wait_dead(pid, timeout=600):
    end = time.time() + timeout
    while alive(pid) and time.time() < end:
        time.sleep(0.02)
    return not alive(pid)

# 1. The probe ends normally: its setsid() grandchild is killed with it.
clean()
subprocess.run(cmd("done", tmp + "/w1"), capture_output=True)
print("probe end: grandchild gone:", wait_dead(pid_of("grandchild.pid")))

# 2. SIGTERM and SIGINT of qtune while the evaluator runs: evaluator and grandchild die, qtune
#    exits through the signal.
for sig in (signal.SIGTERM, signal.SIGINT):
    clean()
    p = subprocess.Popen(cmd("hang", tmp + "/w-" + sig.name), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    ev_pid, gc_pid = pid_of("evaluator.pid"), pid_of("grandchild.pid")
    p.send_signal(sig)
    p.wait(timeout=600)
    print(sig.name + ": rc", p.returncode, "evaluator gone:", wait_dead(ev_pid), "grandchild gone:", wait_dead(gc_pid))

# 3. kill -9 of qtune: no handler of qtune's runs, but its watchdog sees the pipe close and kills
#    the evaluator and the grandchild.
clean()
p = subprocess.Popen(cmd("hang", tmp + "/w8"), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
ev_pid, gc_pid = pid_of("evaluator.pid"), pid_of("grandchild.pid")
p.kill()
p.wait()
print("after kill -9: evaluator gone:", wait_dead(ev_pid), "grandchild gone:", wait_dead(gc_pid))

# 4. kill -9 of the watchdog and of qtune: the grandchild survives; the next run on the same
#    work directory kills it (and only it) before evaluating again.
def watchdog_of(work):
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                args = open("/proc/%s/cmdline" % d, "rb").read().split(b"\0")
            except OSError:
                continue
            if b"__watchdog" in args and os.path.abspath(work).encode() in args:
                return int(d)
    return None

clean()
p = subprocess.Popen(cmd("hang", tmp + "/w9"), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
ev_pid, gc_pid = pid_of("evaluator.pid"), pid_of("grandchild.pid")
os.kill(watchdog_of(tmp + "/w9"), signal.SIGKILL)
p.kill()
p.wait()
# The evaluator dies by its parent-death signal, which takes effect only when it is next
# scheduled: wait for it to be gone, else on a busy machine the rerun would find it still
# exiting and count it too.
wait_dead(ev_pid)
print("both killed: grandchild alive:", alive(gc_pid))
clean()
r = subprocess.run(cmd("done", tmp + "/w9"), capture_output=True, text=True)
print("rerun:", [l for l in r.stderr.splitlines() if "left behind" in l])
print("old grandchild gone:", wait_dead(gc_pid))
print("new grandchild gone:", wait_dead(pid_of("grandchild.pid")))
