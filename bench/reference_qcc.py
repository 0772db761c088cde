#!/usr/bin/python3
"""The job of `qcc --emit=msmodelslim-yaml`, done the way vendor tooling does it.

    reference_qcc.py SPEC MANIFEST OUT.yaml [--resolution OUT.json]

Every pattern is brace-expanded (`{a,b}`, `{0..10}`, `{00..10}`, `{0..10..2}`, `{a..e}`, as
wcmatch's BRACE flag does) and every expansion is tried on every module name with
`fnmatch.fnmatchcase` (`*` crosses dots, `?`, `[...]`, `[!...]`). Then precedence (protect >
name override > type override > defaults; higher priority wins within a level, field by field),
and the practice YAML is written with PyYAML: one `linear_quant` per weight recipe, its modules
listed by name, float modules excluded. `--resolution` writes {module: [tier, weight method]} for
the comparison with qcc's `--emit=ir` (bench/run_bench.py).

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
    spec = {"protect": [], "type": [], "name": [], "defaults": {}}
    strings = re.compile(r'"((?:[^"\\]|\\.)*)"')
    for line in open(path):
        line = line.split("//")[0].strip()
        if line.startswith("protect "):
            spec["protect"] += strings.findall(line)
        elif line.startswith("defaults"):
            spec["defaults"] = parse_body(line[line.index("{") + 1:line.rindex("}")])
        elif line.startswith("override "):
            head, body = line[:line.index("{")], line[line.index("{") + 1:line.rindex("}")]
            pm = re.search(r"priority\s+(\d+)", head)
            prio = int(pm.group(1)) if pm else 0
            if head.startswith("override type"):
                spec["type"].append((head.split()[2], prio, parse_body(body)))
            else:
                spec["name"].append((strings.findall(head), prio, parse_body(body)))
    return spec


def resolve(spec, names, types):
    d = spec["defaults"]
    tier = [d.get("tier", "int8")] * len(names)
    weight = [dict(d.get("weight", {})) for _ in names]
    decided = [[-1, -1] for _ in names]  # priority that set (tier, method) at the current level
    for level in ("type", "name"):
        setby = [[None, None] for _ in names]
        for subject, prio, body in spec[level]:
            if level == "type":
                hits = [i for i, t in enumerate(types) if t == subject]
            else:
                hits = sorted(set(i for p in subject for i in select(p, names)))
            for i in hits:
                if "tier" in body and (setby[i][0] is None or prio > setby[i][0]):
                    setby[i][0] = prio
                    tier[i] = body["tier"]
                if "method" in body.get("weight", {}) and (setby[i][1] is None or prio > setby[i][1]):
                    setby[i][1] = prio
                    weight[i] = dict(weight[i], **body["weight"])
    protected = set()
    for p in spec["protect"]:
        protected.update(select(p, names))
    for i in protected:
        tier[i] = "float"
    return tier, weight


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
    tier, weight = resolve(spec, names, types)

    entries = {}
    excluded = []
    for i, name in enumerate(names):
        if types[i] != "Linear":
            continue
        if tier[i] == "float":
            excluded.append(name)
            continue
        w = weight[i]
        key = (w.get("dtype", "int8"), w.get("scope", "per_channel"), w.get("symmetric", True),
               w.get("method", "minmax"))
        entries.setdefault(key, []).append(name)
    process = []
    for (dtype, scope, sym, method), members in sorted(entries.items()):
        process.append({"type": "linear_quant",
                        "qconfig": {"weight": {"scope": scope, "dtype": dtype, "symmetric": sym,
                                               "method": method}},
                        "include": members, "exclude": excluded})
    doc = {"apiversion": "modelslim_v1", "spec": {"process": process, "runner": "model_wise",
                                                  "save": [{"type": "ascendv1_saver"}]}}
    with open(args.out, "w") as f:
        yaml.safe_dump(doc, f, sort_keys=False, default_flow_style=False)
    if args.resolution:
        with open(args.resolution, "w") as f:
            json.dump({n: [tier[i], weight[i].get("method", "")] for i, n in enumerate(names)}, f)


if __name__ == "__main__":
    sys.exit(main())
