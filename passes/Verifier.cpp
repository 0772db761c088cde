// The IR verifier: invariants every pass must leave true (run after each pass with
// --verify-each, and by the tests).
#include "passes/Pass.h"

namespace qspec::passes {

bool verifyResolution(const ir::Spec &spec, DiagnosticEngine &diags, const char *afterPass) {
  const auto &res = spec.resolution;
  auto fail = [&](const std::string &what) {
    diags.report(DiagID::err_internal, SourceRange{},
                 {std::string("after pass '") + afterPass + "': " + what});
    return false;
  };
  if (!res.modules.empty() && res.modules.size() != spec.inventory.modules.size())
    return fail("resolution has " + std::to_string(res.modules.size()) + " modules, inventory " +
                std::to_string(spec.inventory.modules.size()));
  for (size_t g = 0; g < res.groups.size(); ++g)
    for (uint32_t m : res.groups[g].members) {
      if (m >= spec.inventory.modules.size())
        return fail("group member out of range");
      if (!res.modules.empty() && res.modules[m].group != static_cast<int32_t>(g))
        return fail("module '" + spec.inventory.modules[m].name +
                    "' does not point back at its group");
    }
  if (res.done)
    for (size_t m = 0; m < res.modules.size(); ++m)
      if (res.modules[m].isProtected && res.modules[m].tier.value != ir::Tier::Float)
        return fail("protected module '" + spec.inventory.modules[m].name + "' is not float");
  return true;
}

} // namespace qspec::passes
