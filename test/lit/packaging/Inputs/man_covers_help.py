# man_covers_help.py BINDIR MANDIR: every option flag in each tool's --help appears in its man
# page, installed gzip-compressed as TOOL.1.gz (the man page is generated from --help; this catches
# a generator that drops lines).
import gzip
import re
import subprocess
import sys

bindir, mandir = sys.argv[1], sys.argv[2]
for tool in ["qcc", "qlint", "qtune", "qspec-lsp"]:
    text = subprocess.run([bindir + "/" + tool, "--help"], stdout=subprocess.PIPE, text=True, check=True).stdout
    page = gzip.open("%s/%s.1.gz" % (mandir, tool)).read().decode()
    page = page.replace("\\-", "-").replace("\\e", "\\")
    flags = sorted(set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", "\n".join(
        l for l in text.split("\n") if l.startswith("  -")))))
    missing = [f for f in flags if f not in page]
    for f in missing:
        print("%s: missing %s" % (tool, f))
    if not missing:
        print("%s: %d options, all in %s.1.gz" % (tool, len(flags), tool))
