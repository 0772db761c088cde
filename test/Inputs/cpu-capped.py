# Runs a command with a CPU-time cap and passes its exit code through; a command that runs past
# the cap is killed (SIGXCPU) and the helper says so and exits 124. A guard against a hang or a
# runaway loop in a RUN line, not a timing assertion: the cap is many times what the work takes.
#   cpu-capped.py SECONDS CMD ARGS...
import resource
import subprocess
import sys

seconds = int(sys.argv[1])


def cap():
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))


proc = subprocess.run(sys.argv[2:], preexec_fn=cap)
if proc.returncode < 0:
    sys.stderr.write("cpu-capped.py: killed by signal %d (CPU cap of %d s)\n" % (-proc.returncode, seconds))
    sys.exit(124)
sys.exit(proc.returncode)
