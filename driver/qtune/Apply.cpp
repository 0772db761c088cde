// qtune apply: writes the best tuning state of a run into the spec's tune block.
//
// The edit goes through the parser's source ranges: the frontend records where every `exclude`
// and `raise` statement and the `anti_outlier` setting are written (ir::Tune::stateStatements,
// antiOutlierStatement, each with its ';'). Those spans are removed (with a `// qtune:` comment
// that follows one on its line, and the whole line when nothing else is left on it), and the new
// statements go where the first one was, else before the block's closing brace. No byte outside
// those spans changes. The edited spec is parsed again; if it does not parse, the original is
// put back.
#include "driver/qtune/Driver.h"

#include "driver/qtune/RoundDiff.h"
#include "driver/qtune/Space.h"
#include "driver/qtune/State.h"
#include "emitters/Emitter.h"
#include "frontend/Frontend.h"

#include <algorithm>
#include <iostream>

namespace qspec::tune {

namespace {

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

size_t lineStart(const std::string &text, size_t pos) {
  size_t nl = pos == 0 ? std::string::npos : text.rfind('\n', pos - 1);
  return nl == std::string::npos ? 0 : nl + 1;
}

size_t lineEnd(const std::string &text, size_t pos) {
  size_t nl = text.find('\n', pos);
  return nl == std::string::npos ? text.size() : nl;
}

bool onlyBlanks(const std::string &text, size_t b, size_t e) {
  for (size_t i = b; i < e; ++i)
    if (!isBlank(text[i]))
      return false;
  return true;
}

// A statement's span, widened by a `// qtune:` comment that follows it on its line.
TextSpan withQtuneComment(const std::string &text, TextSpan s) {
  size_t i = s.end;
  while (i < text.size() && isBlank(text[i]))
    ++i;
  if (text.compare(i, 9, "// qtune:") == 0)
    s.end = lineEnd(text, i);
  return s;
}

} // namespace

std::string rewriteTuneStatements(const std::string &text, std::vector<TextSpan> spans,
                                  size_t closeBrace, const std::string &statements,
                                  size_t *insertedAt) {
  for (TextSpan &s : spans)
    s = withQtuneComment(text, s);
  std::sort(spans.begin(), spans.end(),
            [](const TextSpan &a, const TextSpan &b) { return a.begin < b.begin; });
  // Merge spans separated by blanks only (two statements on one line).
  std::vector<TextSpan> merged;
  for (const TextSpan &s : spans) {
    if (!merged.empty() && onlyBlanks(text, merged.back().end, s.begin))
      merged.back().end = std::max(merged.back().end, s.end);
    else
      merged.push_back(s);
  }
  // A span that leaves its line blank takes the whole line.
  bool firstWholeLine = false;
  for (size_t k = 0; k < merged.size(); ++k) {
    TextSpan &s = merged[k];
    size_t ls = lineStart(text, s.begin), le = lineEnd(text, s.end);
    if (onlyBlanks(text, ls, s.begin) && onlyBlanks(text, s.end, le)) {
      s = {ls, le < text.size() ? le + 1 : le};
      firstWholeLine = firstWholeLine || k == 0;
    }
  }
  // Where the new statements go.
  size_t at;
  std::string insert = statements;
  if (!merged.empty() && firstWholeLine) {
    at = merged.front().begin;
  } else if (onlyBlanks(text, lineStart(text, closeBrace), closeBrace)) {
    at = lineStart(text, closeBrace);
  } else {
    at = closeBrace;
    if (!insert.empty())
      insert = "\n" + insert;
  }
  std::string out;
  size_t pos = 0, inserted = std::string::npos;
  auto place = [&](size_t upTo) {
    if (inserted == std::string::npos && at <= upTo) {
      out.append(text, pos, at - pos);
      pos = at;
      inserted = out.size();
      out += insert;
    }
  };
  for (const TextSpan &s : merged) {
    place(s.begin);
    out.append(text, pos, s.begin - pos);
    pos = s.end;
  }
  place(text.size());
  out.append(text, pos, std::string::npos);
  if (insertedAt)
    *insertedAt = inserted;
  return out;
}

std::string statementIndent(const std::string &text, size_t statementBegin) {
  size_t ls = lineStart(text, statementBegin);
  if (statementBegin > ls && onlyBlanks(text, ls, statementBegin))
    return text.substr(ls, statementBegin - ls);
  return "  ";
}

std::string withTuningState(const std::string &text, const ir::Tune &t,
                            const std::string &statements, bool replaceAntiOutlier) {
  std::vector<TextSpan> spans;
  for (const SourceRange &r : t.stateStatements)
    spans.push_back({r.begin.offset, r.end.offset});
  if (t.antiOutlierStatement.valid() && replaceAntiOutlier)
    spans.push_back({t.antiOutlierStatement.begin.offset, t.antiOutlierStatement.end.offset});
  size_t firstStatement = t.metricRange.valid() ? t.metricRange.begin.offset : t.range.begin.offset;
  std::string indent = statementIndent(text, firstStatement), indented;
  // The statements come unindented (stateText with ""): each line takes the block's indent.
  for (size_t at = 0; at < statements.size();) {
    size_t nl = statements.find('\n', at);
    size_t end = nl == std::string::npos ? statements.size() : nl + 1;
    indented += indent + statements.substr(at, end - at);
    at = end;
  }
  return rewriteTuneStatements(text, spans, t.range.end.offset - 1, indented);
}

namespace {

int applyError(DiagnosticEngine &diags) {
  diags.printText(std::cerr);
  return 1;
}

} // namespace

int applyCommand(const std::string &dir) {
  emit::registerAllEmitters();
  SourceManager sm;
  DiagnosticEngine diags(sm);
  SavedRun run;
  if (!readSavedRun(dir, run)) {
    diags.report(DiagID::err_tune_no_run, SourceRange{}, {dir});
    return applyError(diags);
  }
  if (!run.best) {
    diags.report(DiagID::err_tune_no_best, SourceRange{}, {dir});
    return applyError(diags);
  }
  const TuningState &state = *run.best;
  frontend::FrontendOptions fo;
  fo.inventoryOverride = run.inventory;
  fo.scoresOverride = run.scores;
  ir::Spec spec;
  if (!frontend::loadSpec(run.spec, spec, diags, fo))
    return applyError(diags);
  if (!spec.tune.present || !spec.tune.range.valid()) {
    diags.report(DiagID::err_tune_no_tune_block, SourceRange{}, {run.spec});
    return applyError(diags);
  }
  const ir::Tune &t = spec.tune;
  std::string file = sm.path(t.range.file);
  const std::string &text = sm.text(t.range.file);
  std::string updated =
      withTuningState(text, t, stateText(state, "", spec.inventory), !state.antiOutlier.empty());
  if (updated == text) {
    std::cout << "qtune: " << file << " already holds the best tuning state\n";
    return 0;
  }
  std::string err;
  if (!emit::writeFileAtomically(file, updated, err)) {
    diags.report(DiagID::err_cannot_write_output, SourceRange{}, {file, err});
    return applyError(diags);
  }
  // The edit must leave a valid spec; put the original back otherwise.
  SourceManager sm2;
  DiagnosticEngine check(sm2);
  ir::Spec again;
  if (!frontend::loadSpec(run.spec, again, check, fo)) {
    emit::writeFileAtomically(file, text, err);
    check.printText(std::cerr);
    std::cerr << "qtune: error: the rewritten spec did not parse; '" << file
              << "' was left unchanged\n";
    return 2;
  }
  size_t raises = 0;
  std::vector<ir::Tier> tiers;
  for (const auto &r : state.raises)
    if (std::find(tiers.begin(), tiers.end(), r.tier) == tiers.end())
      tiers.push_back(r.tier);
  raises = tiers.size();
  std::cout << "qtune: updated " << file << ": " << (state.excludes.empty() ? 0 : 1)
            << " exclude and " << raises << " raise statements (" << state.units << " units, "
            << state.modules << " modules)"
            << (state.antiOutlier.empty() ? "" : ", anti_outlier " + state.antiOutlier) << "\n";
  return 0;
}

} // namespace qspec::tune
