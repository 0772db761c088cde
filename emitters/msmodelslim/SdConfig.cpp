// `multimodal_sd_config` of a multimodal_sd_modelslim_v1 practice (PracticeYaml.h).
#include "emitters/msmodelslim/PracticeYaml.h"
#include "vendors/msmodelslim/MsModelSlimSd.h"

namespace qspec::emit {

namespace {

void writeSetting(YAML::Emitter &y, const ir::Option &o) {
  y << YAML::Key << o.key << YAML::Value;
  if (o.isBlock) {
    y << YAML::BeginMap;
    for (const ir::Option &c : o.children)
      writeSetting(y, c);
    y << YAML::EndMap;
  } else if (o.values.size() == 1) {
    writePracticeValue(y, o.values[0]);
  } else {
    y << YAML::Flow << YAML::BeginSeq;
    for (const ir::Value &v : o.values)
      writePracticeValue(y, v);
    y << YAML::EndSeq;
  }
}

} // namespace

void writeSdConfig(YAML::Emitter &y, const ir::Option *sdConfig) {
  if (sdConfig)
    writeSetting(y, *sdConfig);
}

bool validateSdPractice(const ir::Target &target, const std::string &bytes,
                        DiagnosticEngine &diags) {
  msmodelslim::PracticeDoc doc;
  DiagnosticEngine parseDiags(diags.sourceManager());
  if (!msmodelslim::parsePractice(bytes, 0, doc, parseDiags)) {
    diags.report(DiagID::err_msmodelslim_refused, target.range, {"the YAML does not parse", "1"});
    return false;
  }
  return vendors::validateSdSettings(target, doc, diags);
}

} // namespace qspec::emit
