# lsp_initialize.py SERVER: sends an LSP initialize request, then shutdown and exit, to SERVER over
# stdio and prints what the initialize result says about the server.
import json
import subprocess
import sys


def frame(msg):
    body = json.dumps(msg).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


msgs = [{"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": None, "capabilities": {}}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"}]
out = subprocess.run([sys.argv[1]], input=b"".join(frame(m) for m in msgs), stdout=subprocess.PIPE,
                     check=True, timeout=600).stdout
replies = []
while out:
    head, _, rest = out.partition(b"\r\n\r\n")
    n = int(head.split(b":")[1])
    replies.append(json.loads(rest[:n]))
    out = rest[n:]
init = next(r for r in replies if r.get("id") == 1)["result"]
print("initialize: serverInfo %s, hoverProvider %s"
      % (init["serverInfo"]["name"], init["capabilities"].get("hoverProvider")))
