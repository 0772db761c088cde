# Installs qlint's pre-commit hook (the repository's .pre-commit-hooks.yaml, from a local clone:
# no network) into a scratch git repository, then tries a bad commit and a good one with the
# real pre-commit. Prints what happened; the lit test checks it.
#   precommit_demo.py SRCROOT WORKDIR
import os
import shutil
import subprocess
import sys

src, work = sys.argv[1], sys.argv[2]
shutil.rmtree(work, ignore_errors=True)
hooks, repo = os.path.join(work, "hooks"), os.path.join(work, "repo")
os.makedirs(hooks)
os.makedirs(repo)
env = dict(os.environ)
env["PRE_COMMIT_HOME"] = os.path.join(work, "cache")  # never the user's cache
env["GIT_CONFIG_NOSYSTEM"] = "1"
env["HOME"] = work
for k in ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"]:
    env.pop(k, None)
ident = ["-c", "user.name=qlint-test", "-c", "user.email=qlint@test", "-c", "init.defaultBranch=main",
         "-c", "commit.gpgsign=false"]


def run(args, cwd, check=True):
    p = subprocess.run(args, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if check and p.returncode != 0:
        sys.stdout.write(p.stdout)
        raise SystemExit("command failed: %s" % " ".join(args))
    return p


def git(args, cwd, check=True):
    return run(["git"] + ident + args, cwd, check)


# The hook repository: the manifest exactly as shipped.
shutil.copy(os.path.join(src, ".pre-commit-hooks.yaml"), hooks)
git(["init", "-q"], hooks)
git(["add", "."], hooks)
git(["commit", "-q", "-m", "hooks"], hooks)
rev = git(["rev-parse", "HEAD"], hooks).stdout.strip()

git(["init", "-q"], repo)
with open(os.path.join(repo, ".pre-commit-config.yaml"), "w") as f:
    f.write("repos:\n  - repo: %s\n    rev: %s\n    hooks:\n      - id: qlint\n" % (hooks, rev))
git(["add", ".pre-commit-config.yaml"], repo)
git(["commit", "-q", "-m", "config"], repo)
p = run(["/usr/bin/pre-commit", "install"], repo)
print("install:", "ok" if "installed" in p.stdout else p.stdout.strip())

# A bad spec: a conflicting pair of overrides is fine to write, but a bad ladder is an error.
with open(os.path.join(repo, "bad.qspec"), "w") as f:
    f.write("qspec 1\ntiers int16 < int8\ndefaults { tier int8 }\n")
git(["add", "bad.qspec"], repo)
p = git(["commit", "-q", "-m", "bad"], repo, check=False)
print("bad commit:", "refused" if p.returncode != 0 else "accepted")
print("hook said:", "spec-tier-ladder-order" if "spec-tier-ladder-order" in p.stdout else p.stdout.strip())
head = git(["log", "--format=%s", "-1"], repo).stdout.strip()
print("head after bad:", head)

with open(os.path.join(repo, "bad.qspec"), "w") as f:
    f.write("qspec 1\ntiers int8 < int16\ndefaults { tier int8 }\n")
git(["add", "bad.qspec"], repo)
p = git(["commit", "-q", "-m", "good"], repo, check=False)
print("good commit:", "accepted" if p.returncode == 0 else "refused\n" + p.stdout)
print("head after good:", git(["log", "--format=%s", "-1"], repo).stdout.strip())

# Only the inventory changes: the hook re-checks the spec that reads it, which now protects a
# module the inventory no longer has.
with open(os.path.join(repo, "inv.qspec"), "w") as f:
    f.write('qspec 1\nmodel "m" {\n  inventory "model.txt"\n}\ndefaults { tier int8 }\nprotect "lm_head"\n')
with open(os.path.join(repo, "model.txt"), "w") as f:
    f.write("lm_head Linear\nl.0.q Linear\n")
git(["add", "inv.qspec", "model.txt"], repo)
p = git(["commit", "-q", "-m", "spec"], repo, check=False)
print("spec commit:", "accepted" if p.returncode == 0 else "refused\n" + p.stdout)
with open(os.path.join(repo, "model.txt"), "w") as f:
    f.write("l.0.q Linear\n")
git(["add", "model.txt"], repo)
p = git(["commit", "-q", "-m", "inventory"], repo, check=False)
print("inventory-only commit:", "refused" if p.returncode != 0 else "accepted")
print("hook said:", "inv.qspec err_protect_selects_nothing"
      if "inv.qspec" in p.stdout and "err_protect_selects_nothing" in p.stdout else p.stdout.strip())
print("head after inventory:", git(["log", "--format=%s", "-1"], repo).stdout.strip())

# Files of other tools that the hook's `files:` matches: skipped, the commit goes through.
git(["reset", "-q", "--hard"], repo)  # drop the refused inventory change
others = {
    "docker-compose.yml": "services:\n  web:\n    image: nginx\n",
    "package.json": '{"name": "ui", "version": "1.0.0"}\n',
    "setup.cfg": "[metadata]\nname = tool\n",
    "deploy/values.yaml": "replicas: 2\n",
}
for name, text in others.items():
    os.makedirs(os.path.dirname(os.path.join(repo, name)), exist_ok=True)
    with open(os.path.join(repo, name), "w") as f:
        f.write(text)
git(["add"] + list(others), repo)
p = git(["commit", "-q", "-m", "unrelated"], repo, check=False)
print("unrelated commit:", "accepted" if p.returncode == 0 else "refused\n" + p.stdout)
print("head after unrelated:", git(["log", "--format=%s", "-1"], repo).stdout.strip())

# A bad vendor file next to them: refused, at its line.
with open(os.path.join(repo, "quant.cfg"), "w") as f:
    f.write('# calibration\nskip_layers: "fc"\nbatch_num: 0\n')
with open(os.path.join(repo, "package.json"), "w") as f:
    f.write('{"name": "ui", "version": "1.0.1"}\n')
git(["add", "quant.cfg", "package.json"], repo)
p = git(["commit", "-q", "-m", "vendor"], repo, check=False)
print("bad vendor commit:", "refused" if p.returncode != 0 else "accepted")
said = [l for l in p.stdout.splitlines() if "error:" in l]
print("hook said:", "\n".join(said) if said else p.stdout.strip())
print("head after vendor:", git(["log", "--format=%s", "-1"], repo).stdout.strip())
