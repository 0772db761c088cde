# deb_field.py PATH-FILE FIELD...: prints `FIELD: value` of the control file of the .deb whose path
# is in PATH-FILE, one line per field, in the order asked.
import subprocess
import sys

deb = open(sys.argv[1]).read().strip()
for field in sys.argv[2:]:
    value = subprocess.run(["dpkg-deb", "-f", deb, field], stdout=subprocess.PIPE, text=True,
                           check=True).stdout.strip()
    print("%s: %s" % (field, value))
