#include "ir/Select.h"

namespace qspec::ir {

ModuleSelector::ModuleSelector(const Inventory &inv) : inv_(inv) {
  for (uint32_t i = 0; i < inv.modules.size(); ++i)
    byType_[inv.modules[i].type].push_back(i);
}

std::vector<uint32_t> ModuleSelector::select(const Selector &s) const {
  if (s.kind == Selector::Type)
    return selectType(s.text);
  if (!s.pattern)
    return {};
  return selectPattern(*s.pattern);
}

std::vector<uint32_t> ModuleSelector::selectPattern(const Pattern &p) const {
  std::vector<uint32_t> out;
  if (p.isLiteral()) {
    auto it = inv_.index.find(p.literal());
    if (it != inv_.index.end())
      out.push_back(it->second);
    return out;
  }
  for (uint32_t i = 0; i < inv_.modules.size(); ++i)
    if (p.matches(inv_.modules[i].name))
      out.push_back(i);
  return out;
}

std::vector<uint32_t> ModuleSelector::selectType(std::string_view type) const {
  auto it = byType_.find(std::string(type));
  return it == byType_.end() ? std::vector<uint32_t>{} : it->second;
}

} // namespace qspec::ir
