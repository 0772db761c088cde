"""Compiles every example whose model is a transformer (its model block names decoder blocks,
`blocks "model.layers.{i}"`) for `target llm-compressor`, both files, and prints one line per
example and file. qcc reads each written file back as vLLM would (translation validation) and
exits non-zero on any difference, so "ok" means: compiled and read back equal.

usage: every_transformer_example.py QCC EXAMPLES_DIR SCRATCH_DIR
"""
import os
import re
import subprocess
import sys

qcc, examples, scratch = (os.path.abspath(a) for a in sys.argv[1:4])
found = 0
for name in sorted(os.listdir(examples)):
    folder = os.path.join(examples, name)
    if not os.path.isdir(folder):
        continue
    for spec in sorted(f for f in os.listdir(folder) if f.endswith(".qspec")):
        text = open(os.path.join(folder, spec), encoding="utf-8").read()
        if 'blocks "model.layers.{i}"' not in text:
            continue
        found += 1

        # The copy lives in the scratch folder: input paths become absolute.
        def absolute(m):
            p = os.path.normpath(os.path.join(folder, m.group(1)))
            return '"%s"' % p if os.path.exists(p) else m.group(0)

        text = re.sub(r'"([^"\n]+)"', absolute, text)
        text += "\ntarget llm-compressor { silence warn_llmc_method_not_carried }\n"
        copy = os.path.join(scratch, spec)
        with open(copy, "w", encoding="utf-8") as f:
            f.write(text)
        for kind in ("llm-compressor-yaml", "compressed-tensors-config"):
            r = subprocess.run([qcc, copy, "--emit=" + kind], capture_output=True, text=True)
            groups = len(re.findall(r'^\s+"?group_\d+"?:', r.stdout, re.M))
            status = "ok" if r.returncode == 0 and groups > 0 else "FAILED"
            print("%s %s %s groups=%d" % (spec, kind, status, groups))
            if status != "ok":
                sys.stderr.write(r.stderr)
print("transformer examples: %d" % found)
