#!/usr/bin/python3
"""rc.py OUT ERR -- COMMAND...: runs COMMAND with stdout/stderr into OUT/ERR, prints 'rc N'."""
import subprocess, sys
out, err = sys.argv[1], sys.argv[2]
cmd = sys.argv[sys.argv.index("--") + 1:]
with open(out, "w") as o, open(err, "w") as e:
    print("rc", subprocess.run(cmd, stdout=o, stderr=e).returncode)
