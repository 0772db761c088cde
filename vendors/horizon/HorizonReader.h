// horizon_plugin_pytorch's reading of a generated QconfigSetter (reference:
// ../shared/reference/horizon.md §3): the plugin's hard rules first (checkQconfigSetter), then
// each module's dtype as the templates give it, in IR words. Templates apply in list order and
// later ones refine earlier ones; ModuleNameTemplate keys are module-name PREFIXES (`""` = the
// whole model, `blk` also covers `blk.sub`; within one template the longest key wins); a module
// a frozen template set keeps its dtype against later templates; ConvDtypeTemplate covers the
// conv-like types, MatmulDtypeTemplate the matmul-like ones. Before any template the march
// decides (§3.5): nash-p / nash-h run non-GEMM modules in torch.float16 and GEMMs in qint8,
// the others qint8. A SensitivityTemplate picks its modules at run time from a table: modules
// it may still change are not decided by the file.
#pragma once

#include "vendors/Reading.h"
#include "vendors/horizon/QconfigSetterDoc.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace qspec::horizon {

// A violation of the plugin's hard rules (§3.2, §3.4), with a stable check ID.
struct SetterIssue {
  std::string check; // no-set-march, march-kwarg, unknown-march, observer, global-template-first,
                     // template-arguments, unknown-template, dtype
  uint32_t line = 0, column = 0;
  std::string message;
};
extern const std::vector<std::string> kSetterCheckIDs;
std::vector<SetterIssue> checkQconfigSetter(const QconfigSetterDoc &doc);

// A dtype expression -> tier: qint8 int8, qint16 int16, qint4 int4, torch.float16 fp16,
// torch.float32 float, {"dtype": D, ...} as D, port maps {"input": [qint16, qint16]} and
// {"input": qint16, "weight": qint16} dual-int16; nullopt for anything else.
std::optional<ir::Tier> tierForDtype(const PyValue &v);

// The observer's method of reference_qconfig=get_qconfig(observer=...) in IR words (histogram,
// minmax, mse), "" if unknown: the one recipe setting the file carries, model-wide.
std::string setterActMethod(const QconfigSetterDoc &doc);

// The templates of one document, indexed for reading many modules. It points into `doc`, which
// must outlive it. module() remembers the last name's prefixes (fastest for names in tree
// order), so one reading is not for several threads at once.
class SetterReading {
public:
  explicit SetterReading(const QconfigSetterDoc &doc);
  explicit SetterReading(QconfigSetterDoc &&) = delete;
  ~SetterReading();
  struct Result {
    std::optional<ir::Tier> tier;  // nullopt: decided at run time, or a dtype with no tier
    uint32_t line = 0, column = 0; // the deciding key (0: the march default)
  };
  Result module(std::string_view name, std::string_view type) const;
  // The observer's method in IR words (histogram, minmax, mse), "" if unknown.
  const std::string &actMethod() const { return actMethod_; }

private:
  struct Step;
  std::vector<Step> steps_;
  std::string march_, actMethod_;
};

} // namespace qspec::horizon

namespace qspec::vendors {
// vendors::ReadBack for target kind "horizon".
bool readHorizon(const ir::Spec &spec, const ir::Target &target, std::string_view bytes,
                 VendorReading &out, DiagnosticEngine &diags);
} // namespace qspec::vendors
