"""Hovers over a rule's selector in a buffer that differs from the file saved on disk, and prints
the hover's text: how many modules' tier the rule decides in the buffer and in the saved file.

    lsp_hover_saved.py QSPEC_LSP SPEC LINE CHARACTER BUFFER_TEXT_FILE
"""
import json
import subprocess
import sys

server, spec, line, char, buffer_file = sys.argv[1:6]
uri = "file://" + spec
text = open(buffer_file).read()


def frame(body):
    data = json.dumps(body).encode()
    return b"Content-Length: %d\r\n\r\n" % len(data) + data


msgs = [
    frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
    frame({"jsonrpc": "2.0", "method": "textDocument/didOpen",
           "params": {"textDocument": {"uri": uri, "languageId": "qspec", "version": 1, "text": text}}}),
    frame({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
           "params": {"textDocument": {"uri": uri},
                      "position": {"line": int(line), "character": int(char)}}}),
    frame({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}),
    frame({"jsonrpc": "2.0", "method": "exit"}),
]
p = subprocess.run([server], input=b"".join(msgs), capture_output=True, timeout=600)
out = p.stdout
while out:
    head, _, rest = out.partition(b"\r\n\r\n")
    n = int(head.split(b":")[1])
    m = json.loads(rest[:n])
    out = rest[n:]
    if m.get("id") == 2:
        r = m.get("result")
        print(r["contents"]["value"] if r else "no hover")
print("exit=%d" % p.returncode)
