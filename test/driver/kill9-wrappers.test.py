# Driver of kill9-wrappers.test: three kills of qtune per wrapper, each checked the same way.
import os, signal, subprocess, sys, time
qtune, tmp, ev = sys.argv[1:4]

wrapper_py = os.path.join(tmp, "wrapper.py")
with open(wrapper_py, "w") as f:
    f.write("import subprocess, sys\nsys.exit(subprocess.call(['/usr/bin/python3'] + sys.argv[1:]))\n")

WRAPPERS = {
    "sh -c": ["/bin/sh", "-c", "/usr/bin/python3 %s hang %s; echo done" % (ev, tmp)],
    "python": ["/usr/bin/python3", wrapper_py, ev, "hang", tmp],
}

def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False

def ppid(pid):
    with open("/proc/%d/stat" % pid) as f:
        return int(f.read().rsplit(")", 1)[1].split()[1])

def pid_of(name, timeout=600):
    path = os.path.join(tmp, name)
    end = time.time() + timeout
    while not os.path.exists(path) and time.time() < end:
        time.sleep(0.02)
    return int(open(path).read())

def wait_dead(pid, timeout=600):
    end = time.time() + timeout
    while alive(pid) and time.time() < end:
        time.sleep(0.02)
    return not alive(pid)

for n in range(3):
    for name, argv in WRAPPERS.items():
        for f in ("grandchild.pid", "evaluator.pid"):
            if os.path.exists(os.path.join(tmp, f)):
                os.remove(os.path.join(tmp, f))
        work = "%s/w-%d-%s" % (tmp, n, name.split()[0])
        p = subprocess.Popen([qtune, "run", tmp + "/tiny.qspec", "--workdir", work, "--max-rounds", "1",
                              "--no-progress", "--no-report", "--"] + argv,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ev_pid, gc_pid = pid_of("evaluator.pid"), pid_of("grandchild.pid")
        wrapper = ppid(ev_pid)  # qtune's child: the shell or the Python wrapper
        p.kill()
        p.wait()
        print("%s: wrapper gone: %s evaluator gone: %s grandchild gone: %s" % (
            name, wait_dead(wrapper), wait_dead(ev_pid), wait_dead(gc_pid)))
