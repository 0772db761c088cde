// The end of every practice writer of this folder (PracticeYaml.h).
#include "emitters/msmodelslim/PracticeYaml.h"

namespace qspec::emit {

bool finishPracticeYaml(YAML::Emitter &y, const ir::Target &target, OutputContext &out,
                        DiagnosticEngine &diags) {
  if (!y.good()) {
    diags.report(DiagID::err_internal, target.range,
                 {std::string("yaml-cpp: ") + y.GetLastError()});
    return false;
  }
  out.buffer() = y.c_str();
  out.buffer() += "\n";
  return true;
}

} // namespace qspec::emit
