#include "emitters/msmodelslim/MsModelSlimEmitter.h"

namespace qspec::emit {

bool MsModelSlimEmitter::emit(const ir::Spec &spec, const ir::Target &target, OutputContext &out,
              DiagnosticEngine &diags) {
  diags.report(DiagID::err_internal, target.range, {"the msmodelslim emitter is not built yet"});
  return false;
}

} // namespace qspec::emit
