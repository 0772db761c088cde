// spec-tier-ladder-order: the `tiers` ladder must go from lowest to highest precision without
// repeats (the frontend's err_ladder_order / err_ladder_duplicate). The safe fix rewrites the
// ladder sorted in canonical order (int4 < int8 < int16 < dual-int16 < fp16 < float), repeats
// dropped; it keeps the same set of tiers, so nothing else changes meaning.
#include "lint/Context.h"

#include <algorithm>

namespace qspec::lint {

namespace {

bool identChar(char c) {
  return isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
}

// Finds the ladder around `offset`: the last `tiers` keyword before it, then `ident (< ident)*`.
bool ladderFix(const LintContext &ctx, uint32_t offset, FixIt &fix) {
  const std::string &t = ctx.sm.text(ctx.file);
  size_t kw = t.rfind("tiers", offset);
  if (kw == std::string::npos)
    return false;
  size_t i = kw + 5;
  auto skip = [&] {
    while (i < t.size() && isspace(static_cast<unsigned char>(t[i])))
      ++i;
  };
  std::vector<ir::Tier> tiers;
  size_t first = 0, last = 0;
  while (true) {
    skip();
    size_t b = i;
    while (i < t.size() && identChar(t[i]))
      ++i;
    if (i == b)
      return false;
    auto tier = ir::parseTier(std::string_view(t).substr(b, i - b));
    if (!tier)
      return false;
    if (tiers.empty())
      first = b;
    last = i;
    tiers.push_back(*tier);
    size_t save = i;
    skip();
    if (i < t.size() && t[i] == '<') {
      ++i;
      continue;
    }
    i = save;
    break;
  }
  if (last < offset)
    return false;
  std::sort(tiers.begin(), tiers.end());
  tiers.erase(std::unique(tiers.begin(), tiers.end()), tiers.end());
  std::string text;
  for (ir::Tier x : tiers)
    text += (text.empty() ? "" : " < ") + std::string(ir::tierName(x));
  fix.range = ctx.sm.range(ctx.file, static_cast<uint32_t>(first), static_cast<uint32_t>(last));
  fix.text = text;
  return true;
}

} // namespace

void checkSpecTierLadderOrder(SpecInput &ctx) {
  size_t before = ctx.findings.size();
  takeCompilerDiags(ctx, RuleID::SpecTierLadderOrder, {"err_ladder_order", "err_ladder_duplicate"});
  bool fixed = false;
  for (size_t i = before; i < ctx.findings.size(); ++i) {
    Diagnostic &d = ctx.findings[i];
    FixIt f;
    // One fix rewrites the whole ladder: attach it to the first finding only.
    if (!fixed && d.range.file == ctx.file && ladderFix(ctx, d.range.begin.offset, f)) {
      d.fixits.push_back(std::move(f));
      fixed = true;
    }
  }
}

} // namespace qspec::lint
