# Man pages and shell completions for qcc, qlint and qtune, generated from one source: each
# tool's --help text (so the option lists cannot drift from the tools).
#   gen_from_help.py man TOOL BINARY VERSION OUT.1
#   gen_from_help.py bash OUT TOOL=BINARY...
#   gen_from_help.py zsh OUT TOOL=BINARY...
# An option line of --help starts with two spaces and '-': `  -o PATH   description`, its
# description continuing on deeper-indented lines. A description that starts `a | b | c`
# (or `a (...) | b | c`) lists the option's values, which the completions offer.
import re
import subprocess
import sys

SUMMARY = {
    "qcc": "compile a .qspec quantization spec into msModelSlim, AMCT, HMCT and Horizon configs",
    "qlint": "lint .qspec specs and msModelSlim, AMCT and HMCT config files",
    "qtune": "run the accuracy search loop for a .qspec spec",
}
SUBCOMMANDS = {"qtune": ["run", "status", "report", "apply"]}


def help_text(binary):
    return subprocess.run([binary, "--help"], stdout=subprocess.PIPE, text=True, check=True).stdout


def parse(text):
    """Returns (usage lines, prose lines, [(option spec, description)])."""
    usage, prose, options = [], [], []
    for line in text.rstrip("\n").split("\n"):
        m = re.match(r"^  (-\S.*?)(?:\s{2,}(.*))?$", line)
        if m:
            options.append([m.group(1).strip(), (m.group(2) or "").strip()])
        elif options and re.match(r"^\s{6,}\S", line) and not line.strip().startswith("-"):
            options[-1][1] = (options[-1][1] + " " + line.strip()).strip()
        elif line.startswith("usage:") or (usage and not prose and line.startswith("      ")):
            usage.append(line.replace("usage:", "").strip())
        elif line.strip():
            prose.append(line.strip())
    return usage, prose, options


def flags(spec):
    """['--emit=', '-o', ...] from `--emit=KIND` / `-o PATH` / `--version, --help`."""
    out = []
    for part in re.split(r",\s*", spec):
        m = re.match(r"^(-[-\w]*(?:<\w+>)?[\w-]*)(=)?", part.strip())
        if m and "<" not in m.group(1):
            out.append(m.group(1) + ("=" if m.group(2) else ""))
    return out


def values(description):
    if "|" not in description:
        return []
    head = re.sub(r"\([^)]*\)", "", description)
    words = [w.strip() for w in head.split("|")]
    if not all(re.fullmatch(r"[a-z][\w-]*", w.split()[0] if w else "") for w in words if w):
        return []
    return [w.split()[0] for w in words if w]


def roff(text):
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + text if text.startswith((".", "'")) else text


def man(tool, binary, version, out):
    usage, prose, options = parse(help_text(binary))
    lines = ['.TH %s 1 "" "qspec %s" "User Commands"' % (tool.upper(), version), ".SH NAME",
             "%s \\- %s" % (tool, SUMMARY[tool]), ".SH SYNOPSIS"]
    for u in usage:
        lines += [".br", roff(u)]
    if prose:
        lines += [".SH DESCRIPTION"] + [roff(p) for p in prose]
    lines.append(".SH OPTIONS")
    for spec, desc in options:
        lines += [".TP", "\\fB%s\\fR" % roff(spec), roff(desc)]
    lines += [".SH SEE ALSO"] + [", ".join("\\fB%s\\fR(1)" % t for t in sorted(SUMMARY) if t != tool)]
    lines += ["The documentation in the qspec source tree: docs/language.md, docs/diagnostics.md, "
              "docs/lint/README.md, docs/driver.md."]
    open(out, "w").write("\n".join(l for l in lines if l != "") + "\n")


def words_of(binary, tool):
    _, _, options = parse(help_text(binary))
    words = []
    for spec, desc in options:
        fl = flags(spec)
        vals = values(desc)
        for f in fl:
            if f.endswith("=") and vals:
                words += [f + v for v in vals]
            else:
                words.append(f)
    return SUBCOMMANDS.get(tool, []), sorted(set(words))


def bash(out, pairs):
    lines = ["# bash completion for qcc, qlint and qtune (generated from their --help by",
             "# packaging/gen_from_help.py)."]
    for tool, binary in pairs:
        subs, words = words_of(binary, tool)
        fn = "_qspec_" + tool
        lines += ["%s() {" % fn, '  local cur="${COMP_WORDS[COMP_CWORD]}"']
        if subs:
            lines += ['  if [ "$COMP_CWORD" -eq 1 ]; then',
                      '    COMPREPLY=($(compgen -W "%s --help --version" -- "$cur"))' % " ".join(subs),
                      "    return", "  fi"]
        lines += ['  if [[ "$cur" == -* ]]; then',
                  '    COMPREPLY=($(compgen -W "%s" -- "$cur"))' % " ".join(words),
                  '    [[ "${COMPREPLY[0]}" == *= ]] && compopt -o nospace 2>/dev/null',
                  "  else",
                  '    COMPREPLY=($(compgen -f -- "$cur"))',
                  "  fi", "}", "complete -F %s %s" % (fn, tool)]
    open(out, "w").write("\n".join(lines) + "\n")


def zsh(out, pairs):
    lines = ["#compdef qcc qlint qtune", "# zsh completion (generated from the tools' --help by",
             "# packaging/gen_from_help.py).", "_qspec() {", "  local -a opts subs", "  case $service in"]
    for tool, binary in pairs:
        subs, words = words_of(binary, tool)
        lines.append("    %s) opts=(%s); subs=(%s) ;;" % (tool, " ".join("'%s'" % w for w in words),
                                                      " ".join(subs)))
    lines += ["  esac",
              "  if (( CURRENT == 2 && ${#subs} )); then compadd -- $subs; return; fi",
              "  if [[ $PREFIX == -* ]]; then",
              "    compadd -S '' -- ${(M)opts:#*=}",
              "    compadd -- ${opts:#*=}",
              "  else",
              "    _files",
              "  fi", "}", '_qspec "$@"']
    open(out, "w").write("\n".join(lines) + "\n")


def main():
    mode = sys.argv[1]
    if mode == "man":
        man(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
    else:
        pairs = [a.split("=", 1) for a in sys.argv[3:]]
        (bash if mode == "bash" else zsh)(sys.argv[2], pairs)


if __name__ == "__main__":
    main()
