// Fuzz target: the sensitivity-score readers. readScores() chooses the format by content
// (msModelSlim analyze log, analysis_result.yaml, HMCT JSON dict or log table, Horizon table),
// so one target reaches every reader; the seed corpus holds examples of each format.
#include "FuzzSupport.h"
#include "Targets.h"

#include "frontend/readers/Readers.h"

#include <cmath>
#include <cstdlib>
#include <set>

using namespace qspec;

void fuzz::runScores(const uint8_t *data, size_t size, const char *fileName) {
  std::string path = fuzz::TempDir::get().write(fileName, data, size);
  if (path.empty())
    return;
  SourceManager sm;
  DiagnosticEngine diags(sm);
  ir::Scores scores;
  readers::ReaderLimits limits;
  limits.maxFileBytes = 4u << 20;
  limits.maxModules = 100000;
  bool ok = readers::readScores(path, scores, diags, SourceRange{}, limits);
  if (ok) {
    if (diags.hasErrors())
      std::abort();
    std::set<std::string> seen;
    for (const ir::ScoreEntry &e : scores.entries) {
      if (!std::isfinite(e.score))
        std::abort(); // NaN and infinities are rejected (docs/limits.md)
      if (!seen.insert(e.name).second)
        std::abort(); // duplicate names are rejected
    }
  } else if (!diags.hasErrors()) {
    std::abort();
  }
  fuzz::renderAll(diags);
}
