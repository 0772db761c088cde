// Suggestions for selectors that select nothing; see Suggest.h.
#include "ir/Suggest.h"

namespace qspec::ir {

namespace {

// `text` without a trailing tensor suffix, or `text` itself.
std::string_view withoutTensorSuffix(std::string_view text) {
  for (std::string_view suffix : {".weight", ".bias", ".weight_scale", ".qweight", ".scales"})
    if (text.size() > suffix.size() && text.substr(text.size() - suffix.size()) == suffix)
      return text.substr(0, text.size() - suffix.size());
  return text;
}

bool endsWith(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

} // namespace

const Module *suggestModule(const Inventory &inv, std::string_view text) {
  std::string_view bare = withoutTensorSuffix(text);
  if (bare != text)
    if (const Module *m = inv.find(bare))
      return m;
  size_t glob = text.find_first_of("*?[{\\");
  std::string_view prefix = text.substr(0, glob == std::string_view::npos ? text.size() : glob);
  const Module *best = nullptr;
  size_t bestShared = 0;
  for (const Module &m : inv.modules) {
    size_t k = 0;
    while (k < m.name.size() && k < prefix.size() && m.name[k] == prefix[k])
      ++k;
    if (k > bestShared) {
      best = &m;
      bestShared = k;
    }
  }
  return best && bestShared * 2 >= prefix.size() && bestShared > 0 ? best : nullptr;
}

const Module *tiedEmbedding(const Inventory &inv, std::string_view text) {
  std::string_view head = withoutTensorSuffix(text);
  if (head.size() > 1 && head[0] == '*')
    head.remove_prefix(1);
  if (!(head == "lm_head" || endsWith(head, ".lm_head")) || inv.find(head))
    return nullptr;
  for (const Module &m : inv.modules)
    if (endsWith(m.name, "lm_head"))
      return nullptr;
  for (const Module &m : inv.modules)
    if (m.name == "embed_tokens" || endsWith(m.name, ".embed_tokens"))
      return &m;
  return nullptr;
}

} // namespace qspec::ir
