# Loads a practice with SafeLoader and lists which Linear modules each linear_quant selects, with
# msModelSlim's include/exclude rules (fnmatch-style globs with brace ranges, exclude wins).
import re, sys, yaml

def glob_to_re(p):
    out, i = "", 0
    while i < len(p):
        c = p[i]
        if c == "\\" and i + 1 < len(p):
            out += re.escape(p[i + 1]); i += 2; continue
        if c == "*":
            out += ".*"
        elif c == "?":
            out += "."
        elif c == "{":
            j = p.index("}", i)
            body = p[i + 1:j]
            m = re.fullmatch(r"(\d+)\.\.(\d+)", body)
            alts = [str(k) for k in range(int(m.group(1)), int(m.group(2)) + 1)] if m else body.split(",")
            out += "(?:" + "|".join(re.escape(a) for a in alts) + ")"
            i = j
        else:
            out += re.escape(c)
        i += 1
    return re.compile(out + r"\Z")

def sel(pats, name):
    return any(p == name or glob_to_re(p).match(name) for p in pats)

doc = yaml.load(open(sys.argv[1]), Loader=yaml.SafeLoader)
print("apiversion", doc["apiversion"])
lqs = [p for p in doc["spec"]["process"] if p["type"] == "linear_quant"]
for lq in lqs:
    for role in lq["qconfig"].values():
        assert isinstance(role["symmetric"], bool) and isinstance(role["dtype"], str)
assert isinstance(doc["metadata"]["label"], dict)
assert isinstance(doc["spec"]["save"][0]["part_file_size"], int)
print("types ok")
print("entries", len(lqs))
names = [l.split()[0] for l in open(sys.argv[2]) if l.strip() and not l.startswith("#") and l.split()[1] == "Linear"]
count = {}
for n in sorted(names):
    hits = [lq["qconfig"]["weight"]["dtype"] for lq in lqs if sel(lq["include"], n) and not sel(lq["exclude"], n)]
    assert len(hits) == 1, (n, hits)
    if hits[0] == "int4":
        print("int4", n)
    count[hits[0]] = count.get(hits[0], 0) + 1
print("int8 count", count["int8"])
