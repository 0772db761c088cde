// The honest half of `qcc import --roundtrip` for HMCT (Importer.h compareHmct): the
// model_config search settings HMCT reads (modelwise_search, layerwise_search, with HMCT's
// default metric filled in), compared between the original and the re-emitted quant_config. A
// difference not yet recorded is reported not carried at the original's block.
#include "driver/qcc/import/Importer.h"

#include "vendors/hmct/HmctReader.h"

namespace qspec::import {

void compareHmct(const Source &src, std::string_view emitted, const Context &ctx) {
  hmct::QuantConfigDoc a, b;
  std::string error;
  uint32_t line = 0, column = 0;
  if (!hmct::parseQuantConfigText(*src.text, a, error, line, column) ||
      !hmct::parseQuantConfigText(emitted, b, error, line, column))
    return; // the readers report it
  vendors::HmctSearches before = vendors::hmctSearches(a), after = vendors::hmctSearches(b);
  for (const char *key : {"modelwise_search", "layerwise_search"}) {
    bool model = key[0] == 'm';
    const vendors::HmctSearch &x = model ? before.modelwise : before.layerwise;
    const vendors::HmctSearch &y = model ? after.modelwise : after.layerwise;
    std::string diff = vendors::hmctSearchDifference(x, y);
    uint32_t at = x.line ? x.line : 1;
    if (diff.empty() || ctx.recorded(src.file, at))
      continue;
    ctx.notCarried(src, at, x.line ? x.column : 1,
                   std::string("model_config setting '") + key + "'",
                   "the re-emitted quant_config reads (original vs re-emitted) " + diff);
  }
}

} // namespace qspec::import
