// Fuzz targets: one of qlint's vendor-file readers and the rules behind it, end to end through
// lint::lintFile() (the file kind follows the target's file name: a msModelSlim practice .yaml,
// an AMCT .cfg (protobuf text) or an HMCT quant_config .json). The findings are then printed in
// all four output formats, and the machine-readable ones must parse back: hostile
// names in an input may never break the JSON or SARIF around them, nor reach the terminal raw.
#include "FuzzSupport.h"
#include "Targets.h"

#include "lint/Lint.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <sstream>

using namespace qspec;

namespace {

[[noreturn]] void fail(const char *what, const std::string &text, size_t at) {
  size_t from = at > 120 ? at - 120 : 0;
  std::fprintf(stderr, "lint_fuzzer: %s at byte %zu; context (escaped):\n%s\n", what, at,
               sanitizeForTerminal(std::string_view(text).substr(from, 200)).c_str());
  std::abort();
}

void checkJson(const std::string &text) {
  if (!nlohmann::json::accept(text))
    fail("output does not parse as JSON", text, 0);
}

void checkTerminal(const std::string &text) {
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char u = static_cast<unsigned char>(text[i]);
    if ((u < 0x20 && u != '\n') || u == 0x7f)
      fail("a control byte reached terminal output", text, i);
  }
}

} // namespace

void fuzz::runLint(const uint8_t *data, size_t size, const char *fileName) {
  std::string path = fuzz::TempDir::get().write(fileName, data, size);
  if (path.empty())
    return;
  lint::Options opts;
  opts.useConfig = false; // no .qlint.yaml lookup outside the input
  opts.jobs = 1;
  std::vector<lint::FileResult> results;
  results.push_back(lint::lintFile(path, opts));

  std::ostringstream text, json, sarif, github, stats;
  lint::printJson(json, results);
  if (std::getenv("QSPEC_FUZZ_DEBUG")) // replaying one input by hand: show the findings first
    std::fprintf(stderr, "%s\n", json.str().c_str());
  lint::printText(text, results);
  lint::printSarif(sarif, results);
  lint::printGithub(github, results);
  lint::printStatistics(stats, results);
  checkTerminal(text.str());
  checkTerminal(github.str());
  checkJson(json.str());
  checkJson(sarif.str());

  // Fixes must apply without touching bytes outside the file.
  const lint::FileResult &r = results.front();
  if (r.sm && r.file) {
    unsigned applied = 0;
    std::string fixed = lint::applyFixes(r.sm->text(r.file), r.findings, applied);
    (void)lint::unifiedDiff(path, r.sm->text(r.file), fixed);
  }
}
