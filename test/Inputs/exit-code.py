# Runs a command and checks its exit code: exit-code.py EXPECTED CMD ARGS...
# The command's stdout and stderr pass through; the helper exits 0 iff the code matched, so a lit
# RUN line can pin an exact exit code (lit's internal shell has no `$?`).
import subprocess
import sys

expected = int(sys.argv[1])
proc = subprocess.run(sys.argv[2:])
if proc.returncode != expected:
    sys.stderr.write("exit-code.py: expected exit %d, got %d\n" % (expected, proc.returncode))
    sys.exit(1)
