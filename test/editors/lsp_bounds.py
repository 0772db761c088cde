"""Drives qspec-lsp through its bounds and prints what comes back, one line per answer or
notification, then the exit code. Every message is written at once, before the server answers
anything, so what the server sees does not depend on timing.

    lsp_bounds.py QSPEC_LSP MODE DIR

MODE limits: a body over the size limit (skipped and answered with an error), a body of 4 MiB of
`[` (refused before it is parsed), then a normal request: the server still answers.
MODE coalesce: didOpen, then ten didChanges of the same document in a burst, then a request:
one publish for the last version (the burst is checked once).
MODE root / noconfine: initialize with DIR/sub as the workspace root (noconfine: with
{"confine": false}), then open DIR/sub/escape.qspec, which includes ../outside.qspec.
MODE cancel: a request followed by a $/cancelRequest for it (answered -32800), then another.
MODE supersede: didOpen, then a didChange of the same document: the check of version 1 is
abandoned, only version 2 is published.
MODE time / memory / size: a document of about 1 MB with --time-budget-ms=1, --memory-budget-mb=1
or --max-document-bytes=1000: its check publishes one "not checked" diagnostic and a request on it
is answered with an error.
In these modes every message is written with one write() (well under a pipe's 64 KiB), so the
server reads them all before it handles the first.
"""
import json
import os
import subprocess
import sys

server, mode, d = sys.argv[1], sys.argv[2], sys.argv[3]


def frame(body):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    return b"Content-Length: %d\r\n\r\n" % len(data) + data


def request(i, method, params=None):
    return frame({"jsonrpc": "2.0", "id": i, "method": method, "params": params or {}})


def notification(method, params):
    return frame({"jsonrpc": "2.0", "method": method, "params": params})


spec = os.path.join(d, "sub", "escape.qspec") if mode in ("root", "noconfine") else os.path.join(d, "a.qspec")
uri = "file://" + spec
root = os.path.join(d, "sub") if mode in ("root", "noconfine") else d
init = {"capabilities": {}, "rootUri": "file://" + root}
if mode == "noconfine":
    init["initializationOptions"] = {"confine": False}
msgs = [request(1, "initialize", init)]
args = [server]
if mode == "limits":
    msgs.append(frame(b" " * (21 << 20)))
    msgs.append(frame(b"[" * (4 << 20)))
elif mode == "coalesce":
    args.append("--debounce-ms=60000")
    text = open(spec).read()
    msgs.append(notification("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "qspec", "version": 1, "text": text}}))
    for v in range(2, 12):
        msgs.append(notification("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": v},
            "contentChanges": [{"text": text + "\n" * v}]}))
elif mode in ("time", "memory", "size"):
    args.append({"time": "--time-budget-ms=1", "memory": "--memory-budget-mb=1",
                 "size": "--max-document-bytes=1000"}[mode])
    # Long enough that checking it takes more than 1 ms. Its target has an error that only the
    # target checks find: a second publish would show them run past a budget.
    big = open(spec).read() + "".join(
        'override name "model.layers.%d.mlp.down_proj" { tier int16 }\n' % i
        for i in range(2000)) + "target horizon { march nash-e; observer bogus }\n"
    msgs.append(notification("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "qspec", "version": 1, "text": big}}))
else:
    msgs.append(notification("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "qspec", "version": 1, "text": open(spec).read()}}))
if mode == "cancel":
    msgs += [request(2, "textDocument/documentSymbol", {"textDocument": {"uri": uri}}),
             notification("$/cancelRequest", {"id": 2})]
    msgs += [request(4, "textDocument/documentSymbol", {"textDocument": {"uri": uri}}),
             request(3, "shutdown"), notification("exit", {})]
else:
    if mode == "supersede":
        msgs.append(notification("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"text": open(spec).read() + "\n"}]}))
    msgs += [request(2, "textDocument/documentSymbol", {"textDocument": {"uri": uri}}),
             request(3, "shutdown"), notification("exit", {})]
data = b"".join(msgs)
if mode in ("cancel", "supersede"):
    assert len(data) < 60000, len(data)
    child = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    os.write(child.stdin.fileno(), data)  # one write: the server sees every message at once
    stdout, _ = child.communicate(timeout=600)  # closes stdin, then reads everything
    p = subprocess.CompletedProcess(args, child.returncode, stdout)
else:
    p = subprocess.run(args, input=data, capture_output=True, timeout=600)
out = p.stdout
while out:
    head, _, rest = out.partition(b"\r\n\r\n")
    n = int(head.split(b":")[1])
    m = json.loads(rest[:n])
    out = rest[n:]
    if "method" in m:
        ps = m["params"]
        print("publish version=%s diagnostics=%d" % (ps.get("version"), len(ps.get("diagnostics", []))))
        for diag in ps.get("diagnostics", []):
            print("  %s: %s" % (diag.get("code"), diag.get("message")))
    elif "error" in m:
        print("id=%s error=%d %s" % (m["id"], m["error"]["code"], m["error"]["message"]))
    else:
        r = m["result"]
        print("id=%s result=%s" % (m["id"], type(r).__name__ if r is not None else "null"))
print("exit=%d" % p.returncode)
