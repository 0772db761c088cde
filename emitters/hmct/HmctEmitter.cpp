#include "emitters/hmct/HmctEmitter.h"

namespace qspec::emit {

bool HmctEmitter::emit(const ir::Spec &spec, const ir::Target &target, OutputContext &out,
              DiagnosticEngine &diags) {
  diags.report(DiagID::err_internal, target.range, {"the hmct emitter is not built yet"});
  return false;
}

} // namespace qspec::emit
