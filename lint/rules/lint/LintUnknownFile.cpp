// lint-unknown-file: a file named on the command line (or by pre-commit), or standard input,
// that qlint cannot classify. Directory walks skip such files; a named one fails closed, so a
// vendor config whose marker key is misspelt is not passed unchecked. The finding points at the
// key that nearly is a marker (`apiverison:` -> apiversion, `"model_confg"` -> model_config).
#include "ir/EditDistance.h"
#include "lint/Context.h"
#include "lint/readers/Located.h"

#include <filesystem>

namespace qspec::lint {

namespace {

struct Near {
  const LNode *key = nullptr;
  std::string marker;
};

// The first key (depth first, in file order) within edit distance 2 of one of `markers`.
void findNear(const LNode &n, const std::vector<std::string> &markers, Near &out) {
  for (const auto &[k, v] : n.map) {
    for (const std::string &m : markers)
      if (!out.key && k.value != m && editDistanceAtMost(k.value, m, 2) <= 2)
        out = {&k, m};
    findNear(v, markers, out);
  }
  for (const LNode &c : n.seq)
    findNear(c, markers, out);
}

std::string lowerExtension(const std::string &path) {
  std::string e = std::filesystem::path(path).extension().string();
  for (char &c : e)
    c = static_cast<char>(tolower(static_cast<unsigned char>(c)));
  return e;
}

// For a YAML or JSON file: the key that nearly names the kind's marker, as a finding.
bool reportNearMarker(LintContext &ctx, bool json) {
  LNode root;
  ParseError pe;
  std::string stripped = json ? stripJsonComments(ctx.sm.text(ctx.file)) : std::string();
  bool ok = json ? parseLocatedJson(ctx.sm, ctx.file, stripped, root, pe)
                 : parseLocatedYaml(ctx.sm, ctx.file, root, pe);
  if (!ok)
    return false;
  std::vector<std::string> markers =
      json ? std::vector<std::string>{"model_config", "op_config", "node_config", "subgraph_config"}
           : std::vector<std::string>{"apiversion"};
  Near near;
  findNear(root, markers, near);
  if (!near.key)
    return false;
  const char *what = json ? "an HMCT quant_config" : "an msModelSlim practice";
  ctx.report(RuleID::LintUnknownFile, near.key->range,
             "not a file qlint recognises: no '" + near.marker + "' key, so not " + what +
                 "; did you mean '" + near.marker + "' for '" + near.key->value + "'?");
  return true;
}

} // namespace

void checkLintUnknownFile(LintContext &ctx) {
  std::string ext = lowerExtension(ctx.path);
  bool yaml = ext == ".yaml" || ext == ".yml", json = ext == ".json" || ext == ".jsonc";
  if ((yaml || json) && reportNearMarker(ctx, json))
    return;
  if (ctx.opts.hook) // the hook skips what is not ours (Lint.h, Options::hook)
    return;
  std::string why =
      yaml   ? "a YAML file without 'apiversion' is not an msModelSlim practice"
      : json ? "a JSON file without model_config, op_config, node_config or subgraph_config is not "
               "an HMCT quant_config"
      : ext == ".cfg"
          ? "a .cfg file whose first line is an INI [section] is not an AMCT config"
          : "qlint reads .qspec, msModelSlim .yaml/.yml, AMCT .cfg and HMCT .json/.jsonc files";
  ctx.report(RuleID::LintUnknownFile, ctx.at(1, 1, 1),
             "not a file qlint recognises: " + why +
                 " (named files are checked, not skipped; --ignore=lint-unknown-file skips them)");
}

} // namespace qspec::lint
