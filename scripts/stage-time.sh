#!/usr/bin/env bash
# Runs a command and appends one line to FILE: its wall time in seconds, its exit status and the
# stage's name, tab-separated (`make test` times each stage; run-tests.sh --summary prints them).
#   stage-time.sh FILE NAME COMMAND...
set -u
file=$1 name=$2
shift 2
start=$(date +%s%N)
"$@"
rc=$?
end=$(date +%s%N)
mkdir -p "$(dirname "$file")"
printf '%d\t%d\t%s\n' $(((end - start + 500000000) / 1000000000)) "$rc" "$name" >>"$file"
exit "$rc"
