#include "emitters/amct/AmctEmitter.h"

namespace qspec::emit {

bool AmctEmitter::emit(const ir::Spec &spec, const ir::Target &target, OutputContext &out,
              DiagnosticEngine &diags) {
  diags.report(DiagID::err_internal, target.range, {"the amct emitter is not built yet"});
  return false;
}

} // namespace qspec::emit
