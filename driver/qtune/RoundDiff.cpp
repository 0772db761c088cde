// What each round of a run changes against the base spec and the round before, for report.md's
// rows; see RoundDiff.h.
//
//  1. The spec is loaded once (frontend only) to find its tune block: the file that holds it, that
//     file's text and the block's ranges.
//  2. The base spec is that file with an empty tuning state, compiled as qcc compiles it (through a
//     SourceManager overlay, so includes, the inventory and the scores are read as they are).
//  3. Each row's spec is the file with the probe's statements (DIR/evals/KEY16/tune.qspec) written
//     in as `qtune apply` writes them, compiled the same way. A row with the key of the row above
//     is that row's spec again.
//  4. driver::diff::compareSides compares each row with the base and with the row above, and
//     renderMarkdownCell writes the cells in `qcc diff --format=markdown`'s words.
#include "driver/qtune/RoundDiff.h"

#include "driver/diff/CompileSide.h"
#include "driver/diff/Render.h"
#include "driver/qtune/Support.h"
#include "frontend/Frontend.h"

#include <filesystem>
#include <map>
#include <memory>
#include <sstream>

namespace qspec::tune {

namespace {

namespace fs = std::filesystem;
namespace diff = driver::diff;
using diff::CompiledSide;

constexpr size_t kMaxGroupsPerCell = 8; // groups shown per cell

// The first line of the first diagnostic of `diags`.
std::string firstError(const DiagnosticEngine &diags) {
  std::ostringstream os;
  diags.printText(os, false);
  std::string text = os.str();
  return text.substr(0, text.find('\n'));
}

// Step 1: where the tuning state goes.
struct TuneSite {
  std::string file, text;
  ir::Tune tune;
};

bool findTuneSite(const SavedRun &run, TuneSite &site, std::string &why) {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  frontend::FrontendOptions fo;
  fo.inventoryOverride = run.inventory;
  fo.scoresOverride = run.scores;
  ir::Spec spec;
  if (!frontend::loadSpec(run.spec, spec, diags, fo)) {
    why = "the spec does not compile now: " + firstError(diags);
    return false;
  }
  if (!spec.tune.present || !spec.tune.range.valid()) {
    why = "the spec has no tune block now";
    return false;
  }
  site.file = sm.path(spec.tune.range.file);
  site.text = sm.text(spec.tune.range.file);
  site.tune = spec.tune;
  return true;
}

// Steps 2 and 3: the spec with `statements` as its tuning state, compiled; null after an error
// (its first line in `why`).
std::unique_ptr<CompiledSide> compileWith(const SavedRun &run, const TuneSite &site,
                                          const std::string &statements, bool antiOutlier,
                                          const std::string &label, std::string &why) {
  auto c = std::make_unique<CompiledSide>();
  auto texts = std::make_shared<std::unordered_map<std::string, std::string>>();
  (*texts)[site.file] = withTuningState(site.text, site.tune, statements, antiOutlier);
  c->sm.setOverlay(texts);
  diff::CompileInputs in;
  in.inventory = run.inventory;
  in.scores = run.scores;
  in.stem = fs::path(run.spec).stem().string();
  if (!diff::compileSide(*c, run.spec, in)) {
    why = label + " does not compile: " + firstError(c->diags);
    return nullptr;
  }
  c->side.label = label;
  return c;
}

// A cache key as state.json holds it (hex digits): its first 16 name the evaluation folder, and
// nothing else from state.json goes into a path.
bool isKey(const std::string &key) {
  return key.size() >= 16 && key.find_first_not_of("0123456789abcdef") == std::string::npos;
}

std::string cell(const diff::Side &before, const diff::Side &after) {
  return diff::renderMarkdownCell(diff::compareSides(before, after), diff::RenderOptions{},
                                  kMaxGroupsPerCell);
}

} // namespace

std::vector<RowChanges> roundChanges(const std::string &dir, const SavedRun &run,
                                     const std::vector<ReportRow> &rows, std::string &note) {
  std::vector<RowChanges> out(rows.size(), RowChanges{"-", "-"});
  TuneSite site;
  if (!findTuneSite(run, site, note))
    return out;
  std::unique_ptr<CompiledSide> base = compileWith(run, site, "", false, "the base spec", note);
  if (!base)
    return out;
  std::unique_ptr<CompiledSide> prev; // the row above's spec
  std::string prevKey;
  std::map<std::string, std::string> baseCells; // by key
  for (size_t i = 0; i < rows.size(); ++i) {
    const ReportRow &row = rows[i];
    if (prev && row.key == prevKey) {
      out[i] = {baseCells[row.key], cell(prev->side, prev->side)};
      continue;
    }
    bool ok = isKey(row.key);
    const std::string eval = "evals/" + row.key.substr(0, 16) + "/tune.qspec";
    std::string text = ok ? readWholeFile((fs::path(dir) / eval).string(), ok) : "", why;
    std::string label = "the spec of row " + std::to_string(i + 1);
    std::unique_ptr<CompiledSide> cur;
    if (!isKey(row.key))
      why = "row " + std::to_string(i + 1) + " has no cache key in state.json";
    else if (!ok)
      why = label + " is gone: no " + eval;
    else
      cur = compileWith(run, site, text, !row.antiOutlier.empty(), label, why);
    if (note.empty())
      note = why;
    if (cur) {
      auto [it, added] = baseCells.emplace(row.key, "");
      if (added)
        it->second = cell(base->side, cur->side);
      out[i].base = it->second;
      if (prev)
        out[i].previous = cell(prev->side, cur->side);
    }
    prev = std::move(cur);
    prevKey = row.key;
  }
  return out;
}

} // namespace qspec::tune
