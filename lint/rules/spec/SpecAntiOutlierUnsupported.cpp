// spec-anti-outlier-unsupported: an anti-outlier (suppression) algorithm named in the tune block
// (`anti_outlier`) or in a target block is not one the msModelSlim backend supports. The list
// is the emitter's (msmodelslim::isAntiOutlierProcessor): iter_smooth, flex_smooth_quant,
// flex_awq_ssz, smooth_quant, quarot.
#include "vendors/msmodelslim/MsModelSlimRules.h"
#include "lint/Context.h"

namespace qspec::lint {

namespace {

void checkValue(LintContext &ctx, const std::string &name, SourceRange range) {
  if (msmodelslim::isAntiOutlierProcessor(name))
    return;
  ctx.report(RuleID::SpecAntiOutlierUnsupported, range,
             "anti-outlier algorithm '" + name + "' is not supported; use one of " +
                 msmodelslim::antiOutlierList());
}

// Finds `word` as a whole word inside `range` of the file (the tune block keeps no value ranges).
SourceRange findWord(const LintContext &ctx, const SourceRange &range, const std::string &word, size_t &from) {
  const std::string &t = ctx.sm.text(ctx.file);
  size_t end = std::min<size_t>(range.end.offset, t.size());
  size_t pos = std::max<size_t>(from, range.begin.offset);
  while ((pos = t.find(word, pos)) != std::string::npos && pos < end) {
    auto isWord = [](char c) { return isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.'; };
    bool left = pos == 0 || !isWord(t[pos - 1]);
    bool right = pos + word.size() >= t.size() || !isWord(t[pos + word.size()]);
    if (left && right) {
      from = pos + word.size();
      return ctx.sm.range(ctx.file, static_cast<uint32_t>(pos), static_cast<uint32_t>(pos + word.size()));
    }
    pos += word.size();
  }
  return range;
}

} // namespace

void checkSpecAntiOutlierUnsupported(LintContext &ctx) {
  if (!ctx.specBuilt)
    return;
  const ir::Spec &spec = *ctx.spec;
  if (spec.tune.present) {
    // Start after the `anti_outlier` key so a value equal to another keyword is found right.
    size_t from = spec.tune.range.begin.offset;
    const std::string &t = ctx.sm.text(ctx.file);
    size_t key = t.find("anti_outlier", from);
    if (key != std::string::npos)
      from = key + 12;
    for (const std::string &a : spec.tune.antiOutlier)
      checkValue(ctx, a, findWord(ctx, spec.tune.range, a, from));
  }
  for (const ir::Target &target : spec.targets)
    if (const ir::Option *o = target.option("anti_outlier"))
      for (const ir::Value &v : o->values)
        checkValue(ctx, v.text, v.range);
}

} // namespace qspec::lint
