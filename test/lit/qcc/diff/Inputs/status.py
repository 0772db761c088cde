# Runs a command and prints its standard output, then its standard error, then `exit: N`: a test
# of `qcc diff` checks the exit status (0 same, 1 differ, 2 error) next to what it printed.
import subprocess
import sys

r = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
sys.stdout.write(r.stdout.decode("utf-8", "replace"))
sys.stdout.write(r.stderr.decode("utf-8", "replace"))
sys.stdout.write("exit: %d\n" % r.returncode)
