# Runs a command and passes iff it ended by itself (any exit code) rather than by a signal:
# not-crashed.py CMD ARGS...  Used where an input may legitimately be accepted or rejected, but
# must never crash the tool. Output passes through.
import subprocess
import sys

proc = subprocess.run(sys.argv[1:])
if proc.returncode < 0 or proc.returncode > 2:
    sys.stderr.write("not-crashed.py: %s ended with %d\n" % (sys.argv[1], proc.returncode))
    sys.exit(1)
