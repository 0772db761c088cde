"""Sends raw, partly malformed JSON-RPC messages to qspec-lsp and prints what comes back:
one line per answer (`id=N error=CODE` or `id=N result=TYPE`) or notification, then the exit
code. For the robustness test; a crash shows as a missing answer and a signal exit code.

    lsp_raw.py QSPEC_LSP SPEC
"""
import json
import subprocess
import sys

server, spec = sys.argv[1], sys.argv[2]
uri = "file://" + spec


def frame(body):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    return b"Content-Length: %d\r\n\r\n" % len(data) + data


msgs = [
    frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
    frame(b"{not json"),
    frame({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {"textDocument": 7}}),
    frame({"jsonrpc": "2.0", "method": "textDocument/didOpen",
           "params": {"textDocument": {"uri": uri, "languageId": "qspec", "version": 1, "text": 42}}}),
    frame({"jsonrpc": "2.0", "method": "textDocument/didOpen",
           "params": {"textDocument": {"uri": uri, "languageId": "qspec", "version": 1,
                                       "text": "protect \"a\x01\" {{{ \xff"}}}),
    frame({"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover",
           "params": {"textDocument": {"uri": uri}, "position": {"line": 9999, "character": -5}}}),
    frame({"jsonrpc": "2.0", "id": 4, "method": "textDocument/completion",
           "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 10}}}),
    frame({"jsonrpc": "2.0", "id": 5, "method": "textDocument/formatting",
           "params": {"textDocument": {"uri": uri}, "options": {}}}),
    frame({"jsonrpc": "2.0", "id": 6, "method": "no/such/method", "params": {}}),
    frame({"jsonrpc": "2.0", "id": 7, "method": "textDocument/codeAction",
           "params": {"textDocument": {"uri": uri}, "range": "everywhere"}}),
    frame({"jsonrpc": "2.0", "id": 8, "method": "shutdown"}),
    frame({"jsonrpc": "2.0", "id": 9, "method": "textDocument/hover", "params": {}}),
    frame({"jsonrpc": "2.0", "method": "exit"}),
]
p = subprocess.run([server], input=b"".join(msgs), capture_output=True, timeout=600)
out = p.stdout
while out:
    head, _, rest = out.partition(b"\r\n\r\n")
    n = int(head.split(b":")[1])
    m = json.loads(rest[:n])
    out = rest[n:]
    if "method" in m:
        print("notification %s diagnostics=%d" % (m["method"], len(m["params"].get("diagnostics", []))))
        for d in m["params"].get("diagnostics", []):
            print("  %s" % d.get("code"))
    elif "error" in m:
        print("id=%s error=%d" % (m["id"], m["error"]["code"]))
    else:
        r = m["result"]
        print("id=%s result=%s" % (m["id"], type(r).__name__ if r is not None else "null"))
print("exit=%d" % p.returncode)
