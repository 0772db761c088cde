#!/usr/bin/python3
"""The example's evaluator: reads the msModelSlim practice of a round as msModelSlim reads it and
returns an accuracy for it. The accuracy is a *scripted stand-in* for `msmodelslim quant` plus a
benchmark run (no NPU here): float accuracy minus a loss for every quantized Linear, weighted by
its block's sensitivity in the analysis, scaled by the anti-outlier processor the practice runs.

    evaluate.py                           qtune evaluator: the one .yaml in $QSPEC_CONFIG_DIR,
                                          {"accuracy": A, "quantized": N, "anti_outlier": P}
                                          written to $QSPEC_RESULT
    evaluate.py PRACTICE.yaml             prints that JSON
    evaluate.py --reading PRACTICE.yaml   prints "NAME int8|float" for every Linear, as
                                          msModelSlim's linear_quant applies the practice

It reads the vendor file, never qtune's IR: a practice that does not mean what the spec says is
measured as what it does say.
"""
import json
import os
import re
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
INDEX = os.path.join(HERE, "..", "qwen3-32b", "model.safetensors.index.json")
ANALYSIS = os.path.join(HERE, "..", "qwen3-32b", "analysis_result.yaml")

FLOAT_ACCURACY = 0.990   # the float model on the benchmark (made up)
W8A8_LOSS = 0.030        # what quantizing every decoder Linear costs with iter_smooth (made up)
# The loss left after each anti-outlier processor, relative to iter_smooth (made up); no
# anti-outlier processor at all is worse.
OUTLIER_FACTOR = {"iter_smooth": 1.0, "flex_smooth_quant": 0.55, None: 1.6}
BLOCK = re.compile(r"^model\.layers\.(\d+)\.")


def glob_re(pattern):
    """msModelSlim's matching (wcmatch fnmatch with BRACE): *, ?, {a,b} (nested), {N..M}, \\."""
    return re.compile(glob_body(pattern) + r"\Z")


def glob_body(pattern):
    out, i = "", 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            out, i = out + re.escape(pattern[i + 1]), i + 2
            continue
        alts, end = braces(pattern, i) if c == "{" else (None, i)
        if alts is not None:
            out, i = out + "(?:" + "|".join(glob_body(a) for a in alts) + ")", end
            continue
        out += {"*": ".*", "?": "."}.get(c, re.escape(c))
        i += 1
    return out


def braces(pattern, start):
    """The alternatives of the brace group at `start` and the index after it; (None, start) when
    it is literal text (no closing brace, or neither a comma nor a range inside)."""
    depth, parts, last = 0, [], start + 1
    for j in range(start, len(pattern)):
        if pattern[j] == "{":
            depth += 1
        elif pattern[j] == "}":
            depth -= 1
            if depth == 0:
                parts.append(pattern[last:j])
                m = re.fullmatch(r"(\d+)\.\.(\d+)", parts[0]) if len(parts) == 1 else None
                if m:
                    return [str(k) for k in range(int(m.group(1)), int(m.group(2)) + 1)], j + 1
                return (parts, j + 1) if len(parts) > 1 else (None, start)
        elif pattern[j] == "," and depth == 1:
            parts.append(pattern[last:j])
            last = j + 1
    return None, start


def selects(patterns, name):
    return any(p == name or glob_re(p).match(name) for p in patterns)


def linears():
    """The Linear modules of the model: weights of *_proj layers and the output head."""
    weights = json.load(open(INDEX))["weight_map"]
    names = [k[:-len(".weight")] for k in weights if k.endswith(".weight")]
    return [n for n in names if n.split(".")[-1].endswith("_proj") or n == "lm_head"]


def reading(practice):
    """{Linear: dtype or "float"}: the first linear_quant whose include selects it and whose
    exclude does not quantizes it (msModelSlim's order; a missing include is ["*"])."""
    entries = [p for p in practice["spec"]["process"] if p["type"] == "linear_quant"]
    out = {}
    for name in linears():
        out[name] = "float"
        for e in entries:
            if selects(e.get("include", ["*"]), name) and not selects(e.get("exclude", []), name):
                out[name] = e["qconfig"]["weight"]["dtype"]
                break
    return out


def accuracy(practice):
    scores = {e["name"]: float(e["score"]) for e in yaml.safe_load(open(ANALYSIS))["layer_scores"]}
    total = sum(scores.values())
    anti = [p["type"] for p in practice["spec"]["process"] if p["type"] != "linear_quant"]
    factor = OUTLIER_FACTOR.get(anti[0] if anti else None, 1.0)
    loss, quantized = 0.0, 0
    for name, dtype in reading(practice).items():
        if dtype == "float":
            continue
        quantized += 1
        m = BLOCK.match(name)
        share = scores["model.layers." + m.group(1)] / total / 7 if m else 0.02
        loss += W8A8_LOSS * share * factor
    return {"accuracy": round(FLOAT_ACCURACY - loss, 6), "quantized": quantized,
            "anti_outlier": anti[0] if anti else None}


def load(path):
    with open(path, encoding="utf-8") as f:
        return yaml.load(f, Loader=yaml.SafeLoader)   # msModelSlim's loader


def main(argv):
    if len(argv) == 3 and argv[1] == "--reading":
        for name, dtype in reading(load(argv[2])).items():
            print(name, dtype)
        return 0
    if len(argv) == 2:
        print(json.dumps(accuracy(load(argv[1]))))
        return 0
    config_dir = os.environ["QSPEC_CONFIG_DIR"]
    practices = [f for f in os.listdir(config_dir) if f.endswith(".yaml")]
    if len(practices) != 1:
        sys.exit("evaluate.py: expected one practice .yaml in %s, found %d" % (config_dir, len(practices)))
    result = accuracy(load(os.path.join(config_dir, practices[0])))
    with open(os.environ["QSPEC_RESULT"], "w") as f:
        json.dump(result, f)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
