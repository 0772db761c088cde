// The table of fuzz targets: one row per target, the only list of them (run-fuzz.sh asks the
// binary for it with --list; the replay driver walks it).
#include "Targets.h"

namespace qspec::fuzz {

const std::vector<Target> &targets() {
  static const std::vector<Target> all = {
      {"qspec", runQspec, "", initQspec},
      {"pattern", runPattern, "", nullptr},
      {"inventory_manifest", runInventory, "modules.txt", nullptr},
      {"inventory_safetensors", runInventory, "model.safetensors", nullptr},
      {"inventory_index_json", runInventory, "model.safetensors.index.json", nullptr},
      {"inventory_onnx", runInventory, "model.onnx", nullptr},
      {"scores", runScores, "scores.txt", nullptr},
      {"json_quickcheck", runJsonQuickCheck, "", nullptr},
      {"lint_msmodelslim", runLint, "practice.yaml", nullptr},
      {"lint_amct", runLint, "quant.cfg", nullptr},
      {"lint_hmct", runLint, "quant_config.json", nullptr},
      {"lint_yaml_reader", runLintYamlReader, "", nullptr},
      {"lint_json_reader", runLintJsonReader, "", nullptr},
  };
  return all;
}

const Target *findTarget(std::string_view name) {
  for (const Target &t : targets())
    if (name == t.name)
      return &t;
  return nullptr;
}

std::optional<std::string_view> targetArgument(std::string_view arg) {
  constexpr std::string_view kPrefix = "--target=";
  if (arg.substr(0, kPrefix.size()) != kPrefix)
    return std::nullopt;
  return arg.substr(kPrefix.size());
}

void printTargets(std::FILE *out) {
  for (const Target &t : targets())
    std::fprintf(out, "%s\n", t.name);
}

} // namespace qspec::fuzz
