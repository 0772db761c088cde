# Runs a command and succeeds only if it exits with the given status:
#   expect_exit.py STATUS CMD ARGS...
# (lit's internal shell has no `$?`.) The command's output is passed through.
import subprocess
import sys

want = int(sys.argv[1])
got = subprocess.call(sys.argv[2:])
if got != want:
    sys.stderr.write("expected exit status %d, got %d\n" % (want, got))
    sys.exit(1)
