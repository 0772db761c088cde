// Fuzz targets: qlint's located readers on their own, without the rules: the YAML tree builder
// (lint_yaml_reader: parseLocatedYaml, behind msModelSlim practice files) and the JSON one
// (lint_json_reader: stripJsonComments + parseLocatedJson, behind HMCT quant_config files). Run
// under -rss_limit_mb (run-fuzz.sh), so an input whose tree grows faster than its size (a YAML
// alias bomb, deep nesting) is a finding. A tree that was built must stay within the readers'
// bounds: at most one node per input byte plus what aliases may add (kMaxYamlAliasNodes).
#include "Targets.h"

#include "frontend/readers/Readers.h"
#include "lint/readers/Located.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace qspec;

namespace {

size_t countNodes(const lint::LNode &n) {
  size_t total = 1;
  for (const auto &kv : n.map)
    total += countNodes(kv.first) + countNodes(kv.second);
  for (const lint::LNode &c : n.seq)
    total += countNodes(c);
  return total;
}

void runReader(const uint8_t *data, size_t size, bool yaml) {
  SourceManager sm;
  std::string text(reinterpret_cast<const char *>(data), size);
  FileID f = sm.addFile("input", text);
  lint::LNode root;
  lint::ParseError err;
  bool ok = yaml ? lint::parseLocatedYaml(sm, f, root, err)
                 : lint::parseLocatedJson(sm, f, lint::stripJsonComments(text), root, err);
  if (!ok && err.message.empty())
    std::abort(); // a refusal must say why
  if (ok && countNodes(root) > size + readers::kMaxYamlAliasNodes + 1)
    std::abort(); // the tree outgrew the input
}

} // namespace

void fuzz::runLintYamlReader(const uint8_t *data, size_t size, const char *) {
  runReader(data, size, true);
}

void fuzz::runLintJsonReader(const uint8_t *data, size_t size, const char *) {
  runReader(data, size, false);
}
