# Reads a tool's output on stdin; prints "escape" when `error: ` is in clang's bold red,
# "plain" when there is no escape sequence at all, else "other"; then the uncoloured text.
import re
import sys

text = sys.stdin.read()
kind = "escape" if "\x1b[1;31merror: " in text else "plain" if "\x1b" not in text else "other"
print(kind)
sys.stdout.write(re.sub(r"\x1b\[[0-9;]*m", "", text))
