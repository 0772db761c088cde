#!/usr/bin/python3
"""The job of `qcc --emit=msmodelslim-yaml`, done the way vendor tooling does it.

    reference_qcc.py SPEC MANIFEST OUT.yaml [--resolution OUT.json]

Every pattern is brace-expanded (`{a,b}`, `{0..10}`, `{00..10}`, `{0..10..2}`, `{a..e}`, as
wcmatch's BRACE flag does) and every expansion is tried on every module name with
`fnmatch.fnmatchcase` (`*` crosses dots, `?`, `[...]`, `[!...]`). Then precedence (protect >
name override > type override > defaults; higher priority wins within a level, field by field),
and the practice YAML is written with PyYAML: one `linear_quant` with the quantized Linear
modules listed by name, the float ones excluded. `--resolution` writes {module: [tier, line of the rule that
set it, line of the rule that set the weight dtype]} for the comparison with qcc's `--emit=ir`
(bench/run_bench.py): the winning rule of every module is a function of every selection.

Reads the subset of .qspec that bench/gen_specs.py writes (one statement per line).
"""
import argparse
import fnmatch
import json
import re
import sys

import yaml


def expand_braces(pattern):
    """All brace expansions of `pattern`, left to right (a `{name}` variable is left alone)."""
    depth = 0
    start = -1
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c == "{":
            if depth == 0:
                start = i
            depth += 1
        elif c == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                body = pattern[start + 1:i]
                alts = brace_alternatives(body)
                if alts is not None:
                    head, tail = pattern[:start], pattern[i + 1:]
                    out = []
                    for alt in alts:
                        for rest in expand_braces(tail):
                            out.extend(expand_braces(head + alt + rest) if "{" in alt else [head + alt + rest])
                    return out
        i += 1
    return [pattern]


def split_top(body):
    parts, depth, cur = [], 0, ""
    for c in body:
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    parts.append(cur)
    return parts


def brace_alternatives(body):
    m = re.fullmatch(r"(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?", body)
    if m:
        a, b = int(m.group(1)), int(m.group(2))
        step = abs(int(m.group(3) or 1)) or 1
        width = max(len(m.group(1)), len(m.group(2))) if re.match(r"-?0\d", m.group(1)) or re.match(r"-?0\d", m.group(2)) else 0
        values = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        return [str(v).zfill(width) for v in values]
    m = re.fullmatch(r"(.)\.\.(.)(?:\.\.(-?\d+))?", body)
    if m:
        a, b = ord(m.group(1)), ord(m.group(2))
        step = abs(int(m.group(3) or 1)) or 1
        values = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        return [chr(v) for v in values]
    parts = split_top(body)
    return parts if len(parts) > 1 else None


def select(pattern, names):
    """Indices of the names the pattern matches: every expansion against every name."""
    alts = expand_braces(pattern)
    hits = []
    for i, name in enumerate(names):
        if name == pattern:
            hits.append(i)
            continue
        for alt in alts:
            if fnmatch.fnmatchcase(name, alt):
                hits.append(i)
                break
    return hits


def parse_body(body):
    out = {}
    for stmt in filter(None, (s.strip() for s in body.split(";"))):
        words = stmt.split()
        if words[0] == "tier":
            out["tier"] = words[1]
        elif words[0] in ("weight", "act"):
            role = {}
            for w in words[1:]:
                if w in ("int4", "int8", "int16", "fp16", "float"):
                    role["dtype"] = w
                elif w.startswith("per_"):
                    role["scope"] = w
                elif w in ("symmetric", "asymmetric"):
                    role["symmetric"] = w == "symmetric"
                else:
                    role["method"] = w
            out[words[0]] = role
    return out


def parse_spec(path):
    """Statements with their line numbers (qcc reports the winning rule's location)."""
    spec = {"protect": [], "type": [], "name": [], "defaults": {}, "defaults_line": 0}
    strings = re.compile(r'"((?:[^"\\]|\\.)*)"')
    for lineno, line in enumerate(open(path), 1):
        line = line.split("//")[0].strip()
        if line.startswith("protect "):
            spec["protect"] += [(p, lineno) for p in strings.findall(line)]
        elif line.startswith("defaults"):
            spec["defaults"] = parse_body(line[line.index("{") + 1:line.rindex("}")])
            spec["defaults_line"] = lineno
        elif line.startswith("override "):
            # The body's brace comes after the last quoted pattern (patterns hold braces too).
            open_at = line.index("{", line.rindex('"') + 1 if '"' in line else 0)
            head, body = line[:open_at], line[open_at + 1:line.rindex("}")]
            pm = re.search(r"priority\s+(\d+)", head)
            prio = int(pm.group(1)) if pm else 0
            if head.startswith("override type"):
                spec["type"].append((head.split()[2], prio, parse_body(body), lineno))
            else:
                spec["name"].append((strings.findall(head), prio, parse_body(body), lineno))
    return spec


def resolve(spec, names, types):
    """Per module: tier, the line of the rule that set it, weight dtype, the line that set it."""
    d = spec["defaults"]
    n = len(names)
    tier = [d.get("tier", "int8")] * n
    tier_line = [spec["defaults_line"]] * n
    wdtype = [d.get("weight", {}).get("dtype")] * n
    w_line = [spec["defaults_line"] if wdtype[0] else 0] * n
    for level in ("type", "name"):
        tier_prio = [None] * n
        w_prio = [None] * n
        for subject, prio, body, lineno in spec[level]:
            if level == "type":
                hits = [i for i, t in enumerate(types) if t == subject]
            else:
                hits = sorted(set(i for p in subject for i in select(p, names)))
            for i in hits:
                if "tier" in body and (tier_prio[i] is None or prio > tier_prio[i]):
                    tier_prio[i], tier[i], tier_line[i] = prio, body["tier"], lineno
                dt = body.get("weight", {}).get("dtype")
                if dt and (w_prio[i] is None or prio > w_prio[i]):
                    w_prio[i], wdtype[i], w_line[i] = prio, dt, lineno
    protected = [False] * n
    for p, lineno in spec["protect"]:
        for i in select(p, names):
            if not protected[i]:
                protected[i] = True
                tier[i], tier_line[i] = "float", lineno
    return tier, tier_line, wdtype, w_line, protected


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("spec")
    ap.add_argument("manifest")
    ap.add_argument("out")
    ap.add_argument("--resolution", default="")
    args = ap.parse_args()
    names, types = [], []
    for line in open(args.manifest):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, typ = line.partition(" ")
        names.append(name)
        types.append(typ.strip())
    spec = parse_spec(args.spec)
    tier, tier_line, wdtype, w_line, protected = resolve(spec, names, types)

    quantized, excluded = [], []
    for i, name in enumerate(names):
        if types[i] == "Linear":
            (excluded if tier[i] == "float" else quantized).append(name)
    process = [{"type": "linear_quant",
                "qconfig": {"weight": {"scope": "per_channel", "dtype": "int8", "symmetric": True,
                                       "method": "minmax"},
                            "act": {"scope": "per_tensor", "dtype": "int8", "symmetric": True,
                                    "method": "minmax"}},
                "include": quantized, "exclude": excluded}]
    doc = {"apiversion": "modelslim_v1", "spec": {"process": process, "runner": "model_wise",
                                                  "save": [{"type": "ascendv1_saver"}]}}
    with open(args.out, "w") as f:
        yaml.safe_dump(doc, f, sort_keys=False, default_flow_style=False)
    if args.resolution:
        with open(args.resolution, "w") as f:
            json.dump({n: [tier[i], tier_line[i], w_line[i] if not protected[i] else None]
                       for i, n in enumerate(names)}, f)


if __name__ == "__main__":
    sys.exit(main())
