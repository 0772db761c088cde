// The amct backend's registration: what it can express (for the passes), its factory and its
// reader for translation validation. The facts come from vendors/amct (one place for AMCT
// knowledge).
#include "emitters/amct/AmctEmitter.h"
#include "vendors/amct/AmctIntent.h"
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

static amct::ConfigKind kindOf(const ir::Target &target) {
  return target.variant == "qat"  ? amct::ConfigKind::QAT
         : target.variant == "kv" ? amct::ConfigKind::KVCache
                                  : amct::ConfigKind::PTQ;
}

void registerAmctEmitter() {
  ir::TargetInfo info;
  info.kind = "amct";
  info.emitKind = "amct-cfg";
  info.fileExtension = ".cfg";
  info.variants = {"ptq", "qat", "kv"};
  info.defaultVariant = "ptq";
  info.optionKeys = {
      "framework",         "version",       "hardware",           "batch_num",
      "activation_offset", "do_fusion",     "skip_fusion_layers", "fakequant_precision_mode",
      "act_algo",          "weight_algo",   "clip_max",           "clip_min",
      "fixed_min",         "channel_wise",  "dmq_balancer",       "num_of_bins",
      "quant_bits",        "prune",         "search_range_start", "search_range_end",
      "search_step",       "max_percentile"};
  // What AmctWriter::applyRecipeOptions (and, for `prune`, AmctWriter::rulePrune) reads from a
  // rule's `amct { ... }` block.
  info.ruleOptionKeys = {
      "act_algo",         "weight_algo", "channel_wise",   "clip_max",   "clip_min",
      "fixed_min",        "num_of_bins", "dmq_balancer",   "quant_bits", "search_range_start",
      "search_range_end", "search_step", "max_percentile", "prune",      "clip"};
  info.canExpress = [](const ir::Target &target, ir::Tier tier, const std::string &type,
                       std::string &why) {
    // AMCT: int8 (A8W8), int16 activations (A16W8), 4-bit weights (A8W4), float = skip_layers.
    amct::Version v = targetVersion(target);
    // A type AMCT never quantizes in this mode is skipped whatever its tier (the emitter's
    // warn_amct_not_quantizable), so no tier is inexpressible on it.
    amct::ConfigKind kind = kindOf(target);
    if (!type.empty() && !amct::isQuantizableType(type, kind, v))
      return true;
    if (kind == amct::ConfigKind::KVCache && tier != ir::Tier::Int8 && tier != ir::Tier::Float) {
      why = "an AMCT KV-cache config quantizes a Linear's K/V output to INT8 only";
      return false;
    }
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
  // The expected reading (passes/TargetReadingPass.cpp): the types AMCT quantizes in this mode,
  // and what a rule's `amct { ... }` settings mean in the IR's words.
  info.quantizesType = [](const ir::Target &target, const std::string &type) {
    amct::ConfigKind kind = kindOf(target);
    return type.empty() || amct::isQuantizableType(type, kind, targetVersion(target));
  };
  // Such a module a rule gives a tier is skipped with a warning (qcc and qlint, from the pass).
  info.skipWarning = DiagID::warn_amct_not_quantizable;
  info.skipWhat = [](const ir::Target &target) {
    const ir::Option *v = target.option("version");
    std::string version = v && v->values.size() == 1 && amct::parseVersion(v->values[0].text)
                              ? v->values[0].text
                              : "9.2.0";
    return std::string(target.variant == "qat"  ? "QAT "
                       : target.variant == "kv" ? "KV-cache "
                                                : "PTQ ") +
           version;
  };
  // The QAT/PTQ mapping: the algorithm AMCT applies for each role's method.
  info.methodOf = [](const ir::Target &target, const ir::ResolvedModule &rm, bool weight) {
    if (weight && target.variant == "kv")
      return ir::TargetInfo::MethodMapping{}; // no weights in a KV-cache config
    amct::MethodChoice c = amct::methodChoice(target, rm, weight, kindOf(target));
    return ir::TargetInfo::MethodMapping{c.word, c.by ? &c.by->range : nullptr};
  };
  info.ruleOption = [](const ir::Target &target, const ir::Option &setting) {
    static const std::string kPerChannel = "per_channel", kPerTensor = "per_tensor";
    static const std::string kBits[] = {"int1",  "int2",  "int3",  "int4",  "int5",  "int6",
                                        "int7",  "int8",  "int9",  "int10", "int11", "int12",
                                        "int13", "int14", "int15", "int16"};
    ir::TargetInfo::RuleOptionEffect e;
    if (setting.values.size() != 1)
      return e;
    const ir::Value &v = setting.values[0];
    if (setting.key == "channel_wise" && (v.text == "true" || v.text == "false"))
      e.weightScope = v.text == "true" ? &kPerChannel : &kPerTensor;
    // quant_bits is PTQ's ARQ weight width (the emitter refuses it in QAT).
    if (setting.key == "quant_bits" && target.variant != "qat" && v.kind == ir::Value::Number &&
        v.isInteger && v.number >= 1 && v.number <= 16)
      e.weightDtype = &kBits[static_cast<int>(v.number) - 1];
    return e;
  };
  // AMCT for ONNX names layers by ONNX node name and types them by ONNX op type; AMCT for
  // PyTorch by named_modules() name and module class.
  info.names = [](const ir::Target &target) {
    const ir::Option *f = target.option("framework");
    bool onnx = f && f->values.size() == 1 && f->values[0].text == "onnx";
    return onnx ? ir::TargetInfo::Names::OnnxGraph : ir::TargetInfo::Names::Modules;
  };
  registerEmitter(std::move(info), [] { return std::make_unique<AmctEmitter>(); });
  vendors::registerReader("amct", &vendors::readAmct);
}

} // namespace qspec::emit
