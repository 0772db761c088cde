// The amct backend: see docs/emitters/amct.md for the mapping from intent to vendor fields.
#pragma once

#include "emitters/Emitter.h"

namespace qspec::emit {

class AmctEmitter : public Emitter {
public:
  bool emit(const ir::Spec &spec, const ir::Target &target, OutputContext &out,
            DiagnosticEngine &diags) override;
};

// `target amct kv`: the KV-cache calibration config (AmctKv.cpp).
bool emitAmctKv(const ir::Spec &spec, const ir::Target &target, DiagnosticEngine &diags,
                std::string &text);

} // namespace qspec::emit
