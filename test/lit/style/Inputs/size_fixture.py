"""Writes a small tree for size.test: files and functions just under and just over the limits
of scripts/check-size.py, with braces in strings, comments and preprocessor lines that must
count for nothing.

    size_fixture.py DIR
"""
import os
import sys

root = sys.argv[1]


def function(name, lines, tricky=False):
    """A function whose body spans `lines` lines, opening brace to closing brace."""
    body = []
    if tricky:
        body += [
            '  const char *open = "{{ \\" {";',
            "  char close = '}';",
            '  const char *raw = R"x(" } ")x";',
            "  // } a brace in a comment",
            "  /* { another",
            "     } */",
            "#define BRACE {",
            "  int n = 1'000'000 + (close == '{');",
            "  auto f = [&] { return [] { return 0; }(); };",
        ]
    body += ["  ;"] * (lines - 3 - len(body))
    return [f"int {name}() {{"] + body + ["  return 0;", "}"]


def write(rel, lines, pad_to=None):
    if pad_to:
        lines = lines + ["// filler"] * (pad_to - len(lines))
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


# Over both limits: 1,001 lines; one function of 151 lines among ones of 150.
write("ir/Long.cpp",
      ["namespace qspec {"] + function("justRight", 150, tricky=True) +
      function("tooLong", 151, tricky=True) +
      ["struct S {", "  int member() {"] + ["    ;"] * 149 + ["  }", "};"] +
      ["}"], pad_to=1001)
# At both limits: 1,000 lines, a function of 150 lines.
write("lint/Limit.cpp",
      ["namespace {"] + function("atTheLimit", 150, tricky=True) + ["}"], pad_to=1000)
# Not a product folder: not checked.
write("test/unit/Big.cpp", function("unchecked", 400), pad_to=2000)
