// Scores dispatch. (Formats: see the sibling files.)
#include "frontend/readers/Readers.h"

namespace qspec::readers {

bool readScores(const std::string &path, ir::Scores &out, DiagnosticEngine &diags,
                SourceRange requestedAt, const ReaderLimits &limits) {
  out = ir::Scores{};
  SourceManager &sm = diags.sourceManager();
  std::string err;
  FileID f = sm.loadFile(path, err, limits.maxFileBytes);
  if (!f) {
    diags.report(DiagID::err_cannot_open_file, requestedAt, {path, err});
    return false;
  }
  diags.report(DiagID::err_scores_unknown_format, requestedAt, {path});
  return false;
}

} // namespace qspec::readers
