// The horizon backend's registration: what it can express (for the passes) and its factory.
#include "emitters/horizon/HorizonEmitter.h"
#include "vendors/horizon/HorizonReader.h"
#include "vendors/horizon/HorizonRules.h"

namespace qspec::emit {

void registerHorizonEmitter() {
  ir::TargetInfo info;
  info.kind = "horizon";
  info.emitKind = "horizon-py";
  info.fileExtension = ".py";
  info.optionKeys = {"march",           "observer",      "fix_scale",
                     "sensitivity",     "topk_or_ratio", "sensitive_type",
                     "enable_optimize", "save_dir",      "silence"};
  info.ruleOptionKeys = {"fixed_scale"}; // a fixed activation scale for the rule's modules
  info.canExpress = [](const ir::Target &target, ir::Tier tier, const std::string &type,
                       std::string &why) {
    // horizon_plugin_pytorch dtypes: qint8, qint16, torch.float16, float; dual-int16 only on
    // Conv/Matmul (both operands qint16); no int4 activations.
    if (tier == ir::Tier::DualInt16) {
      if (type.empty() || horizon::dualInt16Allowed(type))
        return true;
      why = "dual-int16 exists only on Conv and Matmul";
      return false;
    }
    if (tier == ir::Tier::Int4) {
      why = "the Horizon plugin has no int4 activations";
      return false;
    }
    return true;
  };
  // The plugin's templates match named_modules() names and module classes.
  info.names = [](const ir::Target &) { return ir::TargetInfo::Names::Modules; };
  registerEmitter(std::move(info), [] { return std::make_unique<HorizonEmitter>(); });
  vendors::registerReader("horizon", &vendors::readHorizon);
}

} // namespace qspec::emit
