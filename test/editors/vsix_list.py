"""Lists the files of a .vsix (a zip archive) one per line, sorted."""
import sys
import zipfile

for name in sorted(zipfile.ZipFile(sys.argv[1]).namelist()):
    print(name)
