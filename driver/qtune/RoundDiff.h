// What each round of a run changes, in `qcc diff`'s words: the spec of a probe is the base spec
// with the probe's tuning statements written into its tune block (as `qtune apply` writes them),
// compiled as qcc compiles it and compared (driver/diff/) with the base spec and with the probe
// of the row above.
#pragma once

#include "driver/qtune/State.h"
#include "ir/IR.h"

#include <string>
#include <vector>

namespace qspec::tune {

// The text of the file holding the tune block `t` (`text`) with its tuning state replaced by
// `statements` (stateText with no indent), as `qtune apply` writes it: the `exclude` and `raise`
// statements removed, the `anti_outlier` setting too when `replaceAntiOutlier`, and `statements`,
// indented as the block's statements, in their place.
std::string withTuningState(const std::string &text, const ir::Tune &t,
                            const std::string &statements, bool replaceAntiOutlier);

// One row of the report: the probe's cache key and its anti-outlier choice ("" = the spec's).
struct ReportRow {
  std::string key, antiOutlier;
};

// Two Markdown table cells per row: against the base spec, and against the row above ("-" for
// the first row, and where a side's spec is missing or does not compile).
struct RowChanges {
  std::string base, previous;
};

// The changes of every row of the run in `dir` (`run`: its spec and overrides). The base spec is
// the spec as it is now with its tuning state removed (what every probe's state replaces); a
// probe's statements are DIR/evals/KEY16/tune.qspec. `note` says why cells are "-" ("" when none
// is).
std::vector<RowChanges> roundChanges(const std::string &dir, const SavedRun &run,
                                     const std::vector<ReportRow> &rows, std::string &note);

} // namespace qspec::tune
