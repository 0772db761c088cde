// The model's own `config.json` (Hugging Face): what it says about the output head and the parts
// of the model, read within bounds (ir/BoundedInput.h). docs/inputs.md, "The model's
// config.json".
#include "frontend/readers/ReaderSupport.h"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace qspec::readers {

using namespace detail;

namespace {

using json = nlohmann::json;

// The norm a config's epsilon key names: transformers spells RMSNorm's `rms_norm_eps` and
// LayerNorm's `layer_norm_eps` / `layer_norm_epsilon` (GPT-2, Falcon, BLOOM) / `layernorm_epsilon`.
std::string normOf(const json &part) {
  if (part.contains("rms_norm_eps"))
    return "RMSNorm";
  for (const char *k : {"layer_norm_eps", "layer_norm_epsilon", "layernorm_epsilon"})
    if (part.contains(k))
      return "LayerNorm";
  return "";
}

bool endsWithText(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// Reads one part (the top level, or a nested `*_config` object). False: `why` names the key of
// the wrong kind.
bool readPart(const std::string &key, const json &v, ir::ModelConfig::Part &part,
              std::string &why) {
  part.key = key;
  if (v.contains("model_type")) {
    if (!v["model_type"].is_string()) {
      why = "\"model_type\" must be a string";
      return false;
    }
    part.modelType = v["model_type"].get<std::string>();
  }
  part.norm = normOf(v);
  return true;
}

// "tie_word_embeddings" of `v`, when it is there. False: not a boolean.
bool readTie(const json &v, std::optional<bool> &out) {
  if (!v.contains("tie_word_embeddings") || v["tie_word_embeddings"].is_null())
    return true;
  if (!v["tie_word_embeddings"].is_boolean())
    return false;
  out = v["tie_word_embeddings"].get<bool>();
  return true;
}

// The fields qspec uses, from a checked JSON object. False: `why` and the key it is about.
bool readFields(const json &doc, ir::ModelConfig &out, std::string &why, std::string &key) {
  if (doc.contains("architectures")) {
    key = "architectures";
    const json &a = doc["architectures"];
    if (!a.is_array() && !a.is_null()) {
      why = "\"architectures\" must be an array of class names";
      return false;
    }
    for (const json &e : a.is_array() ? a : json::array()) {
      if (!e.is_string()) {
        why = "\"architectures\" must be an array of class names";
        return false;
      }
      out.architectures.push_back(e.get<std::string>());
    }
  }
  ir::ModelConfig::Part top;
  key = "model_type";
  if (!readPart("", doc, top, why))
    return false;
  out.parts.push_back(top);
  key = "tie_word_embeddings";
  why = "\"tie_word_embeddings\" must be true or false";
  if (!readTie(doc, out.tieWordEmbeddings))
    return false;
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    if (!it.value().is_object() || !endsWithText(it.key(), "_config"))
      continue;
    key = it.key();
    ir::ModelConfig::Part part;
    if (!readPart(it.key(), it.value(), part, why))
      return false;
    if (!part.modelType.empty() || !part.norm.empty())
      out.parts.push_back(part);
    why = "\"tie_word_embeddings\" must be true or false";
    if (it.key() == "text_config" && !out.tieWordEmbeddings &&
        !readTie(it.value(), out.tieWordEmbeddings))
      return false;
  }
  return true;
}

} // namespace

bool readModelConfig(const std::string &path, ir::ModelConfig &out, DiagnosticEngine &diags,
                     SourceRange requestedAt, const ReaderLimits &limits) {
  SourceRange at = out.range.valid() ? out.range : requestedAt;
  out = ir::ModelConfig{};
  out.range = at;
  bounded::ReadOptions opt;
  opt.maxBytes = limits.maxConfigBytes;
  std::string text;
  if (bounded::Problem p = bounded::readBoundedFile(path, text, opt)) {
    diags.report(DiagID::err_cannot_open_file, at, {path, bounded::reason(p)});
    return false;
  }
  SourceManager &sm = diags.sourceManager();
  FileID file = sm.addFile(path, text);
  QuoteNothingFrom unquoted(sm, file);
  auto bad = [&](size_t offset, const std::string &why) {
    uint32_t o = static_cast<uint32_t>(offset);
    diags.report(DiagID::err_model_config_malformed, sm.range(file, o, o + 1), {path, why});
    return false;
  };
  if (bounded::Problem p = bounded::checkJsonDocument(text))
    return bad(p.offset, p.message);
  json doc = json::parse(text, nullptr, false);
  if (!doc.is_object())
    return bad(locateJson(text, {}).value_or(0), "a config.json is one JSON object");
  std::string why, key;
  if (!readFields(doc, out, why, key)) {
    uint32_t keyAt = locateJson(text, {}).value_or(0);
    for (const JsonMember &m : jsonObjectMembers(text, keyAt))
      if (m.key == key) {
        keyAt = m.keyOffset;
        break;
      }
    return bad(keyAt, why);
  }
  out.path = path;
  return true;
}

std::string configBesideInventory(const ir::Inventory &inv) {
  if (inv.format != "safetensors-index" && inv.format != "safetensors")
    return "";
  std::error_code ec;
  std::filesystem::path p = std::filesystem::path(inv.path).parent_path() / "config.json";
  return std::filesystem::is_regular_file(p, ec) ? p.string() : "";
}

bool readConfigAndTypes(ir::Inventory &inv, ir::ModelConfig &config, DiagnosticEngine &diags,
                        SourceRange inventoryAt, const ReaderLimits &limits) {
  std::string path = config.path.empty() ? configBesideInventory(inv) : config.path;
  if (!path.empty() && !readModelConfig(path, config, diags, inventoryAt, limits))
    return false;
  if (inv.present())
    typeModules(inv, config, diags, inventoryAt);
  return true;
}

} // namespace qspec::readers
