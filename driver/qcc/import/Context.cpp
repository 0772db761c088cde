// The helpers every importer shares (Importer.h).
#include "driver/qcc/import/Importer.h"

#include "vendors/msmodelslim/MsModelSlimRules.h"

#include <cstdio>
#include <cstdlib>
#include <set>

namespace qspec::import {

void Context::notCarried(const Source &src, uint32_t line, uint32_t col, const std::string &what,
                         const std::string &why) const {
  diags.report(DiagID::warn_import_not_carried,
               SourceRange::point(src.file, line ? line : 1, col ? col : 1), {what, why});
  if (record)
    record->push_back(NotCarried{src.file, line ? line : 1, col ? col : 1, what});
}

bool Context::recorded(FileID file, uint32_t line) const {
  if (record)
    for (const NotCarried &n : *record)
      if (n.file == file && n.line == line)
        return true;
  return false;
}

std::string numberText(double v) {
  char buf[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v)
      break;
  }
  return buf;
}

std::string floatText(double v) {
  char buf[40];
  for (int precision = 1; precision <= 9; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtof(buf, nullptr) == static_cast<float>(v))
      break;
  }
  return buf;
}

std::vector<std::string> namePatterns(const Context &ctx, const std::vector<std::string> &must) {
  std::vector<std::string> out;
  std::set<std::string> wanted(must.begin(), must.end());
  if (!ctx.inventory) {
    for (const std::string &n : wanted)
      out.push_back(exactPattern(n));
    return out;
  }
  const ir::Inventory &inv = ctx.inventory->inventory;
  std::vector<msmodelslim::Want> want(inv.modules.size(), msmodelslim::Want::Forbid);
  for (size_t m = 0; m < inv.modules.size(); ++m)
    if (wanted.erase(inv.modules[m].name))
      want[m] = msmodelslim::Want::Must;
  bool verified = true;
  out = msmodelslim::SelectionCompressor(inv).compress(want, verified);
  for (const std::string &n : wanted) // not in the inventory: as written
    out.push_back(exactPattern(n));
  return out;
}

} // namespace qspec::import
