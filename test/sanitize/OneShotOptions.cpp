// The sanitizer defaults of qcc and qlint in the sanitizer tree (linked there only:
// CMakeLists.txt).
//
// LeakSanitizer's check runs when a process exits: it stops the process and scans its memory,
// the sanitizer runtime's own tables included, about 40 ms per process. The lit suite starts
// thousands of qcc and qlint processes, which end as soon as they have written their output:
// the check was about a quarter of the suite's time under the sanitizers. For those two tools it
// is off by default; AddressSanitizer and UBSan still check every run. Leaks are still looked
// for where they grow: in qtune and qspec-lsp, which live for hours and run the same library
// code round after round, in every unit test, and in the fuzz targets. ASAN_OPTIONS in the
// environment overrides this default (detect_leaks=1 turns the check back on).
extern "C" __attribute__((visibility("default"), used)) const char *__asan_default_options() {
  return "detect_leaks=0";
}
