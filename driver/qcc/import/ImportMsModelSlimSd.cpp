// The multimodal_sd_config of an SD practice (`apiversion: multimodal_sd_modelslim_v1`): imported
// as the target setting of that name, and compared by `--roundtrip` as msModelSlim's SD service
// reads it (vendors/msmodelslim/MsModelSlimSd.h). See ImportMsModelSlimV0.h.
#include "driver/qcc/import/ImportMsModelSlimV0.h"

#include "ir/Regex.h"
#include "vendors/msmodelslim/MsModelSlimSd.h"

#include <map>

namespace qspec::import {

namespace {

using msmodelslim::YamlValue;

struct SdImport {
  const Source &src;
  const Context &ctx;

  void notCarried(const YamlValue &v, const std::string &path, const std::string &why) const {
    ctx.notCarried(src, v.keyLine ? v.keyLine : v.line, v.keyLine ? v.keyCol : v.col,
                   "multimodal_sd_config setting '" + path + "'", why);
  }

  // `key value`, `key v1, v2, ...` or `key { ... }`; "" when qspec cannot write it (reported).
  std::string entry(const std::string &path, const std::string &key, const YamlValue &v) const {
    static const ir::Regex kName("[A-Za-z_][A-Za-z0-9_.-]*");
    if (!kName.fullMatch(key)) {
      notCarried(v, path, "its key is not a name a setting can have");
      return "";
    }
    if (v.kind == YamlValue::Null || v.scalarType() == "null") {
      notCarried(v, path, "a null value has no setting");
      return "";
    }
    if (v.kind == YamlValue::Scalar)
      return key + " " + practiceScalar(v);
    if (v.kind == YamlValue::Sequence) {
      std::string list;
      for (const YamlValue &e : v.items) {
        if (e.kind != YamlValue::Scalar || e.scalarType() == "null") {
          notCarried(v, path, "only lists of numbers, booleans and strings are written");
          return "";
        }
        list += (list.empty() ? "" : ", ") + practiceScalar(e);
      }
      if (v.items.size() < 2) {
        notCarried(v, path,
                   "a list of fewer than two items cannot be written (one value is a scalar)");
        return "";
      }
      return key + " " + list;
    }
    std::string body;
    for (const auto &[k, x] : v.map)
      if (std::string e = entry(path + "." + k, k, x); !e.empty())
        body += (body.empty() ? " " : "; ") + e;
    return key + " {" + body + " }";
  }
};

} // namespace

std::string importSdConfig(const Source &src, const Context &ctx, const YamlValue &v) {
  SdImport im{src, ctx};
  if (v.kind != YamlValue::Mapping) {
    im.notCarried(v, "multimodal_sd_config", "it is not a mapping");
    return "";
  }
  std::string body;
  for (const auto &[k, x] : v.map) {
    std::string path = "multimodal_sd_config." + k;
    if (k == "inference_config" && x.kind == YamlValue::Null)
      continue; // null reads as absent: the service falls back to model_config, else {}
    if (k != "dump_config" && k != "inference_config" && k != "model_config") {
      im.notCarried(x, path, "msModelSlim's SD service keeps it but never reads it");
      continue;
    }
    if (std::string e = im.entry(path, k, x); !e.empty())
      body += " " + e;
  }
  return body.empty() ? "" : "multimodal_sd_config {" + body + " }";
}

void compareSdConfig(const Source &src, const Context &ctx, const msmodelslim::PracticeDoc &a,
                     const msmodelslim::PracticeDoc &b) {
  msmodelslim::SdConfig ra = msmodelslim::readSdConfig(a.root),
                        rb = msmodelslim::readSdConfig(b.root);
  const YamlValue *spec = a.root.get("spec");
  const YamlValue *sd = spec ? spec->get("multimodal_sd_config") : nullptr;
  const YamlValue *dump = sd ? sd->get("dump_config") : nullptr;
  const YamlValue &block = sd ? *sd : spec ? *spec : a.root;
  auto at = [&](const char *key) -> const YamlValue & {
    const YamlValue *v = dump ? dump->get(key) : nullptr;
    return v ? *v : dump ? *dump : block;
  };
  auto differ = [&](const YamlValue &where, const std::string &what, const std::string &x,
                    const std::string &y) {
    if (x != y)
      reportPracticeDifference(src, ctx, where, "multimodal_sd_config " + what, y);
  };
  differ(at("enable_dump"), "dump_config.enable_dump", ra.enableDump ? "true" : "false",
         rb.enableDump ? "true" : "false");
  differ(at("capture_mode"), "dump_config.capture_mode", ra.captureMode, rb.captureMode);
  differ(at("dump_data_dir"), "dump_config.dump_data_dir", "'" + ra.dumpDataDir + "'",
         "'" + rb.dumpDataDir + "'");
  const YamlValue &inf = ra.inferenceAt ? *ra.inferenceAt : block;
  differ(inf, "inference settings' block", ra.inferenceKey, rb.inferenceKey);
  std::map<std::string, std::string> emitted(rb.inference.begin(), rb.inference.end());
  for (const auto &[k, v] : ra.inference) {
    auto it = emitted.find(k);
    if (it != emitted.end() && it->second == v)
      continue;
    const YamlValue *where = ra.inferenceAt ? ra.inferenceAt->get(k) : nullptr;
    reportPracticeDifference(src, ctx, where ? *where : inf,
                             "multimodal_sd_config " + ra.inferenceKey + "." + k,
                             it == emitted.end() ? "" : k + ": " + it->second);
  }
  std::map<std::string, std::string> original(ra.inference.begin(), ra.inference.end());
  for (const auto &[k, v] : rb.inference)
    if (!original.count(k))
      reportPracticeDifference(src, ctx, inf, "the absent multimodal_sd_config setting " + k,
                               k + ": " + v);
}

} // namespace qspec::import
