// Module types of a safetensors inventory from what the model's config.json implies, and the one
// warning for the modules nothing types (docs/inputs.md, "Module types").
#include "frontend/readers/ReaderSupport.h"

namespace qspec::readers {

using namespace detail;

namespace {

std::string_view leafOf(std::string_view name) {
  size_t dot = name.rfind('.');
  return dot == std::string_view::npos ? name : name.substr(dot + 1);
}

bool hasComponent(std::string_view name, bool (*pred)(std::string_view)) {
  for (size_t start = 0;;) {
    size_t dot = name.find('.', start);
    if (pred(name.substr(start, dot == std::string_view::npos ? dot : dot - start)))
      return true;
    if (dot == std::string_view::npos)
      return false;
    start = dot + 1;
  }
}

// Whether `component` of a module name belongs to the nested config `key` (`text_config` ->
// `text_model`, `language_model`; `vision_config` -> `vision_tower`, `vision_model`, `visual`;
// `audio_config` -> `audio_tower`, ...): it starts with the key's stem.
bool inPart(std::string_view component, std::string_view key) {
  std::string_view stem = key.substr(0, key.size() - (sizeof("_config") - 1));
  if (stem.empty())
    return false;
  if (startsWith(component, stem))
    return true;
  return (stem == "text" && component == "language_model") ||
         (stem == "vision" && component == "visual");
}

// The part of the config a module belongs to: the first nested part one of its components names,
// else the top level, or the text part when the top level names no norm (a VLM's projector).
const ir::ModelConfig::Part &partOf(const ir::ModelConfig &config, std::string_view name) {
  const ir::ModelConfig::Part *text = nullptr;
  for (size_t i = 1; i < config.parts.size(); ++i) {
    const ir::ModelConfig::Part &p = config.parts[i];
    if (p.key == "text_config")
      text = &p;
    for (size_t start = 0;;) {
      size_t dot = name.find('.', start);
      if (inPart(name.substr(start, dot == std::string_view::npos ? dot : dot - start), p.key))
        return p;
      if (dot == std::string_view::npos)
        break;
      start = dot + 1;
    }
  }
  return config.parts.front().norm.empty() && text ? *text : config.parts.front();
}

// GPT-2 and the models built on its code keep `transformers.pytorch_utils.Conv1D` (a weight of
// [in, out], not nn.Linear) for the attention and MLP projections.
bool usesConv1D(const ir::ModelConfig &config, const ir::ModelConfig::Part &part) {
  for (std::string_view t : {"gpt2", "openai-gpt", "imagegpt"})
    if (part.modelType == t)
      return true;
  if (!part.modelType.empty())
    return false;
  for (const std::string &a : config.architectures)
    if (startsWith(a, "GPT2") || startsWith(a, "OpenAIGPT") || startsWith(a, "ImageGPT"))
      return true;
  return false;
}

void typeFromConfig(ir::Module &m, const ir::ModelConfig &config) {
  const ir::ModelConfig::Part &part = partOf(config, m.name);
  std::string_view leaf = leafOf(m.name);
  if (leaf == "c_attn" || leaf == "c_proj" || leaf == "c_fc" || leaf == "q_attn") {
    if (m.type.empty() || m.type == "Linear")
      m.type = usesConv1D(config, part) ? "Conv1D" : "Linear";
  } else if (m.type == "RMSNorm" && !part.norm.empty()) {
    m.type = part.norm;
  } else if ((part.modelType == "granitemoe" || part.modelType == "granitemoeshared") &&
             (leaf == "input_linear" || leaf == "output_linear")) {
    m.type = kFusedExperts; // GraniteMoeParallelExperts: one [experts, out, in] weight
  }
}

bool isExpertComponent(std::string_view component) {
  return component.find("expert") != std::string_view::npos ||
         component.find("moe") != std::string_view::npos;
}

} // namespace

bool detail::namesExperts(std::string_view moduleName) {
  return hasComponent(moduleName, isExpertComponent);
}

void typeModules(ir::Inventory &inv, const ir::ModelConfig &config, DiagnosticEngine &diags,
                 SourceRange at) {
  if (inv.format != "safetensors-index" && inv.format != "safetensors")
    return; // manifests say the type or leave it out on purpose; ONNX has op types
  size_t untyped = 0;
  std::string first;
  for (ir::Module &m : inv.modules) {
    if (config.present() && !config.parts.empty())
      typeFromConfig(m, config);
    if (!m.type.empty())
      continue;
    if (++untyped <= 3)
      first += (first.empty() ? "'" : ", '") + m.name + "'";
  }
  if (untyped == 0)
    return;
  if (untyped > 3)
    first += " and " + std::to_string(untyped - 3) + " more";
  diags.report(
      DiagID::warn_inventory_type_unknown, at,
      {std::to_string(untyped) + (untyped == 1 ? " module" : " modules"), inv.path, first});
}

} // namespace qspec::readers
