#!/usr/bin/python3
# qlint at repository scale (not a test: no timing assertions anywhere). Generates a git
# repository of 72 model folders, each with a spec, the inventory it reads, an msModelSlim
# practice, an AMCT .cfg, an HMCT quant_config and two files of other tools (a Hugging Face
# config.json, a training YAML): 504 files the pre-commit hook's `files:` matches. Then times, in
# the same run,
#   1. `qlint .` on the repository (a directory walk),
#   2. `pre-commit run qlint --all-files` (the hook of HOOKS_DIR/.pre-commit-hooks.yaml, from a
#      local clone: no network), which names all 504 files,
#   3. `pre-commit run noop --all-files`, a hook that runs `true` on the same files: pre-commit's
#      own cost (start-up, listing and classifying the files), which no hook can avoid,
# and prints the wall and CPU time (user + sys of the children) of each, median of RUNS, and the
# ratio of the hook to `qlint .`.
# Usage: bench/qlint/repo_scale.py [BUILD_DIR] [HOOKS_DIR] [RUNS]
#        (defaults: build, the repository root, 3)
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
build = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(root, "build")
hooks_src = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else root
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
qlint = os.path.join(build, "bin", "qlint")
if not os.access(qlint, os.X_OK):
    sys.exit("no qlint at %s; build the qlint target first" % qlint)
if not shutil.which("pre-commit"):
    sys.exit("pre-commit is not installed (Debian package pre-commit)")

FOLDERS = 72
BLOCKS = 64  # a Qwen3-32B-sized inventory: 64 blocks, 450 modules
SPEC = '''qspec 1
model "%(name)s" { inventory "modules.txt"; blocks "model.layers.{i}" }
defaults { tier int8; weight int8 per_channel symmetric minmax; act int8 per_tensor minmax }
tiers int8 < int16 < fp16 < float
protect "lm_head", type Embedding
group "model.layers.{i}.mlp.gate_proj" with "model.layers.{i}.mlp.up_proj"
override name "model.layers.0.*" { tier float }
target msmodelslim {}
'''
PRACTICE = '''apiversion: modelslim_v1
metadata:
  config_id: %(name)s-w8a8
  score: 90
  label: {w_bit: 8, a_bit: 8, is_sparse: false, kv_cache: false}
spec:
  process:
    - type: linear_quant
      qconfig:
        act: {scope: per_tensor, dtype: int8, symmetric: false, method: minmax}
        weight: {scope: per_channel, dtype: int8, symmetric: true, method: minmax}
      include: ["*"]
      exclude: ["lm_head", "model.layers.0.*"]
  save:
    - type: ascendv1_saver
      part_file_size: 4
'''
AMCT = '''batch_num: 2
skip_layers: "lm_head"
override_layer_configs {
  layer_name: "model.layers.0.mlp.down_proj"
  calibration_config { arq_quantize { channel_wise: true } ifmr_quantize { search_range_start: 0.7 search_range_end: 1.3 search_step: 0.01 max_percentile: 0.999999 min_percentile: 0.999999 } }
}
'''
HMCT = '''{
  // calibration for %(name)s
  "model_config": {"all_node_type": "int8", "model_output_type": "int8"},
  "op_config": {"Softmax": {"qtype": "int16"}},
  "node_config": {"/model/layers.0/mlp/down_proj/MatMul": {"qtype": "int16"}}
}
'''
HF_CONFIG = '{"architectures": ["Qwen3ForCausalLM"], "hidden_size": 4096, "num_hidden_layers": %d}\n'
TRAIN = "trainer:\n  max_steps: 1000\n  lr: 2.0e-5\ndata:\n  path: /data/%(name)s\n"


def generate(repo):
    for k in range(FOLDERS):
        name = "model%02d" % k
        d = os.path.join(repo, name)
        os.makedirs(d)
        files = {
            name + ".qspec": SPEC,
            "practice.yaml": PRACTICE,
            "quant.cfg": AMCT,
            "quant_config.json": HMCT,
            "config.json": HF_CONFIG % BLOCKS,
            "train.yaml": TRAIN,
        }
        for fname, text in files.items():
            with open(os.path.join(d, fname), "w") as f:
                f.write(text % {"name": name} if "%(" in text else text)
        with open(os.path.join(d, "modules.txt"), "w") as f:
            for i in range(BLOCKS):
                for m in ["self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj",
                          "self_attn.o_proj", "mlp.gate_proj", "mlp.up_proj", "mlp.down_proj"]:
                    f.write("model.layers.%d.%s Linear\n" % (i, m))
            f.write("model.embed_tokens Embedding\nlm_head Linear\n")


def main():
    work = tempfile.mkdtemp(prefix="qlint-repo-scale-")
    try:
        env = dict(os.environ)
        env["PATH"] = os.path.join(build, "bin") + os.pathsep + env.get("PATH", "")
        env["PRE_COMMIT_HOME"] = os.path.join(work, "cache")
        env["HOME"] = work
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        for k in ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"]:
            env.pop(k, None)
        ident = ["-c", "user.name=bench", "-c", "user.email=bench@example.invalid",
                 "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false"]

        def run(args, cwd):
            return subprocess.run(args, cwd=cwd, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)

        hooks, repo = os.path.join(work, "hooks"), os.path.join(work, "repo")
        os.makedirs(hooks)
        os.makedirs(repo)
        shutil.copy(os.path.join(hooks_src, ".pre-commit-hooks.yaml"), hooks)
        # A hook that does nothing on the same files: what pre-commit itself costs.
        with open(os.path.join(hooks, ".pre-commit-hooks.yaml"), "a") as f:
            f.write("- id: noop\n  name: noop\n  entry: 'true'\n  language: system\n"
                    "  files: '\\.(qspec|cfg|ya?ml|jsonc?|onnx|safetensors|txt|csv|log)$'\n")
        for args in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "hooks"]):
            run(["git"] + ident + args, hooks)
        rev = run(["git", "rev-parse", "HEAD"], hooks).stdout.strip()
        generate(repo)
        with open(os.path.join(repo, ".pre-commit-config.yaml"), "w") as f:
            f.write("repos:\n  - repo: %s\n    rev: %s\n    hooks:\n      - id: qlint\n"
                    "      - id: noop\n" % (hooks, rev))
        for args in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "models"]):
            run(["git"] + ident + args, repo)
        hook_files = int(run(["git", "ls-files"], repo).stdout.count("\n")) - 1

        def timed(args):
            walls, cpus, out = [], [], None
            run(args, repo)  # warm-up (pre-commit clones the hook repository on first use)
            for _ in range(runs):
                r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                t = time.perf_counter()
                p = run(args, repo)
                walls.append(time.perf_counter() - t)
                r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpus.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
                out = p
            return statistics.median(walls), statistics.median(cpus), out

        direct = timed([qlint, "."])
        hook = timed(["pre-commit", "run", "qlint", "--all-files"])
        noop = timed(["pre-commit", "run", "noop", "--all-files"])
        print("repository: %d folders, %d files the hook matches" % (FOLDERS, hook_files))
        print("qlint .                          wall %6.2f s  cpu %6.2f s  (exit %d)"
              % (direct[0], direct[1], direct[2].returncode))
        print("pre-commit run qlint --all-files wall %6.2f s  cpu %6.2f s  (exit %d)"
              % (hook[0], hook[1], hook[2].returncode))
        print("pre-commit run noop --all-files  wall %6.2f s  cpu %6.2f s  (a hook that does nothing)"
              % (noop[0], noop[1]))
        print("ratio hook / qlint .             wall %6.2fx    cpu %6.2fx"
              % (hook[0] / direct[0], hook[1] / direct[1]))
        print("ratio (hook - noop) / qlint .    wall %6.2fx    cpu %6.2fx  (qlint's part of the hook)"
              % ((hook[0] - noop[0]) / direct[0], (hook[1] - noop[1]) / direct[1]))
        if direct[2].returncode or hook[2].returncode:
            print("--- qlint . said:\n" + direct[2].stdout[-2000:])
            print("--- pre-commit said:\n" + hook[2].stdout[-2000:])
    finally:
        shutil.rmtree(work, ignore_errors=True)


main()
