#!/usr/bin/python3
"""qspec-lsp under a burst of edits (a benchmark, not a test: nothing asserts on time).

    bench/lsp/burst.py [BUILD_DIR] [--edits 10] [--gap-ms 50] [--runs 3] [--model deepseek-v3]

Generates the DeepSeek-V3 inventory (45,337 modules, bench/gen_inventory.py), opens the
100-pattern spec bench/specs/deepseek-v3.qspec in `qspec-lsp --inventory INVENTORY`, then sends
EDITS didChanges GAP_MS apart (one override's priority edited each time, so every version really
differs) and reads every publishDiagnostics until the one for the last version. Prints, per run:
how many publishes the burst gave, and the time from sending the last edit to the last version's
publish; and the time of one isolated check for scale. Markdown for docs/performance.md.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


class Client:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 1
        self.messages = []  # (arrival time, message), filled by the reader thread
        self.cv = threading.Condition()
        threading.Thread(target=self._reader, daemon=True).start()

    def _reader(self):
        while True:
            length = 0
            while True:
                line = self.p.stdout.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            m = json.loads(self.p.stdout.read(length))
            with self.cv:
                self.messages.append((time.perf_counter(), m))
                self.cv.notify_all()

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def wait_for(self, pred):
        with self.cv:
            while True:
                for t, m in self.messages:
                    if pred(m):
                        return t, m
                self.cv.wait()


def publish_of(version):
    return lambda m: (m.get("method") == "textDocument/publishDiagnostics"
                      and m["params"].get("version") == version)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build", nargs="?", default=os.path.join(ROOT, "build"))
    ap.add_argument("--edits", type=int, default=10)
    ap.add_argument("--gap-ms", type=float, default=50)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--model", default="deepseek-v3")
    a = ap.parse_args()
    server = os.path.join(a.build, "bin", "qspec-lsp")
    rows = []
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "bench", "gen_inventory.py"), a.model, work],
                       check=True, stdout=subprocess.DEVNULL)
        inv = os.path.join(work, a.model + ".manifest")
        text = open(os.path.join(ROOT, "bench", "specs", a.model + ".qspec")).read()
        spec = os.path.join(work, a.model + ".qspec")
        open(spec, "w").write(text)
        uri = "file://" + spec
        c = Client([server, "--inventory", inv])
        c.send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"processId": os.getpid(), "rootUri": None, "capabilities": {}}})
        c.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "qspec", "version": 1, "text": text}}})
        c.wait_for(publish_of(1))
        version = 1

        def edit():
            nonlocal version
            version += 1
            edited = text.replace("priority 1 {", "priority %d {" % (100 + version), 1)
            c.send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": edited}]}})
            return time.perf_counter()

        singles = []
        for _ in range(a.runs):
            t0 = edit()
            t1, _ = c.wait_for(publish_of(version))
            singles.append((t1 - t0) * 1000)
        for run in range(a.runs):
            start = len(c.messages)
            first = version + 1
            for i in range(a.edits):
                sent = edit()
                if i + 1 < a.edits:
                    time.sleep(a.gap_ms / 1000)
            t_last, _ = c.wait_for(publish_of(version))
            with c.cv:
                pubs = [m for _, m in c.messages[start:]
                        if m.get("method") == "textDocument/publishDiagnostics"
                        and first <= m["params"].get("version", 0) <= version]
            rows.append((len(pubs), (t_last - sent) * 1000, [m["params"]["version"] - first + 1 for m in pubs]))
        c.send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        c.send({"jsonrpc": "2.0", "method": "exit"})
        c.p.wait()
    print("qspec-lsp, %s (manifest inventory), %d edits %.0f ms apart, %d runs; build %s"
          % (a.model, a.edits, a.gap_ms, a.runs, a.build))
    print()
    print("| run | publishes for the burst | edits published | last edit -> its publish, ms |")
    print("|---|---|---|---|")
    for i, (n, ms, which) in enumerate(rows):
        print("| %d | %d | %s | %.0f |" % (i + 1, n, ", ".join(map(str, which)), ms))
    print()
    print("one isolated check (didChange -> publish), median of %d: %.0f ms" % (a.runs, statistics.median(singles)))


main()
