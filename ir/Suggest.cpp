// Suggestions for selectors that select nothing; see Suggest.h.
#include "ir/Suggest.h"

#include <vector>

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

namespace {

// The last dotted component of `name`.
std::string_view leaf(std::string_view name) {
  size_t dot = name.rfind('.');
  return dot == std::string_view::npos ? name : name.substr(dot + 1);
}

bool isInputEmbedding(std::string_view name) {
  std::string_view l = leaf(name);
  return l == "embed_tokens" || l == "wte" || l == "word_embeddings" || l == "tok_embeddings" ||
         l == "embed_in";
}

bool isHeadName(std::string_view name) {
  std::string_view l = leaf(name);
  return l == "lm_head" || l == "embed_out";
}

// `lm_head` beside the base model holding `embedding`: the nearest ancestor named `model` or
// `transformer` (an `XForCausalLM` keeps its base model there, next to its head), else beside
// the embedding's parent.
std::string headNameFor(std::string_view embedding) {
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    size_t dot = embedding.find('.', start);
    parts.push_back(embedding.substr(start, dot - start));
    if (dot == std::string_view::npos)
      break;
    start = dot + 1;
  }
  parts.pop_back(); // the embedding itself
  size_t keep = parts.empty() ? 0 : parts.size() - 1;
  for (size_t i = parts.size(); i-- > 0;)
    if (parts[i] == "model" || parts[i] == "transformer") {
      keep = i;
      break;
    }
  std::string out;
  for (size_t i = 0; i < keep; ++i)
    out.append(parts[i]).push_back('.');
  return out + "lm_head";
}

} // namespace

std::optional<OutputHead> outputHead(const Inventory &inv, const ModelConfig &config) {
  OutputHead h;
  const Module *firstHead = nullptr;
  for (const Module &m : inv.modules) {
    if (!h.embedding && isInputEmbedding(m.name))
      h.embedding = &m;
    if (!firstHead && isHeadName(m.name))
      firstHead = &m;
  }
  if (!h.embedding && !firstHead)
    return std::nullopt;
  h.name = h.embedding ? headNameFor(h.embedding->name) : firstHead->name;
  h.module = inv.find(h.name);
  if (!h.module && firstHead) {
    h.module = firstHead;
    h.name = firstHead->name;
  }
  if (h.tied() && config.tieWordEmbeddings == false)
    return std::nullopt; // untied by the config, and no head listed: nothing to decide
  return h;
}

std::optional<std::string> tiedHeadName(const Inventory &inv, const ModelConfig &config) {
  if (!inv.present())
    return std::nullopt;
  std::optional<OutputHead> h = outputHead(inv, config);
  if (!h || !h->tied())
    return std::nullopt;
  return h->name;
}

std::optional<OutputHead> tiedHead(const Inventory &inv, const ModelConfig &config,
                                   std::string_view text) {
  std::string_view head = withoutTensorSuffix(text);
  if (head.size() > 1 && head[0] == '*')
    head.remove_prefix(1);
  if (!(head == "lm_head" || endsWith(head, ".lm_head")) || inv.find(head))
    return std::nullopt;
  std::optional<OutputHead> h = outputHead(inv, config);
  if (!h || !h->tied())
    return std::nullopt;
  return h;
}

} // namespace qspec::ir
