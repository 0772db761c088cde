// `qcc import`: the importers, one per vendor format. Each reads a vendor file through its
// document model (vendors/<vendor>/) and fills an ImportedSpec that means what the vendor tool
// does with the file; what a .qspec cannot say is reported (warn_import_not_carried) at its
// place in the source file.
#pragma once

#include "driver/qcc/import/ImportedSpec.h"

#include <string>

namespace qspec::import {

struct Source {
  std::string path; // as given
  FileID file = 0;  // in the engine's SourceManager
  const std::string *text = nullptr;
};

// What every importer may consult: the inventory (a spec compiled with it; null without one).
struct Context {
  const ir::Spec *inventory = nullptr;
  DiagnosticEngine &diags;
  // Reports warn_import_not_carried at `line`:`col` of `src`.
  void notCarried(const Source &src, uint32_t line, uint32_t col, const std::string &what,
                  const std::string &why) const;
};

bool importAmct(const Source &src, const Context &ctx, ImportedSpec &out);
bool importMsModelSlim(const Source &src, const Context &ctx, ImportedSpec &out);
bool importHmct(const Source &src, const Context &ctx, ImportedSpec &out);
bool importHorizon(const Source &src, const Context &ctx, ImportedSpec &out);

// A number as the shortest text that reads back as the same double ("0.5", "1e-05").
std::string numberText(double v);
// Patterns that select exactly the modules `must` among the inventory's (the emitters' own
// compressor); with no inventory, the names escaped.
std::vector<std::string> namePatterns(const Context &ctx, const std::vector<std::string> &must);

} // namespace qspec::import
