#!/usr/bin/python3
"""qspec-lsp latency on a large inventory (a benchmark, not a test: nothing asserts on time).

    bench/lsp/run.py [BUILD_DIR] [--edits 20] [--model deepseek-v3] [--inventory-format manifest|index]

Generates the DeepSeek-V3 inventory (45,337 modules, bench/gen_inventory.py) and uses the
100-pattern spec bench/specs/deepseek-v3.qspec, starts `qspec-lsp --inventory INVENTORY`,
speaks JSON-RPC to it over pipes like an editor does, and measures:
  - first load: didOpen -> publishDiagnostics;
  - re-check: didChange (one override's priority edited, alternating, so every check really
    re-resolves) -> publishDiagnostics, EDITS times;
  - hover on a pattern and completion of a module name right after a change (the first request
    after an edit builds the resolved model), and again without a change.
Prints a Markdown table of median / p90 / max in milliseconds (docs/performance.md).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


class Client:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 1

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def read(self):
        length = 0
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise EOFError("server closed its output")
            line = line.strip()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.p.stdout.read(length))

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            m = self.read()
            if m.get("id") == rid:
                return m

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def diagnostics(self, version):
        while True:
            m = self.read()
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == version:
                return m["params"]["diagnostics"]


SERVER_PID = [0]
CPU = {}  # step -> server CPU milliseconds, one per run


def server_cpu_ms():
    """CPU time the server has used so far (/proc/PID/schedstat: nanoseconds on a CPU)."""
    with open("/proc/%d/schedstat" % SERVER_PID[0]) as f:
        return int(f.read().split()[0]) / 1e6


def timed(fn, step=None):
    c = server_cpu_ms()
    t = time.perf_counter()
    r = fn()
    ms = (time.perf_counter() - t) * 1000
    if step:
        CPU.setdefault(step, []).append(server_cpu_ms() - c)
    return ms, r


def stats(xs):
    xs = sorted(xs)
    p90 = xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]
    return "%.1f | %.1f | %.1f" % (statistics.median(xs), p90, xs[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build", nargs="?", default=os.path.join(ROOT, "build"))
    ap.add_argument("--edits", type=int, default=20)
    ap.add_argument("--model", default="deepseek-v3")
    ap.add_argument("--inventory-format", choices=["manifest", "index"], default="manifest")
    a = ap.parse_args()
    server = os.path.join(a.build, "bin", "qspec-lsp")
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "bench", "gen_inventory.py"), a.model, work],
                       check=True, stdout=subprocess.DEVNULL)
        inv = (os.path.join(work, a.model + ".manifest") if a.inventory_format == "manifest"
               else os.path.join(work, a.model, "model.safetensors.index.json"))
        spec_src = os.path.join(ROOT, "bench", "specs", a.model + ".qspec")
        spec = os.path.join(work, a.model + ".qspec")
        with open(spec_src) as f:
            text = f.read()
        with open(spec, "w") as f:
            f.write(text)
        uri = "file://" + spec
        c = Client([server, "--inventory", inv])
        SERVER_PID[0] = c.p.pid
        c.request("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": {}})
        c.notify("initialized", {})
        first, diags = timed(lambda: (c.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "qspec", "version": 1, "text": text}}), c.diagnostics(1))[1], "open")
        modules = sum(1 for _ in open(inv)) if a.inventory_format == "manifest" else 0
        edits, hovers_after, hovers, completions = [], [], [], []
        line = next(i for i, l in enumerate(text.split("\n")) if "priority 1 {" in l)
        hover_at = {"line": line, "character": text.split("\n")[line].index('"') + 3}
        typed = text + '\nprotect "model.layers.5.mlp.experts.1'
        tl = typed.split("\n")
        complete_at = {"line": len(tl) - 1, "character": len(tl[-1])}
        for i in range(a.edits):
            version = i + 2
            edited = text.replace("priority 1 {", "priority %d {" % (100 + i % 2), 1)
            ms, _ = timed(lambda: (c.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"text": edited}]}), c.diagnostics(version)), "edit")
            edits.append(ms)
            ms, h = timed(lambda: c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": hover_at}),
                          "hover1")
            assert h.get("result"), h
            hovers_after.append(ms)
            ms, _ = timed(lambda: c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": hover_at}),
                          "hover2")
            hovers.append(ms)
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 1000},
                                            "contentChanges": [{"text": typed}]})
        c.diagnostics(1000)
        for _ in range(a.edits):
            ms, r = timed(lambda: c.request("textDocument/completion",
                                            {"textDocument": {"uri": uri}, "position": complete_at}), "complete")
            assert r["result"]["items"], r
            completions.append(ms)
        c.request("shutdown", None)
        c.notify("exit", None)
        c.p.wait()
    print("qspec-lsp, %s, %s inventory%s, spec bench/specs/%s.qspec, %d edits; %d diagnostics on open"
          % (a.model, a.inventory_format, " (%d modules)" % modules if modules else "", a.model, a.edits, len(diags)))
    print()
    cpu = lambda k: "%.1f" % statistics.median(CPU[k])
    print("| step | wall median ms | wall p90 ms | wall max ms | server CPU median ms |")
    print("|---|---|---|---|---|")
    print("| first load (didOpen -> diagnostics) | %.1f | | | %s |" % (first, cpu("open")))
    print("| re-check after an edit (didChange -> diagnostics) | %s | %s |" % (stats(edits), cpu("edit")))
    print("| hover on a pattern, first request after an edit | %s | %s |" % (stats(hovers_after), cpu("hover1")))
    print("| hover on a pattern, model already built | %s | %s |" % (stats(hovers), cpu("hover2")))
    print("| completion of a module name (text does not parse) | %s | %s |" % (stats(completions), cpu("complete")))

main()
