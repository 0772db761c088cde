// Inventory dispatch and the plain manifest format. (Other formats: see the sibling files.)
#include "frontend/readers/Readers.h"

#include <fstream>
#include <sstream>

namespace qspec::readers {

void assignBlocks(ir::Inventory &inv, const Pattern &blockPattern) {
  // A module belongs to block N when a dotted prefix of its name matches the block pattern.
  std::vector<std::string_view> caps;
  for (ir::Module &m : inv.modules) {
    m.block = -1;
    std::string_view name = m.name;
    for (size_t dot = name.find('.'); dot != std::string_view::npos; dot = name.find('.', dot + 1)) {
      if (blockPattern.matches(name.substr(0, dot), &caps) && !caps.empty()) {
        std::string_view digits = caps[0];
        if (!digits.empty() && digits.size() < 9) {
          m.block = std::stoi(std::string(digits));
          break;
        }
      }
    }
  }
}

static bool readManifest(const std::string &path, FileID file, ir::Inventory &out,
                         DiagnosticEngine &diags, const ReaderLimits &limits) {
  SourceManager &sm = diags.sourceManager();
  std::istringstream in(sm.text(file));
  std::string line;
  uint32_t lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#')
      continue;
    std::istringstream ls(line.substr(start));
    ir::Module m;
    ls >> m.name >> m.type;
    std::string extra;
    if (ls >> extra) {
      diags.report(DiagID::err_inventory_malformed, sm.lineRange(file, lineNo, 1, static_cast<uint32_t>(line.size())),
                   {"expected 'NAME TYPE' on each line"});
      return false;
    }
    m.line = lineNo;
    if (out.index.count(m.name)) {
      diags.report(DiagID::err_inventory_duplicate, sm.lineRange(file, lineNo, static_cast<uint32_t>(start + 1),
                                                                  static_cast<uint32_t>(m.name.size())),
                   {m.name});
      return false;
    }
    if (out.modules.size() >= limits.maxModules) {
      diags.report(DiagID::err_inventory_too_many, sm.lineRange(file, lineNo), {std::to_string(limits.maxModules)});
      return false;
    }
    out.index.emplace(m.name, static_cast<uint32_t>(out.modules.size()));
    out.modules.push_back(std::move(m));
  }
  return true;
}

bool readInventory(const std::string &path, ir::Inventory &out, DiagnosticEngine &diags,
                   SourceRange requestedAt, const ReaderLimits &limits) {
  out.modules.clear();
  out.index.clear();
  out.path = path;
  SourceManager &sm = diags.sourceManager();
  std::string err;
  FileID f = sm.loadFile(path, err, limits.maxFileBytes);
  if (!f) {
    diags.report(DiagID::err_cannot_open_file, requestedAt, {path, err});
    return false;
  }
  out.format = "manifest";
  if (!readManifest(path, f, out, diags, limits))
    return false;
  if (out.modules.empty()) {
    diags.report(DiagID::err_inventory_empty, requestedAt, {path});
    return false;
  }
  return true;
}

} // namespace qspec::readers
