// The msmodelslim backend's registration: what it can express (for the passes) and its factory.
#include "emitters/msmodelslim/MsModelSlimEmitter.h"
#include "vendors/msmodelslim/MsModelSlimReader.h"

namespace qspec::emit {

void registerMsModelSlimEmitter() {
  ir::TargetInfo info;
  info.kind = "msmodelslim";
  info.emitKind = "msmodelslim-yaml";
  info.fileExtension = ".yaml";
  info.optionKeys = {"apiversion",
                     "config_id",
                     "score",
                     "label",
                     "verified_model_types",
                     "save",
                     "part_file_size",
                     "dataset",
                     "runner",
                     "anti_outlier",
                     "default_text",
                     "include",
                     "verified_tags",
                     "attention_quant",
                     "anti_dataset",
                     "disable_anti_names",
                     "use_kvcache_quant",
                     "autoround_quant",
                     "float_sparse",
                     "prior",
                     "co_sparse",
                     "is_lowbit",
                     "use_sigma",
                     "sigma_factor",
                     "fraction",
                     "pr",
                     "mix_cfg",
                     "multimodal_sd_config"};
  info.canExpress = [](const ir::Target &target, ir::Tier tier, const std::string &type,
                       std::string &why) {
    // msModelSlim quantizes nn.Linear only; other types are outside its scope. It has no int16
    // activations, no dual-int16 and no fp16 tier: a fallback is "float" (an exclude).
    if (!type.empty() && type != "Linear")
      return true;
    if (tier == ir::Tier::Int4 || tier == ir::Tier::Int8 || tier == ir::Tier::Float)
      return true;
    why = "msModelSlim has only int4/int8 quantization and float (exclude)";
    return false;
  };
  // The expected reading (passes/TargetReadingPass.cpp): the target's `include` narrows the
  // modules it quantizes, and linear_quant quantizes nn.Linear only.
  info.scopeOption = "include";
  info.quantizesType = [](const ir::Target &, const std::string &type) {
    return type.empty() || type == "Linear";
  };
  info.onlyType = "Linear";
  // include/exclude patterns match named_modules() names of the PyTorch model.
  info.names = [](const ir::Target &) { return ir::TargetInfo::Names::Modules; };
  registerEmitter(std::move(info), [] { return std::make_unique<MsModelSlimEmitter>(); });
  vendors::registerReader("msmodelslim", &vendors::readMsModelSlim);
}

} // namespace qspec::emit
