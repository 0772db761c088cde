// `qcc import`: the importers, one per vendor format. Each reads a vendor file through its
// document model (vendors/<vendor>/) and fills an ImportedSpec that means what the vendor tool
// does with the file; what a .qspec cannot say is reported (warn_import_not_carried) at its
// place in the source file.
#pragma once

#include "driver/qcc/import/ImportedSpec.h"

#include <string>
#include <string_view>
#include <vector>

namespace qspec::amct {
struct AmctDocument;
}

namespace qspec::import {

struct Source {
  std::string path; // as given
  FileID file = 0;  // in the engine's SourceManager
  const std::string *text = nullptr;
};

// One setting of a vendor file that the spec does not carry, where the file says it.
struct NotCarried {
  FileID file = 0;
  uint32_t line = 0, col = 0;
  std::string what;
};

// What every importer may consult: the inventory (a spec compiled with it; null without one).
struct Context {
  const ir::Spec *inventory = nullptr;
  DiagnosticEngine &diags;
  // Every setting reported not carried, in report order (null: not recorded). `--roundtrip`
  // says `reading equal` only when the first file has none.
  std::vector<NotCarried> *record = nullptr;
  // Reports warn_import_not_carried at `line`:`col` of `src` (and records it).
  void notCarried(const Source &src, uint32_t line, uint32_t col, const std::string &what,
                  const std::string &why) const;
  // Whether a setting at `line` of `file` is already recorded as not carried.
  bool recorded(FileID file, uint32_t line) const;
};

bool importAmct(const Source &src, const Context &ctx, ImportedSpec &out);
// An AMCT KV-cache config (AMCTQuantCaliConfig), parsed by importAmct (ImportAmctKv.cpp).
bool importAmctKv(const Source &src, const Context &ctx, const amct::AmctDocument &doc,
                  ImportedSpec &out);
bool importMsModelSlim(const Source &src, const Context &ctx, ImportedSpec &out);
bool importHmct(const Source &src, const Context &ctx, ImportedSpec &out);
bool importHorizon(const Source &src, const Context &ctx, ImportedSpec &out);
// An llm-compressor recipe or a compressed-tensors quantization_config (needs the inventory).
bool importCompressedTensors(const Source &src, const Context &ctx, ImportedSpec &out);

// Everything the vendor reads besides the module readings, compared between the original file
// `src` and the file re-emitted from its spec (`emitted`): each setting that differs and is not
// yet recorded is reported not carried at its place in `src` (the re-emitted file's value in the
// message). msModelSlim: the processors in order with all their settings (linear_quant's
// qconfig, include and exclude are the module readings), save, dataset, runner, metadata. AMCT:
// every layer's effective calibration and prune parameters and the file's global fields.
void compareMsModelSlim(const Source &src, std::string_view emitted, const Context &ctx);
void compareAmct(const Source &src, std::string_view emitted, const Context &ctx);
// HMCT: model_config.modelwise_search and layerwise_search.
void compareHmct(const Source &src, std::string_view emitted, const Context &ctx);

// A number as the shortest text that reads back as the same double ("0.5", "1e-05").
std::string numberText(double v);
// A protobuf float (AMCT's numbers) as the shortest text that reads back as the same float (0.3,
// not the double 0.30000001192092896 the float widens to).
std::string floatText(double v);
// Patterns that select exactly the modules `must` among the inventory's (the emitters' own
// compressor); with no inventory, the names escaped.
std::vector<std::string> namePatterns(const Context &ctx, const std::vector<std::string> &must);

} // namespace qspec::import
