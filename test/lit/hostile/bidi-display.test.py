# Helper of bidi-display.test: `make DIR` writes the inputs, `check FILE...` checks the outputs.
import os, sys
CHARS = ["\u202e", "\u2066", "\u2069", "\u2028", "\u2029", "\u200f", "\u0085", "\u009b"]
if sys.argv[1] == "make":
    d = sys.argv[2]
    name = "ok" + "".join(CHARS) + "x.qspec"
    with open(os.path.join(d, "spoof.qspec"), "w", encoding="utf-8") as f:
        f.write('qspec 1\ninclude "%s"\ntarget hmct { march nash-p }\n' % name)
    with open(os.path.join(d, "ok.qspec"), "w") as f:
        f.write("qspec 1\ntarget hmct { march nash-p }\n")
    with open(os.path.join(d, "c1.txt"), "w", encoding="utf-8") as f:
        f.write("model.ok Linear\nmodel.a\u0085b Linear\n")
    sys.exit(0)
for path in sys.argv[2:]:
    text = open(path, encoding="utf-8").read()
    raw = [hex(ord(c)) for c in CHARS if c in text]
    escaped = [e for e in ("".join("\\x%02x" % b for b in c.encode()) for c in CHARS) if e in text]
    assert text.strip(), path + " is empty"
    print("%s: %s; escaped: %s" % (os.path.basename(path), "raw " + " ".join(raw) if raw else "no raw spoofing character", " ".join(escaped)))
