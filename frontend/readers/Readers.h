// Readers for the model artifacts a spec refers to: module inventories and sensitivity scores.
//
// Contract: a reader never throws and never crashes on malformed input; it reports a diagnostic
// with the file and (where the format has lines) the line, and returns false. `requestedAt` is
// where the spec (or command line: an invalid range) asked for the file; it is used when the
// file cannot be opened. Formats, naming rules and limits (sizes, counts) are in docs/inputs.md.
#pragma once

#include "ir/Diagnostics.h"
#include "ir/IR.h"

#include <cstdint>
#include <string>

namespace qspec::readers {

struct ReaderLimits {
  size_t maxFileBytes = 256u << 20; // text formats read whole
  size_t maxModules = 5'000'000;
  size_t maxSafetensorsHeader = 100u << 20; // the JSON header of a .safetensors file
  size_t maxOnnxBytes = 2048u << 20;
  size_t maxConfigBytes = 16u << 20; // a model's config.json
  size_t maxScores = 5'000'000;      // entries in one scores file
  bool streamAnalysisYaml =
      true; // analysis_result.yaml from libyaml's events (false: yaml-cpp only)
};

// Chooses the format by name and content: `*.safetensors` (header only), `*.index.json`
// (Hugging Face index), `*.onnx`, anything else a manifest (`name type` per line, `#` comments;
// `name,type` CSV; a JSON array of {"name", "type"} objects). docs/inputs.md has the details.
// Modules keep the file's order.
bool readInventory(const std::string &path, ir::Inventory &out, DiagnosticEngine &diags,
                   SourceRange requestedAt = {}, const ReaderLimits &limits = {});

// The model's own `config.json` (docs/inputs.md, "The model's config.json"): read within bounds
// (ReaderLimits::maxConfigBytes, ir/BoundedInput.h) into `out`: architectures, each part's
// model_type and norm, tie_word_embeddings. A file that is not one JSON object, or a known key
// of the wrong kind, is err_model_config_malformed at its location.
bool readModelConfig(const std::string &path, ir::ModelConfig &out, DiagnosticEngine &diags,
                     SourceRange requestedAt = {}, const ReaderLimits &limits = {});

// `config.json` in the directory of a safetensors index or header, when that is a regular file;
// "" otherwise (and for every other inventory format).
std::string configBesideInventory(const ir::Inventory &inv);

// The model's config.json (the one `config` names, else configBesideInventory), then
// typeModules: what the frontend does after reading the inventory. `inventoryAt` is where the
// spec names the inventory. False (with a diagnostic) when the config cannot be read.
bool readConfigAndTypes(ir::Inventory &inv, ir::ModelConfig &config, DiagnosticEngine &diags,
                        SourceRange inventoryAt, const ReaderLimits &limits = {});

// Types the modules the config implies a type for (GPT-2's Conv1D projections, LayerNorm or
// RMSNorm per part), then reports the modules still without a type as one
// warn_inventory_type_unknown at `at` (docs/inputs.md, "Module types").
void typeModules(ir::Inventory &inv, const ir::ModelConfig &config, DiagnosticEngine &diags,
                 SourceRange at);

// Two graphs: reads the exported ONNX (`graph.path`) and the optional mapping file
// (`graph.mapPath`), and derives each inventory module's nodes (docs/inputs.md, "Two graphs":
// mapping file, then the weight initializer's consumer, then the exporter's scope).
bool readOnnxGraph(const ir::Inventory &inv, ir::OnnxGraph &graph, DiagnosticEngine &diags,
                   const ReaderLimits &limits = {});

// Two graphs: scores keyed by ONNX node names (the hmct-json and hmct-log formats) name modules
// through the mapping: each entry naming a node of `graph` becomes the module that node carries
// (several nodes of one module: the most sensitive score). A node no module carries, or that
// several carry, is warn_scores_node_unmapped (at `at`) and its entry is dropped; entries naming
// no node are kept as written (docs/inputs.md, "Scores with two graphs").
void scoresOnModules(const ir::Inventory &inv, const ir::OnnxGraph &graph, ir::Scores &scores,
                     DiagnosticEngine &diags, SourceRange at);

// Chooses the format by content: msModelSlim analyze log (`Score:` lines / `top N:` list),
// analysis_result.yaml (`layer_scores: [{name, score}]`), HMCT node sensitivity JSON dict or log
// table, Horizon QuantAnalysis sensitivity table.
bool readScores(const std::string &path, ir::Scores &out, DiagnosticEngine &diags,
                SourceRange requestedAt = {}, const ReaderLimits &limits = {});

// YAML aliases (`*name`) stand for a copy of what they name, so 288 bytes of nested anchors can
// stand for millions of nodes. Every YAML reader (analysis_result.yaml, qlint's practice YAML
// and config) first counts the nodes the aliases of `text` expand to, nested aliases included,
// and refuses past this many (docs/limits.md).
constexpr size_t kMaxYamlAliasNodes = 100'000;
// False if the aliases of `text` expand to more than `limit` nodes; `line`/`col` (1-based) are
// where the alias that went past the limit is. Syntax errors are left to the caller's parser.
bool checkYamlAliases(const std::string &text, size_t limit, uint32_t &line, uint32_t &col);

// The type the Hugging Face index rule gives a module name that has no shape: Embedding for
// embedding tables, RMSNorm for norms, Linear otherwise (docs/inputs.md).
std::string moduleTypeFromName(const std::string &moduleName);

// Assigns Module::block from a block pattern such as "model.layers.{i}" (prefix match on
// dotted names). Modules outside every block keep -1.
void assignBlocks(ir::Inventory &inv, const Pattern &blockPattern);

} // namespace qspec::readers
