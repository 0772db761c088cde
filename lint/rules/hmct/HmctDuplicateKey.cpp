// hmct-duplicate-key: a JSON object of the quant_config repeats a key. HMCT reads the file with
// json.loads, which keeps the last value of a repeated key without a word (horizon.md 1.7): a
// node_config entry written twice loses its first setting. Reported at the repeat, with a note
// at the first.
#include "lint/rules/hmct/QuantConfigUtil.h"

#include <map>

namespace qspec::lint {

namespace {

void walkKeys(LintContext &ctx, const LNode &n, const std::string &path) {
  std::map<std::string, const LNode *> first;
  for (const auto &[k, v] : n.map) {
    auto [it, fresh] = first.emplace(k.value, &k);
    if (!fresh) {
      Diagnostic &d = ctx.report(RuleID::HmctDuplicateKey, k.range,
                                 "duplicate key '" + k.value + "' in " + path +
                                     ": json.loads keeps only the last value");
      ctx.note(d, it->second->range, "first written here");
    }
    walkKeys(ctx, v, path + "." + k.value);
  }
  for (const LNode &c : n.seq)
    walkKeys(ctx, c, path + "[]");
}

} // namespace

void checkHmctDuplicateKey(QuantConfigInput &ctx) {
  if (ctx.tree)
    walkKeys(ctx, *ctx.tree, "quant_config");
}

} // namespace qspec::lint
