// hmct-legacy-key-mix: the file mixes legacy entry keys (InputType, OutputType, InputType0,
// InputType1, ON) with the current ones (qtype, input0, input1). Next to qtype, horizon_nn
// silently keeps qtype; across entries the two spellings make the config hard to review. One
// finding per entry that uses legacy keys, pointing at its first legacy key, when the file also
// uses current keys anywhere.
#include "lint/rules/hmct/QuantConfigUtil.h"

namespace qspec::lint {

void checkHmctLegacyKeyMix(QuantConfigInput &ctx) {
  if (!ctx.tree || !ctx.tree->isMap())
    return;
  const LNode *firstNew = nullptr;
  std::vector<std::pair<const LNode *, std::string>> legacy; // first legacy key per entry
  quantconfig::forEachEntry(
      *ctx.tree, [&](const std::string &, const LNode &name, const LNode &entry) {
        const LNode *firstLegacy = nullptr;
        for (const auto &[k, v] : entry.map) {
          if (quantconfig::contains(hmct::kLegacyEntryKeys, k.value)) {
            if (!firstLegacy)
              firstLegacy = &k;
          } else if (quantconfig::contains(hmct::kEntryKeys, k.value) && !firstNew) {
            firstNew = &k;
          }
        }
        if (firstLegacy)
          legacy.emplace_back(firstLegacy, name.value);
      });
  if (!firstNew || legacy.empty())
    return;
  for (const auto &[key, entry] : legacy) {
    std::string repl = key->value == "ON"           ? "qtype (ON is a placement, not a dtype)"
                       : key->value == "InputType0" ? "input0"
                       : key->value == "InputType1" ? "input1"
                                                    : "qtype";
    Diagnostic &d =
        ctx.report(RuleID::HmctLegacyKeyMix, key->range,
                   "legacy key '" + key->value + "' in '" + entry + "' while the file also uses '" +
                       firstNew->value + "'; write " + repl);
    ctx.note(d, firstNew->range, "current key used here");
  }
}

} // namespace qspec::lint
