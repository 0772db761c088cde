#include "emitters/Emitter.h"
#include "ir/Parallel.h"
#include "vendors/Parsed.h"
#include "vendors/Reading.h"

#include <map>

namespace qspec::emit {

static std::map<std::string, std::function<std::unique_ptr<Emitter>()>, std::less<>> &factories() {
  static std::map<std::string, std::function<std::unique_ptr<Emitter>()>, std::less<>> f;
  return f;
}

void registerEmitter(ir::TargetInfo info, std::function<std::unique_ptr<Emitter>()> create) {
  factories()[info.kind] = std::move(create);
  ir::registerTarget(std::move(info));
}

std::unique_ptr<Emitter> createEmitter(std::string_view targetKind) {
  auto it = factories().find(targetKind);
  return it == factories().end() ? nullptr : it->second();
}

void registerAllEmitters() {
  static bool done = false;
  if (done)
    return;
  done = true;
#define EMITTER(KIND, FOLDER, REGISTER) REGISTER();
#include "emitters/Emitters.def"
#undef EMITTER
}

// Translation validation: the written bytes read back through the vendor's model must mean what
// the spec says. Kinds without a registered reader are not checked.
static bool validateEmitted(const ir::Spec &spec, const ir::Target &target,
                            const OutputContext &out, DiagnosticEngine &diags) {
  vendors::ReadBack read = vendors::findReader(target.kind);
  if (!read)
    return true;
  vendors::VendorReading reading;
  reading.kind = target.kind;
  return read(spec, target, out.buffer(), reading, diags) &&
         vendors::validateReading(spec, target, reading, diags) && !diags.hasErrors();
}

std::vector<EmitResult> emitTargets(const ir::Spec &spec,
                                    const std::vector<const ir::Target *> &targets,
                                    DiagnosticEngine &diags, unsigned threads,
                                    const EmitIndexes &indexes) {
  std::vector<EmitResult> results(targets.size());
  // Each target reports into its own engine, with no limit: the shared engine applies -Werror
  // and the error limit when they are replayed below.
  std::vector<std::unique_ptr<DiagnosticEngine>> own;
  for (size_t i = 0; i < targets.size(); ++i) {
    results[i].target = targets[i];
    results[i].out.indexes = &indexes;
    own.push_back(std::make_unique<DiagnosticEngine>(diags.sourceManager()));
    own.back()->copyWarningPolicy(diags);
    own.back()->setErrorLimit(0);
  }
  auto runOne = [&](size_t i) {
    DiagnosticEngine &d = *own[i];
    auto emitter = createEmitter(targets[i]->kind);
    if (!emitter) {
      d.report(DiagID::err_tune_no_emitter, targets[i]->range, {targets[i]->kind});
      return;
    }
    results[i].ok = emitter->emit(spec, *targets[i], results[i].out, d) && !d.hasErrors() &&
                    validateEmitted(spec, *targets[i], results[i].out, d);
    vendors::forgetParsed(); // what the emitter parsed and the read-back did not take
  };
  if (threads == 0)
    threads = spec.inventory.modules.size() >= ir::kParallelMinModules
                  ? ir::parallelism(targets.size())
                  : 1;
  ir::parallelFor(targets.size(), threads, runOne);
  for (auto &d : own)
    for (const Diagnostic &x : d->diagnostics())
      diags.report(x);
  return results;
}

} // namespace qspec::emit
