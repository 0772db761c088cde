// amct-duplicate-skip: a skip list (skip_layers, skip_layer_types, skip_fusion_layers,
// quant_skip_*, regular_prune_skip_*, kv_cache_quant_layers) repeats an entry. PTQ refuses it
// (`Please delete repeated items in skip_layers, repeated items are [...] `); QAT only warns and
// de-duplicates. One finding per repeated entry, at its line; its safe fix deletes that
// `field: "name"` line (written one per line);
// entries in `[...]` lists are left to the author.
#include "lint/rules/amct/AmctUtil.h"

#include <set>

namespace qspec::lint {

void checkAmctDuplicateSkip(AmctInput &ctx) {
  if (!ctx.amctParsed)
    return;
  const amct::AmctDocument &doc = *ctx.amctDoc;
  bool qat = doc.kind == amct::ConfigKind::QAT;
  auto check = [&](const std::vector<amct::Entry> &entries, const char *field, bool warnInQat) {
    std::vector<std::string> names;
    for (const auto &e : entries)
      names.push_back(e.text);
    if (amct::findDuplicates(names).empty())
      return;
    bool warn = qat && warnInQat;
    std::set<std::string> seen;
    // One finding per repeat, at its own line, naming its own item: a suppression comment on
    // one repeat silences that repeat only.
    for (const auto &e : entries) {
      if (seen.insert(e.text).second)
        continue;
      Diagnostic *d = &ctx.report(
          RuleID::AmctDuplicateSkip, ctx.at(e.line, e.col ? e.col : 1),
          amct::repeatedItemsMessage(warn ? amct::ConfigKind::PTQ : doc.kind, field, {e.text}));
      d->severity = warn ? Severity::Warning : Severity::Error;
      // Fix: the line holds exactly `field: "name"` (or 'name'), optionally with a comment.
      std::string_view line = ctx.sm.line(ctx.file, e.line);
      size_t b = line.find_first_not_of(" \t");
      if (b == std::string_view::npos || line.substr(b, std::string_view(field).size()) != field)
        continue;
      size_t q = line.find_first_of("\"'", b);
      if (q == std::string_view::npos)
        continue;
      size_t qe = line.find(line[q], q + 1);
      if (qe == std::string_view::npos || line.substr(q + 1, qe - q - 1) != e.text)
        continue;
      size_t rest = line.find_first_not_of(" \t\r;,", qe + 1);
      if (rest != std::string_view::npos && line[rest] != '#')
        continue;
      FixIt f;
      f.range = ctx.wholeLine(e.line);
      d->fixits.push_back(std::move(f));
    }
  };
  check(doc.skipLayers, "skip_layers", true);
  check(doc.skipLayerTypes, "skip_layer_types", true);
  check(doc.skipFusionLayers, "skip_fusion_layers", false);
  check(doc.quantSkipLayers, "quant_skip_layers", true);
  check(doc.quantSkipTypes, "quant_skip_types", true);
  check(doc.pruneSkipLayers, "regular_prune_skip_layers", true);
  check(doc.pruneSkipTypes, "regular_prune_skip_types", true);
  check(doc.kvQuantLayers, "kv_cache_quant_layers", false);
}

} // namespace qspec::lint
