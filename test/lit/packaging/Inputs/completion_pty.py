# completion_pty.py bash|zsh COMPLETION KEYS...: starts an interactive shell (no rc files) on a
# pseudo-terminal, loads the COMPLETION (bash: the script, sourced; zsh: the folder holding the
# `#compdef` file, put first on fpath before compinit), types each KEYS string (Python escapes:
# \t is TAB) and prints what the terminal showed for it, escape sequences removed. After each KEYS
# it types Ctrl-U and an `echo` of a marker, and reads until the marker's output: the line editor
# handles keys in order, so everything the completion printed has arrived by then. Keys are typed
# only once the line editor owns the terminal again (its prompt is shown and the line discipline
# has left canonical mode); typed earlier, the terminal's own line editing would take the TABs and
# the Ctrl-U.
import fcntl
import os
import pty
import re
import select
import struct
import sys
import termios
import time

shell, completion, keys = sys.argv[1], sys.argv[2], sys.argv[3:]
SHELLS = {
    "bash": (["bash", "--norc", "--noprofile", "-i"],
             b"bind 'set bell-style none'; source '%s'; echo READY-$((40+2))\n"),
    "zsh": (["zsh", "-f", "-i"],
            b"fpath=('%s' $fpath); autoload -Uz compinit; compinit -u -D; echo READY-$((40+2))\n"),
}
argv, setup = SHELLS[shell]
binary = "/bin/" + shell
if not os.access(binary, os.X_OK):
    sys.exit("%s is not installed: `scripts/setup-deps.sh test` (run by `make test`) installs it" % shell)
pid, fd = pty.fork()
if pid == 0:
    env = {"PATH": "/usr/bin:/bin", "TERM": "dumb", "HOME": "/nonexistent", "PS1": "$ ",
           "INPUTRC": "/dev/null", "LC_ALL": "C.UTF-8"}
    os.execve(binary, argv, env)
# 400 columns: every `qcc --emit=` kind lists on one row.
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 400, 0, 0))
buf = b""


def read_until(marker, limit=600):
    global buf
    while marker not in buf:
        ready, _, _ = select.select([fd], [], [], limit)
        if not ready:
            sys.exit("no %r from %s; the terminal showed:\n%s" % (marker, shell, buf.decode(errors="replace")))
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            chunk = b""
        if not chunk:
            sys.exit("%s ended; the terminal showed:\n%s" % (shell, buf.decode(errors="replace")))
        buf += chunk
    head, _, buf = buf.partition(marker)
    return head


def wait_for_line_editor():
    read_until(b"$ ")
    deadline = time.monotonic() + 600
    while termios.tcgetattr(fd)[3] & termios.ICANON:
        if time.monotonic() > deadline:
            sys.exit("the terminal stayed in canonical mode after the prompt")
        time.sleep(0.01)


def clean(b):
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\x07", "", b.decode(errors="replace"))
    # zsh redraws the line after Ctrl-U from a carriage return: each redraw is a line of its own.
    # bash's carriage returns only end lines.
    text = text.replace("\r", "\n" if shell == "zsh" else "")
    return "\n".join(l.rstrip() for l in text.split("\n") if l.strip())


os.write(fd, setup % completion.encode())
read_until(b"READY-42")
for n, k in enumerate(keys):
    wait_for_line_editor()
    os.write(fd, k.encode().decode("unicode_escape").encode() + b"\x15echo DONE-$((%d+1000))\n" % n)
    shown = read_until(b"DONE-%d" % (n + 1000))
    print("---- %r" % k)
    print(clean(shown))
os.write(fd, b"exit\n")
os.waitpid(pid, 0)
