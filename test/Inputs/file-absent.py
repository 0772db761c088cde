# file-absent.py PATH...: exits 1 if any PATH exists (checks that a failed run wrote nothing).
import os
import sys

present = [p for p in sys.argv[1:] if os.path.exists(p)]
for p in present:
    sys.stderr.write("file-absent.py: '%s' exists\n" % p)
sys.exit(1 if present else 0)
