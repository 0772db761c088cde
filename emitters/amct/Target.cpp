// The amct backend's registration: what it can express (for the passes), its factory and its
// reader for translation validation. The facts come from vendors/amct (one place for AMCT
// knowledge).
#include "emitters/amct/AmctEmitter.h"
#include "vendors/amct/AmctReader.h"
#include "vendors/amct/AmctRules.h"

namespace qspec::emit {

static amct::Version targetVersion(const ir::Target &target) {
  const ir::Option *v = target.option("version");
  if (v && !v->values.empty())
    if (auto parsed = amct::parseVersion(v->values[0].text))
      return *parsed;
  return amct::Version{};
}

void registerAmctEmitter() {
  ir::TargetInfo info;
  info.kind = "amct";
  info.emitKind = "amct-cfg";
  info.fileExtension = ".cfg";
  info.variants = {"ptq", "qat"};
  info.defaultVariant = "ptq";
  info.optionKeys = {
      "framework",         "version",      "hardware",           "batch_num",
      "activation_offset", "do_fusion",    "skip_fusion_layers", "fakequant_precision_mode",
      "act_algo",          "weight_algo",  "clip_max",           "clip_min",
      "fixed_min",         "channel_wise", "dmq_balancer",       "num_of_bins",
      "quant_bits",        "prune"};
  // What AmctWriter::applyRecipeOptions reads from a rule's `amct { ... }` block.
  info.ruleOptionKeys = {"act_algo",  "weight_algo", "channel_wise", "clip_max",  "clip_min",
                         "fixed_min", "num_of_bins", "dmq_balancer", "quant_bits"};
  info.canExpress = [](const ir::Target &target, ir::Tier tier, const std::string &type,
                       std::string &why) {
    // AMCT: int8 (A8W8), int16 activations (A16W8), 4-bit weights (A8W4), float = skip_layers.
    amct::Version v = targetVersion(target);
    // A type AMCT never quantizes in this mode is skipped whatever its tier (the emitter's
    // warn_amct_not_quantizable), so no tier is inexpressible on it.
    amct::ConfigKind kind = target.variant == "qat" ? amct::ConfigKind::QAT : amct::ConfigKind::PTQ;
    if (!type.empty() && !amct::isQuantizableType(type, kind, v))
      return true;
    switch (tier) {
    case ir::Tier::Int8:
    case ir::Tier::Float:
      return true;
    case ir::Tier::Int4:
      if (target.variant == "qat" && !v.atLeast(9, 2)) {
        why = "AMCT QAT before 9.2 has no INT4 weights: 'Int4 quantization aware training is not "
              "supported.'";
        return false;
      }
      return true;
    case ir::Tier::Int16:
      if (target.variant != "qat" && !v.atLeast(9, 1)) {
        why = "AMCT 9.0.0 PTQ has no INT16 activations";
        return false;
      }
      if (type.empty() || amct::isInt16Type(type, v))
        return true;
      why = "AMCT: 'int16_quantizable not support for " + type + " type'";
      return false;
    default:
      why = "AMCT has no dual-int16 or fp16 quantization";
      return false;
    }
  };
  registerEmitter(std::move(info), [] { return std::make_unique<AmctEmitter>(); });
  vendors::registerReader("amct", &vendors::readAmct);
}

} // namespace qspec::emit
