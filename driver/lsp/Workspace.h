// The language server's documents and the analyses it runs on them, in qspec types only (the
// JSON side is Server.cpp). Diagnostics come from qlint's pipeline (lint::lintFile: parse, every
// pass, every rule, with the open buffers as a source overlay); hover, completion, definition and
// symbols read a resolved model (frontend::loadSpec + passes::runPipeline), built on first need
// per document version.
#pragma once

#include "driver/lsp/InputCache.h"
#include "frontend/AST.h"
#include "ir/IR.h"
#include "lint/Lint.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace qspec::lsp {

struct ServerOptions {
  std::string inventory, scores; // --inventory / --scores, as for qcc and qlint
  // Edits are checked once none has come for this long (a burst gives one check, of its last
  // version). --debounce-ms.
  int debounceMs = 100;
  // The descriptor behind the input stream, polled to see whether more messages are coming
  // (-1: only what the stream has buffered counts).
  int inputFd = -1;
  // Includes and input files of an open spec must be inside this folder (frontend::
  // FrontendOptions::root): --root=DIR, else the workspace root the client names in
  // `initialize`, unless its initializationOptions say {"confine": false}.
  std::string root;
  // Each check and each request stops, and is answered with an error, once it has run this long
  // (--time-budget-ms; 0 = none) or the server's resident memory passes this many MiB
  // (--memory-budget-mb; 0 = none). A document over maxDocumentBytes (--max-document-bytes) is
  // not checked at all.
  int timeBudgetMs = 0;
  int memoryBudgetMb = 0;
  size_t maxDocumentBytes = size_t(16) << 20;
};

// One document version, resolved.
struct Model {
  SourceManager sm;
  FileID file = 0;                // the document in `sm` (0: it could not be read)
  std::unique_ptr<ast::Node> ast; // includes spliced in: nodes of other files have other ids
  ir::Spec spec;
  bool built = false;    // the spec was built (its inventory is loaded)
  bool passesOk = false; // the passes ran and reported no error
  // The declared targets' own checks (Workspace::checkTargets).
  std::vector<Diagnostic> targetDiags;
  bool targetsChecked = false;
  bool abandoned = false; // Workspace::stop ended the build early: not a usable model
};

struct Document {
  std::string uri, path, text;
  int64_t version = 0;
  lint::FileResult lastCheck;       // the findings last published
  std::shared_ptr<Model> model;     // of `version`, or null
  std::shared_ptr<Model> lastBuilt; // the newest model whose spec was built
  std::shared_ptr<Model> saved;     // of the file as saved on disk, when it differs
  std::string savedText;            // the disk text `saved` was built from
};

class Workspace {
public:
  explicit Workspace(ServerOptions o) : opts_(std::move(o)) {}
  // The project root, when --root did not give one (from `initialize`).
  void setDefaultRoot(const std::string &root) {
    if (opts_.root.empty())
      opts_.root = root;
  }
  const std::string &root() const { return opts_.root; }
  const ServerOptions &options() const { return opts_; }

  // Asked between the stages of a check or a model build (the server's cancellation: a newer
  // edit, $/cancelRequest, a spent budget). An abandoned check or model is never kept.
  std::function<bool()> stop;

  Document &open(const std::string &uri, const std::string &path, std::string text,
                 int64_t version);
  Document *find(const std::string &uri);
  void change(Document &doc, std::string text, int64_t version);
  void close(const std::string &uri);

  // Lints `doc` as qlint would (its findings are kept in doc.lastCheck).
  const lint::FileResult &check(Document &doc);
  // The resolved model of the document's current text.
  const Model &model(Document &doc);
  // The declared targets' own checks on the current text: every target's emitter run on the
  // resolved model (output discarded), as `qcc --emit=all` would, once the passes reported no
  // error. Run once per document version.
  const std::vector<Diagnostic> &checkTargets(Document &doc);
  // The newest model with a built spec (for completion while the text does not parse), or the
  // current one.
  const Model &modelWithInventory(Document &doc);
  // The resolved model of the document as saved on disk (its includes and inputs too): the
  // current model when the buffer equals the file or the file cannot be read; rebuilt when the
  // file changes.
  const Model &savedModel(Document &doc);

private:
  // Parses, builds and resolves `path` with `overlay` (null: every file from disk).
  std::shared_ptr<Model> buildModel(const std::string &path, SourceManager::Overlay overlay);
  SourceManager::Overlay overlay() const;

  ServerOptions opts_;
  // The inventory and scores read by earlier checks (re-read when a file changes on disk).
  std::shared_ptr<InputCache> inputs_ = std::make_shared<InputCache>();
  std::map<std::string, Document> docs_;
  // The last abandoned check or model, kept only until the server has answered.
  lint::FileResult abandonedCheck_;
  std::shared_ptr<Model> abandonedModel_;
};

} // namespace qspec::lsp
