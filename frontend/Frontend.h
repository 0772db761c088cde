// The frontend entry points: .qspec file -> AST (with includes) -> typed ir::Spec, with the
// inventory and scores it names (or the command line overrides) loaded.
#pragma once

#include "frontend/AST.h"
#include "frontend/Parser.h"
#include "frontend/readers/Readers.h"
#include "ir/Diagnostics.h"
#include "ir/IR.h"

#include <memory>
#include <string>

namespace qspec::frontend {

// Reads the inventory and scores files buildSpec loads. Without one, buildSpec calls
// readers::readInventory / readScores each time; a long-lived tool passes one that keeps what it
// read between runs (qspec-lsp: driver/lsp/InputCache.h).
class InputReader {
public:
  virtual ~InputReader() = default;
  virtual bool readInventory(const std::string &path, ir::Inventory &out, DiagnosticEngine &diags,
                             SourceRange requestedAt, const readers::ReaderLimits &limits) = 0;
  virtual bool readScores(const std::string &path, ir::Scores &out, DiagnosticEngine &diags,
                          SourceRange requestedAt, const readers::ReaderLimits &limits) = 0;
};

struct FrontendOptions {
  std::string inventoryOverride; // --inventory
  std::string scoresOverride;    // --scores
  bool loadInputs = true;        // read inventory and scores files
  size_t maxIncludeDepth = 16;
  // The whole include tree of one spec, counting a file each time it is included: a file that
  // includes another 1,000 times, which includes one 1,000 times, would otherwise read a million.
  size_t maxIncludedFiles = 4096;
  uint64_t maxIncludedBytes = 64u << 20;
  size_t maxRules = 100000; // overrides + protects + groups, per spec
  ParseLimits parseLimits;
  readers::ReaderLimits readerLimits;
  std::shared_ptr<InputReader> inputReader; // null: read the files each time
  // The project root (qlint --root, the language server's workspace): when set, every include
  // and every input file the spec names (inventory, config, onnx, onnx_map, scores) must resolve,
  // links followed, to a path inside it (err_path_outside_root). Files named on the command line
  // are the user's choice and not checked.
  std::string root;
};

// Is `path` (links followed, as far as it exists) inside the folder `root`? Always true for an
// empty `root`.
bool insideRoot(const std::string &root, const std::string &path);

// Reads and parses `path`, splicing included files in place of `include` items.
std::unique_ptr<ast::Node> parseFile(const std::string &path, DiagnosticEngine &diags,
                                     const FrontendOptions &opts = {});

// As parseFile, but the top-level file's text is `text` (qlint's standard input, shown as `path`)
// instead of read from `path`; its includes are read from disk, relative to `path`.
std::unique_ptr<ast::Node> parseText(const std::string &path, const std::string &text,
                                     DiagnosticEngine &diags, const FrontendOptions &opts = {});

// Checks the AST and builds the typed spec; loads inventory and scores. Returns false on errors.
bool buildSpec(const ast::Node &root, const std::string &specPath, ir::Spec &spec,
               DiagnosticEngine &diags, const FrontendOptions &opts = {});

// Both steps.
bool loadSpec(const std::string &path, ir::Spec &spec, DiagnosticEngine &diags,
              const FrontendOptions &opts = {});

// Resolves `rel` against the directory of `base` (absolute paths stay).
std::string resolvePath(const std::string &base, const std::string &rel);

// Canonical strategy name ("standing_high" -> "standing-high"); "" if unknown.
std::string canonicalStrategy(std::string_view name);
std::string knownStrategyList();

} // namespace qspec::frontend
