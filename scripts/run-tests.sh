#!/usr/bin/env bash
# Runs every test registered with ctest (gtest units and the lit suite) and prints a summary.
#
#   run-tests.sh BUILD                 the tests of BUILD (the normal build)
#   run-tests.sh --sanitize BUILD      the same, in an ASan+UBSan build: any report fails the test
#                                      that triggered it; tests labelled no-sanitize are skipped
#   run-tests.sh --summary BUILD [SAN_BUILD] [FUZZ_BUILD]
#                                      the wall time of each stage of `make test` (a table, from
#                                      BUILD/stage-times.txt), the ten slowest lit tests, one line
#                                      per test stage, then ctest's summary line of BUILD last
set -uo pipefail

lit_counts() {
  # lit writes its results as JSON next to the suite (-o); ctest hides a passing test's output.
  local results
  results=$(dirname "$1")/test/lit-results.json
  if [ -f "$results" ]; then
    /usr/bin/python3 -c '
import json, sys
tests = json.load(open(sys.argv[1]))["tests"]
bad = {"FAIL", "XPASS", "UNRESOLVED", "TIMEOUT"}
failed = sum(t["code"] in bad for t in tests)
passed = sum(t["code"] in ("PASS", "XFAIL") for t in tests)
skipped = len(tests) - passed - failed
print(f"{passed} passed, {failed} failed, {skipped} skipped")' "$results"
  else
    echo "0 passed, 0 failed (no lit results)"
  fi
}

unit_counts() {
  # A tree whose unit tests run as shards (QSPEC_UNIT_TEST_SHARDS) has one ctest entry per shard;
  # each shard's gtest JSON report (test/unit-shard-K.json) gives the counts of its tests.
  local dir
  dir=$(dirname "$1")/test
  ls "$dir"/unit-shard-*.json >/dev/null 2>&1 || return 0
  /usr/bin/python3 -c '
import json, sys
passed = failed = skipped = 0
for path in sys.argv[1:]:
    for suite in json.load(open(path)).get("testsuites", []):
        for t in suite.get("testsuite", []):
            if t.get("failures"):
                failed += 1
            elif t.get("result") == "SKIPPED":
                skipped += 1
            else:
                passed += 1
print(f"{passed} passed, {failed} failed, {skipped} skipped ({len(sys.argv) - 1} shards)")' "$dir"/unit-shard-*.json
}

ctest_summary() {
  grep -E 'tests passed, [0-9]+ tests failed out of' "$1" | tail -1
}

stage_table() {
  # stage-times.txt (scripts/stage-time.sh): seconds, exit status, name; one line per stage.
  [ -f "$1" ] || return 0
  /usr/bin/python3 -c '
import sys
rows = [l.rstrip("\n").split("\t", 2) for l in open(sys.argv[1]) if l.strip()]
print("| stage | wall time | result |")
print("|---|---:|---|")
for secs, rc, name in rows:
    s = int(secs)
    print("| %s | %d min %02d s | %s |" % (name, s // 60, s % 60, "ok" if rc == "0" else "FAILED (exit %s)" % rc))
total = sum(int(r[0]) for r in rows)
print("| all | %d min %02d s | |" % (total // 60, total % 60))' "$1"
}

slowest_lit() {
  # The ten slowest lit tests of a run (lit-results.json has each test's elapsed time).
  local results
  results=$1/test/lit-results.json
  [ -f "$results" ] || return 0
  /usr/bin/python3 -c '
import json, sys
tests = json.load(open(sys.argv[1]))["tests"]
tests.sort(key=lambda t: -t.get("elapsed", 0))
print("slowest lit tests (%d tests, %.0f s of test time in all):" % (len(tests), sum(t.get("elapsed", 0) for t in tests)))
for t in tests[:10]:
    print("  %6.1f s  %s" % (t.get("elapsed", 0), t["name"].split(" :: ", 1)[-1]))' "$results"
}

if [ "${1:-}" = "--summary" ]; then
  build=$2 san=${3:-} fuzz=${4:-}
  echo "==== make test summary ===="
  stage_table "$build/stage-times.txt"
  slowest_lit "$build"
  if [ -n "$san" ] && [ -f "$san/ctest.log" ]; then
    units=$(unit_counts "$san/ctest.log")
    echo "sanitizer (ASan+UBSan): $(ctest_summary "$san/ctest.log");${units:+ unit $units;} lit $(lit_counts "$san/ctest.log")"
  fi
  if [ -n "$fuzz" ] && [ -f "$fuzz/fuzz/smoke.log" ]; then
    echo "$(tail -1 "$fuzz/fuzz/smoke.log")"
  fi
  echo "lit: $(lit_counts "$build/ctest.log")"
  ctest_summary "$build/ctest.log"
  exit 0
fi

sanitize=0
if [ "${1:-}" = "--sanitize" ]; then
  sanitize=1
  shift
fi
build=${1:-build}
jobs=$(nproc)
cd "$build"
args=(--output-on-failure -j "$jobs")
if [ $sanitize -eq 1 ]; then
  # Zero reports is the bar: halt on the first one, leaks included (LeakSanitizer checks every
  # process but qcc and qlint, whose default turns it off: test/sanitize/OneShotOptions.cpp).
  # abort_on_error makes a report a crash, which `not` in a lit RUN line does not excuse; every
  # report is also written to sanitizer-logs/ so one in a command whose status a test ignores is
  # still caught.
  logs=$PWD/sanitizer-logs
  rm -rf "$logs" && mkdir -p "$logs"
  export ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=1:log_path=$logs/asan}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:abort_on_error=1:log_path=$logs/ubsan}
  args+=(-LE no-sanitize)
  echo "==== tests under ASan+UBSan ($build) ===="
fi
# A shard that dies before writing its report must not be counted from an earlier run's.
rm -f test/unit-shard-*.json
ctest "${args[@]}" 2>&1 | tee ctest.log
rc=${PIPESTATUS[0]}
# The lit suite is one ctest entry (and the unit tests may be a few shards); report their counts.
units=$(unit_counts ctest.log)
[ -z "$units" ] || echo "unit: $units"
echo "lit: $(lit_counts ctest.log)"
if [ $sanitize -eq 1 ]; then
  # LeakSanitizer's exit-time check stops every thread with ptrace; a thread the process has just
  # joined can still be leaving the kernel, and the tracer then writes only "Unable to get
  # registers from thread N" (the leak check itself still runs). That line alone is not a report.
  # Nor is an empty log: once, a lit run left a zero-byte ubsan.PID that no rerun reproduced (the
  # runtime opened the file and wrote nothing). Every report is text; a file without a byte has none.
  for f in $(find "$logs" -type f); do
    if [ ! -s "$f" ]; then
      echo "sanitizer: ignored empty log $f"
      rm -f "$f"
    elif ! grep -qv 'Unable to get registers from thread' "$f"; then
      echo "sanitizer: ignored LeakSanitizer tracer note in $f: $(head -1 "$f")"
      rm -f "$f"
    fi
  done
  reports=$(find "$logs" -type f | sort)
  if [ -n "$reports" ] || grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' ctest.log; then
    echo "sanitizer reports found (also in $logs):" >&2
    for f in $reports; do echo "---- $f" >&2; head -40 "$f" >&2; done
    rc=1
  else
    echo "sanitizer: no reports"
  fi
fi
exit "$rc"
