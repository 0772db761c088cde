#!/usr/bin/env python3
"""Checks that no C++ source file and no C++ function of the product is too long to read.

    check-size.py SRCROOT

Walks the product folders of SRCROOT (PRODUCT_DIRS; build trees hold the generated grammar and
protobuf code and are not walked) and prints one line per file over MAX_FILE_LINES lines and per
function body over MAX_FUNCTION_LINES lines:

    PATH: N lines (at most 1000)
    PATH:LINE: function NAME: N lines (at most 150)

A function body is a brace block opened at namespace or class level after a parameter list, and
counts the lines from its opening brace to its closing brace. Comments, string and character
literals (raw strings too) and preprocessor lines are blanked before the braces are matched, so a
brace inside them counts for nothing; lambdas and local classes count as part of the function
they are written in. Exits 1 when anything is too long.
"""
import os
import re
import sys

PRODUCT_DIRS = ["support", "ir", "frontend", "passes", "vendors", "emitters", "lint", "driver"]
SKIP_DIRS = {".git", "node_modules", "Inputs", "out", "__pycache__"}
MAX_FILE_LINES = 1000
MAX_FUNCTION_LINES = 150


def sources(root):
    for product in PRODUCT_DIRS:
        for top, dirs, files in os.walk(os.path.join(root, product)):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("build"))
            for name in sorted(files):
                if name.endswith((".cpp", ".h", ".cc", ".hpp", ".inc")):
                    yield os.path.join(top, name)


RAW_STRING = re.compile(r'"([^ ()\\\t\n]{0,16})\(')
RAW_PREFIX = re.compile(r"(?<![A-Za-z0-9_])(u8|u|U|L)?R$")


def blank(text):
    """The text with comments, literals and preprocessor lines replaced by spaces (newlines
    kept, so that offsets and line numbers stay those of the file)."""
    out = list(text)
    n = len(text)
    i = 0
    line_start = True  # only spaces since the last newline

    def wipe(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if c == "\n":
            line_start = True
            i += 1
            continue
        if line_start and c == "#":
            # A preprocessor line, with its backslash continuations (a comment in it is blanked
            # with it: a /* ... */ running past the line is rare enough to ignore).
            j = i
            while j < n and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            wipe(i, min(j, n))
            i = j
            continue
        if not c.isspace():
            line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            wipe(i, j)
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            wipe(i, j)
            i = j
        elif c == '"':
            m = RAW_STRING.match(text, i)
            prefix = RAW_PREFIX.search(text, max(0, i - 3), i)
            if m and prefix:
                end = text.find(")" + m.group(1) + '"', m.end())
                j = n if end < 0 else end + len(m.group(1)) + 2
            else:
                j = i + 1
                while j < n and text[j] != '"' and text[j] != "\n":
                    j += 2 if text[j] == "\\" else 1
                j = min(j + 1, n)
            wipe(i, j)
            i = j
        elif c == "'":
            # A digit separator (1'000'000) is part of a number, not a character literal.
            k = i
            while k > 0 and (text[k - 1].isalnum() or text[k - 1] in "_."):
                k -= 1
            if k < i and text[k].isdigit():
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != "'" and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            wipe(i, j)
            i = j
        else:
            i += 1
    return "".join(out)


TEMPLATE_HEAD = re.compile(r"^\s*template\s*<")
TYPE_HEAD = re.compile(r"^\s*(\[\[[^\]]*\]\]\s*)*(typedef\s+)?(class|struct|union|enum)\b")
NAMESPACE_HEAD = re.compile(r"^\s*((inline\s+)?namespace\b|extern\s*(\"\s*\")?\s*$)")


def strip_template(head):
    """The head without leading template parameter lists (template <class T> ...)."""
    while TEMPLATE_HEAD.match(head):
        depth = 0
        for k in range(head.index("<"), len(head)):
            if head[k] == "<":
                depth += 1
            elif head[k] == ">":
                depth -= 1
                if depth == 0:
                    head = head[k + 1:]
                    break
        else:
            return head
    return head


def classify(head):
    """What a brace opened at namespace or class level after `head` opens."""
    head = re.sub(r"\boperator\s*[^\s(]*", "operator_", head)
    head = strip_template(head)
    if NAMESPACE_HEAD.match(head):
        return "scope"
    if TYPE_HEAD.match(head):
        # enum bodies hold no functions; a class or struct body holds member functions.
        return "data" if re.match(r"^\s*(typedef\s+)?enum\b", head) else "scope"
    depth = 0
    for ch in head:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "=" and depth == 0:
            return "data"  # an initializer (= {...}) or a lambda bound to a variable
    return "function" if ")" in head else "data"


def function_name(head):
    before = head.split("(", 1)[0].split()
    return before[-1] if before else "?"


def long_functions(text):
    """(line, name, length) of every function body over MAX_FUNCTION_LINES lines."""
    code = blank(text)
    found = []
    stack = []  # kinds of the open braces
    head_start = 0
    for i, c in enumerate(code):
        if c not in "{};":
            continue
        at_scope = all(kind == "scope" for kind, _, _ in stack)
        if c == ";":
            if at_scope:
                head_start = i + 1
        elif c == "{":
            if at_scope:
                head = " ".join(code[head_start:i].split())
                head = re.sub(r"^(public|private|protected)\s*:\s*", "", head)
                stack.append((classify(head), i, function_name(head)))
                head_start = i + 1
            else:
                stack.append(("inner", i, ""))
        else:
            if not stack:
                continue  # unbalanced: a brace behind a preprocessor branch
            kind, start, name = stack.pop()
            if kind == "function":
                first = code.count("\n", 0, start) + 1
                last = first + code.count("\n", start, i)
                if last - first + 1 > MAX_FUNCTION_LINES:
                    found.append((first, name, last - first + 1))
            if all(k == "scope" for k, _, _ in stack):
                head_start = i + 1
    return found


def main():
    root = sys.argv[1]
    count = bad_files = bad_functions = 0
    for path in sources(root):
        rel = os.path.relpath(path, root)
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        count += 1
        lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        if lines > MAX_FILE_LINES:
            bad_files += 1
            print(f"{rel}: {lines} lines (at most {MAX_FILE_LINES})")
        for line, name, length in long_functions(text):
            bad_functions += 1
            print(f"{rel}:{line}: function {name}: {length} lines (at most {MAX_FUNCTION_LINES})")
    print(f"{count} files checked, {bad_files} files over {MAX_FILE_LINES} lines, "
          f"{bad_functions} functions over {MAX_FUNCTION_LINES} lines")
    return 1 if bad_files or bad_functions else 0


if __name__ == "__main__":
    sys.exit(main())
