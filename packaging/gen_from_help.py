# Man pages and shell completions for qcc, qlint, qtune and qspec-lsp, generated from one source:
# each tool's --help text (so the option lists cannot drift from the tools).
#   gen_from_help.py man TOOL BINARY VERSION OUT.1[.gz]
#   gen_from_help.py bash OUT TOOL=BINARY...
#   gen_from_help.py zsh OUT TOOL=BINARY...
# An option line of --help starts with two spaces and '-': `  -o PATH   description`, its
# description continuing on deeper-indented lines. A description that starts `a | b | c`
# (or `a (...) | b | c`) lists the option's values, which the completions offer. A subcommand's
# own options come from `TOOL SUBCOMMAND --help`. A man page named .gz is written gzip-compressed
# without a name or a time stamp (the same bytes on every build).
import gzip
import re
import subprocess
import sys

SUMMARY = {
    "qcc": "compile a .qspec quantization spec into msModelSlim, AMCT, HMCT and Horizon configs",
    "qlint": "lint .qspec specs and msModelSlim, AMCT and HMCT config files",
    "qtune": "run the accuracy search loop for a .qspec spec",
    "qspec-lsp": "the language server for .qspec files (Language Server Protocol over stdio)",
}
# Subcommands, and whether the first argument may also be a file (qcc SPEC, but qtune SUBCOMMAND).
SUBCOMMANDS = {"qcc": ["fmt", "import"], "qtune": ["run", "status", "report", "apply"]}
FILE_FIRST = {"qcc", "qlint", "qspec-lsp"}


def help_text(binary, *sub):
    return subprocess.run([binary, *sub, "--help"], stdout=subprocess.PIPE, text=True,
                          check=True).stdout


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
              "docs/lint/README.md, docs/driver.md, docs/editors.md."]
    text = ("\n".join(l for l in lines if l != "") + "\n").encode()
    if out.endswith(".gz"):
        with open(out, "wb") as f, gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=0) as z:
            z.write(text)
    else:
        open(out, "wb").write(text)


def option_words(options):
    """(option words, {'--opt=': [values]}) of parsed --help options."""
    words, values_of = [], {}
    for spec, desc in options:
        vals = values(desc)
        for f in flags(spec):
            words.append(f)
            if f.endswith("=") and vals:
                values_of[f] = sorted(vals)
    return sorted(set(words)), values_of


def words_of(binary, tool):
    """(subcommands, global option words, {'--opt=': values}, {subcommand: its option words})."""
    words, values_of = option_words(parse(help_text(binary))[2])
    sub_words = {}
    for sub in SUBCOMMANDS.get(tool, []):
        try:
            sw, sv = option_words(parse(help_text(binary, sub))[2])
        except subprocess.CalledProcessError:
            continue
        sub_words[sub] = sorted(set(sw) | {"--help"})
        for k, v in sv.items():
            values_of.setdefault(k, v)
    return SUBCOMMANDS.get(tool, []), words, values_of, sub_words


def bash(out, pairs):
    lines = ["# bash completion for qcc, qlint, qtune and qspec-lsp (generated from their --help by",
             "# packaging/gen_from_help.py). bash splits `--emit=a` into `--emit`, `=`, `a` when",
             "# COMP_WORDBREAKS holds '=' (the default): the value after '=' is completed on its own;",
             "# without '=' in COMP_WORDBREAKS the whole `--emit=a` word is, with the option as prefix."]
    for tool, binary in pairs:
        subs, words, values_of, sub_words = words_of(binary, tool)
        fn = "_qspec_" + tool.replace("-", "_")
        lines += ["%s() {" % fn,
                  '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="" opt="" pre=""',
                  '  (( COMP_CWORD > 0 )) && prev="${COMP_WORDS[COMP_CWORD-1]}"',
                  '  if [[ "$cur" == "=" ]]; then',
                  '    opt="$prev="; cur=""',
                  '  elif [[ "$prev" == "=" ]] && (( COMP_CWORD > 1 )); then',
                  '    opt="${COMP_WORDS[COMP_CWORD-2]}="',
                  '  elif [[ "$cur" == -*=* ]]; then',
                  '    opt="${cur%%=*}="; pre="$opt"; cur="${cur#*=}"',
                  "  fi",
                  '  if [[ -n "$opt" ]]; then',
                  '    case "$opt" in']
        for opt in sorted(values_of):
            lines.append('      %s) COMPREPLY=($(compgen -P "$pre" -W "%s" -- "$cur")) ;;'
                         % (opt, " ".join(values_of[opt])))
        lines += ['      *) COMPREPLY=($(compgen -P "$pre" -f -- "$cur")) ;;',
                  "    esac", "    return", "  fi"]
        if subs:
            lines += ['  if (( COMP_CWORD == 1 )) && [[ "$cur" != -* ]]; then',
                      '    COMPREPLY=($(compgen -W "%s" -- "$cur"))' % " ".join(subs)]
            if tool in FILE_FIRST:
                lines.append('    COMPREPLY+=($(compgen -f -- "$cur"))')
            lines += ["    return", "  fi"]
        lines.append('  local words="%s"' % " ".join(words))
        if sub_words:
            lines += ['  if (( COMP_CWORD > 1 )); then', '    case "${COMP_WORDS[1]}" in']
            for sub in sorted(sub_words):
                lines.append('      %s) words="%s" ;;' % (sub, " ".join(sub_words[sub])))
            lines += ["    esac", "  fi"]
        lines += ['  if [[ "$cur" == -* ]]; then',
                  '    COMPREPLY=($(compgen -W "$words" -- "$cur"))',
                  '    [[ ${#COMPREPLY[@]} -eq 1 && "${COMPREPLY[0]}" == *= ]] && compopt -o nospace 2>/dev/null',
                  "  else",
                  '    COMPREPLY=($(compgen -f -- "$cur"))',
                  "  fi", "}", "complete -F %s %s" % (fn, tool)]
    open(out, "w").write("\n".join(lines) + "\n")


def zsh(out, pairs):
    tools = [tool for tool, _ in pairs]
    lines = ["#compdef " + " ".join(tools), "# zsh completion (generated from the tools' --help by",
             "# packaging/gen_from_help.py). zsh keeps `--emit=a` one word: the values are offered",
             "# as `--emit=VALUE` words.", "_qspec() {", "  local -a opts subs", "  local files=1",
             "  case $service in"]
    sub_cases = []
    for tool, binary in pairs:
        subs, words, values_of, sub_words = words_of(binary, tool)
        full = []
        for w in words:
            full += [w + v for v in values_of.get(w, [])] or [w]
        lines.append("    %s) opts=(%s); subs=(%s); files=%d ;;"
                     % (tool, " ".join("'%s'" % w for w in full), " ".join(subs),
                        1 if tool in FILE_FIRST else 0))
        for sub in sorted(sub_words):
            sw = []
            for w in sub_words[sub]:
                sw += [w + v for v in values_of.get(w, [])] or [w]
            sub_cases.append("      %s-%s) opts=(%s) ;;" % (tool, sub, " ".join("'%s'" % w for w in sw)))
    lines += ["  esac",
              "  # After a subcommand, its own options.",
              "  if (( CURRENT > 2 && ${#subs} && ${subs[(Ie)${words[2]}]} )); then",
              "    case $service-${words[2]} in"] + sub_cases + ["    esac", "  fi",
              "  if (( CURRENT == 2 && ${#subs} )) && [[ $PREFIX != -* ]]; then",
              "    compadd -- $subs",
              "    (( files )) && _files",
              "    return",
              "  fi",
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
