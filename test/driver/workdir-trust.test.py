# For each name qtune writes in its work directory: a fresh work directory with a symbolic link
# planted under that name (to a file holding "keep", or an empty folder), a run, and then whether
# the link's target is untouched and what qtune said about the name.
#   workdir-trust.test.py QTUNE TMP SIM_EVAL
import os
import shutil
import subprocess
import sys

qtune, tmp, sim = sys.argv[1:4]
names = ["state.json", "report.md", "report.svg", "history.jsonl", "lock", "evals", "best"]
for name in names:
    wd = os.path.join(tmp, "w-" + name)
    target = os.path.join(tmp, "target-" + name)
    shutil.rmtree(wd, ignore_errors=True)
    shutil.rmtree(target, ignore_errors=True)
    os.makedirs(wd)
    if name in ("evals", "best"):
        os.makedirs(target)
    else:
        with open(target, "w") as f:
            f.write("keep\n")
    os.symlink(target, os.path.join(wd, name))
    p = subprocess.run([qtune, "run", "--write-ir", os.path.join(tmp, "tiny.qspec"), "--workdir", wd,
                        "--no-progress", "--", sys.executable, sim, "--scores",
                        os.path.join(tmp, "tiny-scores.yaml")],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if os.path.isdir(target):
        kept = os.listdir(target) == []
    else:
        kept = open(target).read() == "keep\n"
    said = [l for l in p.stderr.splitlines() if "symbolic link" in l]
    print("%s: target %s; %s" % (name, "kept" if kept else "CHANGED",
                                 said[0] if said else "(nothing said about a link)"))
