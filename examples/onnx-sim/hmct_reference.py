#!/usr/bin/python3
"""HMCT's own cosine-similarity tuning procedure, run on the example's evaluator as the
reference for qtune's hmct-ladder (OE-Skills j6-hmct-cosine-similarity-tuning,
../shared/reference/search-strategies.md §2):

  1 all int8                                    pass: done            fail: 2
  2 all int16                                   pass: 3               fail: 4
  3 int8 + int16 on sensitive nodes             first passing t wins  none: the phase-2 result
  4 all int16 + dual-int16 on Conv/Gemm/MatMul  pass: 5               fail: 6
  5 all int16 + dual-int16 on sensitive nodes   first passing t wins  none: the phase-4 result
  6 all float16                                 pass: 7               fail: give up
  7 phase 4 + float16 on sensitive nodes        first passing t wins  none: the phase-6 result

"Sensitive" at threshold t = every node whose sensitivity (cosine with that node alone int8)
is <= t, for t in 0.99, 0.999, 0.9999, 0.99999. The user's node_config entries (the spec's
protected nodes) are never promoted and are merged last.

    hmct_reference.py EVALUATE.py BASE_QUANT_CONFIG.json NODE_SENSITIVITY.json [--target 0.99] [--out FILE]

EVALUATE.py is the example's evaluator (a module with `CACHE` and `evaluate(config_file)`).

Prints one JSON object: the phases run (metric, nodes per qtype, seconds), the final config and
the number of nodes it raises above int8 (`raised`).
"""
import argparse
import copy
import importlib.util
import json
import os
import sys
import tempfile
import time

THRESHOLDS = [0.99, 0.999, 0.9999, 0.99999]
GEMM = {"Conv", "ConvTranspose", "MatMul", "Gemm"}


class Procedure:
    def __init__(self, evaluator, base: dict, sensitivity: dict, target: float, nodes: dict):
        self.evaluator, self.base, self.target, self.nodes = evaluator, base, target, nodes
        self.user = base.get("node_config", {})
        self.sens = {n: float(v["cosine-similarity"]) for n, v in sensitivity.items()}
        self.phases = []

    def config(self, default: str, per_node: dict) -> dict:
        c = copy.deepcopy(self.base)
        c["model_config"]["all_node_type"] = default
        entries = {n: {"qtype": q} for n, q in per_node.items() if n not in self.user}
        entries.update(self.user)
        if entries:
            c["node_config"] = dict(sorted(entries.items()))
        else:
            c.pop("node_config", None)
        return c

    def run(self, phase: int, what: str, config: dict) -> bool:
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(config, f)
        t0 = time.monotonic()
        try:
            result = self.evaluator.evaluate(f.name)
        finally:
            os.unlink(f.name)
        ok = result["cosine"] >= self.target
        self.phases.append({"phase": phase, "what": what, "cosine": round(result["cosine"], 6),
                            "nodes": result["nodes"], "pass": ok,
                            "seconds": round(time.monotonic() - t0, 2), "config": config})
        return ok

    def sensitive(self, t: float) -> list:
        return sorted(n for n, s in self.sens.items() if s <= t)

    def ladder(self, phase: int, what: str, default: str, base_nodes: dict, qtype: str, only=None):
        for t in THRESHOLDS:
            chosen = [n for n in self.sensitive(t) if only is None or self.nodes.get(n) in only]
            per_node = dict(base_nodes)
            per_node.update({n: qtype for n in chosen})
            if self.run(phase, f"{what}, t={t}", self.config(default, per_node)):
                return True
        return False

    def search(self) -> dict:
        gemm = {n: "dual-int16" for n, op in self.nodes.items() if op in GEMM}
        if self.run(1, "all int8", self.config("int8", {})):
            return self.phases[-1]
        if self.run(2, "all int16", self.config("int16", {})):
            all16 = self.phases[-1]
            return self.phases[-1] if self.ladder(3, "int8 + int16", "int8", {}, "int16") else all16
        if self.run(4, "all int16 + dual-int16 GEMM", self.config("int16", gemm)):
            p4 = self.phases[-1]
            ok = self.ladder(5, "int16 + dual-int16", "int16", {}, "dual-int16", GEMM)
            return self.phases[-1] if ok else p4
        if not self.run(6, "all float16", self.config("float16", {})):
            return {}
        p6 = self.phases[-1]
        return self.phases[-1] if self.ladder(7, "phase 4 + float16", "int16", gemm, "float16") else p6


def raised(config: dict) -> int:
    """Nodes the config puts above int8 (the user's float32 entries excluded)."""
    default = config["model_config"].get("all_node_type", "int8")
    entries = {n: e.get("qtype") for n, e in config.get("node_config", {}).items()}
    count = sum(1 for q in entries.values() if q not in ("int8", "float32"))
    if default != "int8":
        raise ValueError("a uniform non-int8 answer raises every node")
    return count


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("evaluator")
    ap.add_argument("base")
    ap.add_argument("sensitivity")
    ap.add_argument("--target", type=float, default=0.99)
    ap.add_argument("--out")
    a = ap.parse_args()
    with open(a.base) as f:
        base = json.load(f)
    with open(a.sensitivity) as f:
        sensitivity = json.load(f)
    spec = importlib.util.spec_from_file_location("evaluator", a.evaluator)
    evaluator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(evaluator)
    with open(os.path.join(evaluator.CACHE, "points.json")) as f:
        nodes = json.load(f)["nodes"]
    proc = Procedure(evaluator, base, sensitivity, a.target, nodes)
    answer = proc.search()
    if not answer:
        sys.exit("hmct_reference.py: unreachable: all float16 fails")
    report = {"phases": [{k: v for k, v in p.items() if k != "config"} for p in proc.phases],
              "answer": {k: v for k, v in answer.items() if k != "config"},
              "raised": raised(answer["config"]) if answer["config"]["model_config"]["all_node_type"] == "int8"
              else len(nodes),
              "config": answer["config"]}
    text = json.dumps(report, indent=1, sort_keys=True) + "\n"
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    print(json.dumps(report["phases"]), file=sys.stderr)
    print(json.dumps({"answer": report["answer"], "raised": report["raised"]}))


if __name__ == "__main__":
    main()
