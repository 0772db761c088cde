#include "emitters/horizon/HorizonEmitter.h"

namespace qspec::emit {

bool HorizonEmitter::emit(const ir::Spec &spec, const ir::Target &target, OutputContext &out,
              DiagnosticEngine &diags) {
  diags.report(DiagID::err_internal, target.range, {"the horizon emitter is not built yet"});
  return false;
}

} // namespace qspec::emit
