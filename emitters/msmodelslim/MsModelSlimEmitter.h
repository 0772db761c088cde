// The msmodelslim backend: see docs/emitters/msmodelslim.md for the mapping from intent to vendor
// fields.
#pragma once

#include "emitters/Emitter.h"

namespace qspec::emit {

class MsModelSlimEmitter : public Emitter {
public:
  bool emit(const ir::Spec &spec, const ir::Target &target, OutputContext &out,
            DiagnosticEngine &diags) override;
};

} // namespace qspec::emit
