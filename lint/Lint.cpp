// The per-file driver: detect the kind, load and parse, run the enabled rules, apply the
// project config and suppression comments, sort. Files are linted in parallel by lintFiles.
#include "emitters/TargetStage.h"
#include "emitters/Emitter.h"
#include "vendors/amct/AmctConfig.h"
#include "vendors/amct/AmctReader.h"
#include "vendors/compressed_tensors/CompressedTensors.h"
#include "vendors/hmct/HmctRules.h"
#include "vendors/msmodelslim/MsModelSlimRules.h"
#include "frontend/Frontend.h"
#include "frontend/readers/Readers.h"
#include "ir/BoundedInput.h"
#include "lint/Config.h"
#include "lint/Context.h"
#include "passes/Pass.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <filesystem>
#include <map>
#include <new>
#include <mutex>
#include <thread>
#include <type_traits>

namespace qspec::lint {
namespace fs = std::filesystem;

// ---- LintContext ----------------------------------------------------------------------------

Diagnostic &LintContext::report(RuleID rule, SourceRange range, std::string message) {
  Diagnostic d;
  d.code = ruleInfo(rule).id;
  d.severity = ruleInfo(rule).severity;
  d.range = range;
  d.message = std::move(message);
  findings.push_back(std::move(d));
  return findings.back();
}

Diagnostic &LintContext::note(Diagnostic &parent, SourceRange range, std::string message) {
  Diagnostic n;
  n.severity = Severity::Note;
  n.range = range;
  n.message = std::move(message);
  parent.notes.push_back(std::move(n));
  return parent.notes.back();
}

SourceRange LintContext::at(uint32_t line, uint32_t col, uint32_t len) const {
  if (line == 0)
    return SourceRange::point(file, 1, 1, 0);
  std::string_view text = sm.line(file, line);
  if (col == 0)
    col = 1;
  if (len == 0) {
    size_t i = col - 1;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t' && text[i] != ':' && text[i] != '{')
      ++i;
    len = static_cast<uint32_t>(i > col - 1 ? i - (col - 1) : 1);
  }
  return sm.lineRange(file, line, col, len);
}

SourceRange LintContext::wholeLine(uint32_t line) const {
  SourceRange first = sm.lineRange(file, line, 1, 1);
  uint32_t begin = first.begin.offset;
  uint32_t end = begin + static_cast<uint32_t>(sm.line(file, line).size());
  const std::string &t = sm.text(file);
  if (end < t.size() && t[end] == '\r')
    ++end;
  if (end < t.size() && t[end] == '\n')
    ++end;
  return sm.range(file, begin, end);
}

unsigned takeCompilerDiags(SpecInput &ctx, RuleID rule, std::initializer_list<const char *> codes) {
  unsigned n = 0;
  auto &cd = ctx.compilerDiags;
  for (auto it = cd.begin(); it != cd.end();) {
    bool match = false;
    for (const char *c : codes)
      match = match || it->code == c;
    if (!match) {
      ++it;
      continue;
    }
    Diagnostic &d = ctx.report(rule, it->range, it->message + " [" + it->code + "]");
    for (Diagnostic &note : it->notes) {
      note.code.clear();
      d.notes.push_back(std::move(note));
    }
    for (FixIt &f : it->fixits)
      d.fixits.push_back(std::move(f));
    it = cd.erase(it);
    ++n;
  }
  return n;
}

namespace {

std::mutex gFrontendMutex; // the ANTLR runtime's shared caches are not safe to fill concurrently

// Whether Options::stop asks a check to end here; once it did, always.
struct StopCheck {
  const Options &opts;
  bool abandoned = false;
  bool operator()() {
    if (!abandoned && opts.stop && opts.stop())
      abandoned = true;
    return abandoned;
  }
};

// `text`: the spec's text when it came from standard input (else read from ctx.path). False when
// Options::stop ended it early.
bool loadQSpec(SpecInput &ctx, ir::Spec &spec, const Options &opts, const std::string *text) {
  StopCheck stopped{opts};
  DiagnosticEngine diags(ctx.sm);
  diags.setErrorLimit(0);
  frontend::FrontendOptions fo;
  fo.inventoryOverride = opts.inventory;
  fo.scoresOverride = opts.scores;
  fo.inputReader = opts.inputReader;
  fo.root = opts.root;
  {
    std::lock_guard<std::mutex> lock(gFrontendMutex);
    emit::registerAllEmitters();
    auto root = text ? frontend::parseText(ctx.path, *text, diags, fo)
                     : frontend::parseFile(ctx.path, diags, fo);
    if (root && !diags.hasErrors() && !stopped())
      ctx.specBuilt = frontend::buildSpec(*root, ctx.path, spec, diags, fo) && !diags.hasErrors();
  }
  ctx.file = ctx.sm.find(ctx.path);
  if (ctx.specBuilt) {
    // Every pass runs, even after another reported errors: the linter wants all findings.
    passes::PassContext pc{spec, diags};
    for (const passes::PassInfo &info : passes::allPasses()) {
      if (stopped())
        break;
      auto pass = info.create();
      pass->run(pc);
    }
    ctx.specResolved = spec.resolution.done && !stopped.abandoned;
    // What `qcc --emit=all` checks next: every declared target's emitter and translation
    // validation. Like qcc, only for a spec the passes accepted.
    if (opts.checkTargets && !diags.hasErrors() && !stopped())
      emit::checkAllTargets(spec, diags, text ? "stdin" : fs::path(ctx.path).stem().string());
  }
  ctx.spec = &spec;
  for (const Diagnostic &d : diags.diagnostics())
    if (d.severity != Severity::Remark)
      ctx.compilerDiags.push_back(d);
  return !stopped.abandoned;
}

// The located tree of a YAML or JSON file (`text`: what to parse, when not the file's own text).
void readTree(TreeInput &in, bool json, const std::string *text = nullptr) {
  ParseError pe;
  bool ok = json ? parseLocatedJson(in.sm, in.file, *text, in.treeStorage, pe)
                 : parseLocatedYaml(in.sm, in.file, in.treeStorage, pe);
  if (ok)
    in.tree = &in.treeStorage;
  else
    in.parseError = pe;
}

// msModelSlim practices: the located tree, then the vendor model's own reading and checks
// (vendors/msmodelslim/); the rules report its findings. A YAML error leaves `practiceIssues`
// null (invalid-yaml says why).
void readPractice(PracticeInput &in) {
  readTree(in, false);
  DiagnosticEngine diags(in.sm);
  msmodelslim::PracticeDoc doc;
  if (!msmodelslim::parsePractice(in.sm.text(in.file), in.file, doc, diags))
    return;
  in.issueStorage = msmodelslim::checkPractice(doc);
  in.practiceIssues = &in.issueStorage;
}

// --inventory (or --onnx) for a vendor file: the model's modules, read once per run and shared by
// every file (and thread) that asks. Null with `error` set when the file cannot be read.
std::shared_ptr<const ir::Inventory> vendorInventory(const std::string &path, std::string &error) {
  static std::mutex mutex;
  static std::map<std::string, std::pair<std::shared_ptr<const ir::Inventory>, std::string>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(path);
  if (it == cache.end()) {
    auto inv = std::make_shared<ir::Inventory>();
    SourceManager sm;
    DiagnosticEngine diags(sm);
    std::string why;
    if (!readers::readInventory(path, *inv, diags)) {
      for (const Diagnostic &d : diags.diagnostics())
        if (d.severity == Severity::Error || d.severity == Severity::Fatal)
          why += (why.empty() ? "" : "; ") + d.message;
      inv.reset();
      why = "cannot read the inventory '" + path + "': " + (why.empty() ? "unreadable" : why);
    }
    it = cache.emplace(path, std::make_pair(std::move(inv), why)).first;
  }
  error = it->second.second;
  return it->second.first;
}

// HMCT quant_configs: the located tree of the text without comments, then the vendor model's
// reading and checks, once for every rule that reports some of them. A JSON error leaves
// `hmctIssues` null (hmct-invalid-json says why).
void readQuantConfig(QuantConfigInput &in) {
  const std::string &text = in.sm.text(in.file);
  std::string stripped = stripJsonComments(text);
  readTree(in, true, &stripped);
  hmct::QuantConfigDoc doc;
  std::string error;
  uint32_t line = 0, col = 0;
  if (!hmct::parseQuantConfigText(text, doc, error, line, col))
    return;
  in.issueStorage = hmct::checkQuantConfig(doc);
  in.hmctIssues = &in.issueStorage;
}

// AMCT files: the strict parse, then (when it parsed) the vendor model's value checks, once for
// every rule that reports some of them.
void readAmct(AmctInput &ctx) {
  const std::string &text = ctx.sm.text(ctx.file);
  ctx.docStorage = std::make_shared<amct::AmctDocument>();
  amct::AmctDocument &doc = *ctx.docStorage;
  std::vector<amct::ParseError> errors;
  std::vector<std::string> tried;
  amct::KindEvidence ev;
  ctx.amctParsed = amct::parseAmctConfig(text, doc, errors, &tried, &ev);
  ctx.amctDoc = &doc;
  if (!ctx.amctParsed && !ev.field.empty()) {
    ctx.amctKindNote = std::string("read as ") + amct::rootMessageName(ev.kind) + " (" +
                       amct::configKindName(ev.kind) + "): '" + ev.field +
                       "' is a field of that message only";
    ctx.amctKindLine = ev.line;
    ctx.amctKindCol = ev.col;
  }
  for (const auto &e : errors)
    ctx.amctErrors.push_back({e.line, e.col, e.message});
  for (const auto &t : tried)
    ctx.amctTried += (ctx.amctTried.empty() ? "" : " | ") + t;
  if (!ctx.amctParsed)
    return;
  amct::CheckOptions opts;
  opts.hardware = ctx.opts.amctHardware;
  // --amct-framework: which type names and per-framework fields the checks may judge.
  opts.framework = amct::parseFramework(ctx.opts.amctFramework).value_or(amct::Framework::Unknown);
  opts.pytorchTypes = amct::usesPyTorchTypes(opts.framework);
  // --inventory: each layer's name and type, for the checks that need the graph (a layer that
  // does not exist, skip_fusion_layers types, overrides by type of skipped layers).
  // A tied output head counts as a layer (amct::addInventoryLayers), as qcc writes it in
  // skip_layers; not for a bare ONNX graph, whose layers are its nodes.
  std::shared_ptr<const ir::Inventory> inv = ctx.inventory;
  std::string tiedHead; // outlives opts.layerTypes' views
  if (inv) {
    amct::addInventoryLayers(*inv, ir::ModelConfig{}, opts, tiedHead);
    if (opts.framework == amct::Framework::Onnx && !tiedHead.empty())
      opts.layerTypes.pop_back();
    opts.uniqueLayerNames = true;
  }
  ctx.findingStorage = amct::checkDocument(doc, opts);
  ctx.amctFindings = &ctx.findingStorage;
}

// llm-compressor recipes and quantization_configs: the vendor model's checks, against the
// inventory's modules when there is one.
void readRecipe(RecipeInput &ctx) {
  ctx.ctIssues = vendors::ct::checkDocument(ctx.sm.text(ctx.file),
                                            ctx.inventory ? &ctx.inventory->modules : nullptr);
}

} // namespace

std::mutex &frontendMutex() { return gFrontendMutex; }

// The extensions of the files qlint lints (.qspec and the vendor configs), case-insensitive.
static bool hasConfigExtension(const std::string &path) {
  std::string e = std::filesystem::path(path).extension().string();
  for (char &c : e)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return e == ".qspec" || e == ".yaml" || e == ".yml" || e == ".json" || e == ".jsonc" ||
         e == ".cfg";
}

namespace {
// Reads the file to lint into `sm` (standard input under the name it is shown as); 0 and
// `res.internalError` set when it cannot be read.
FileID readLintInput(SourceManager &sm, const std::string &path, bool fromStdin,
                     std::string &stdinText, FileResult &res) {
  const size_t maxBytes = 64u << 20;
  std::string err;
  FileID f = 0;
  if (fromStdin) {
    SourceManager in; // registers it as <stdin>: re-added under the name it is shown as
    if (FileID s = in.loadFile("-", err, maxBytes)) {
      stdinText = in.text(s);
      f = sm.addFile(path, stdinText);
    }
  } else {
    f = sm.loadFile(path, err, maxBytes);
  }
  if (!f)
    res.internalError = "cannot read '" + path + "': " + err;
  return f;
}

void runRules(FileKind kind, const EffectiveRules &rules, LintContext &ctx) {
  for (const RuleInfo &r : allRules())
    if (r.kind == kind && rules.enabled[static_cast<size_t>(r.rule)] && r.check)
      r.check(ctx);
}

// A .qspec: the frontend loads it itself (includes, inputs) into a fresh manager, so the file's
// id is the frontend's; then the spec rules. False when it could not be read or Options::stop
// ended the check (res.abandoned).
bool lintQSpec(const std::string &path, const Options &local, const EffectiveRules &rules,
               const std::string *stdinText, FileResult &res) {
  res.sm = std::make_shared<SourceManager>();
  res.sm->setOverlay(local.overlay);
  SpecInput qctx(*res.sm, local);
  qctx.path = path;
  qctx.kind = res.kind;
  ir::Spec spec;
  if (!loadQSpec(qctx, spec, local, stdinText)) {
    res.abandoned = true;
    return false;
  }
  if (!qctx.file) {
    // Unreadable: the frontend said why.
    for (const Diagnostic &d : qctx.compilerDiags)
      res.internalError += (res.internalError.empty() ? "" : "; ") + d.message;
    if (res.internalError.empty())
      res.internalError = "cannot read '" + path + "'";
    return false;
  }
  if (local.stop && local.stop()) {
    res.abandoned = true;
    return false;
  }
  runRules(FileKind::QSpec, rules, qctx);
  // Compiler errors no enabled rule took still make the spec invalid.
  if (!rules.enabled[static_cast<size_t>(RuleID::SpecInvalid)])
    qctx.compilerDiags.clear();
  res.file = qctx.file;
  res.findings = std::move(qctx.findings);
  return true;
}

// A vendor file: its kind's reader fills the kind's input, then the rules of that kind run on it.
template <typename Input>
void lintVendorInput(SourceManager &sm, FileID f, const std::string &path, const Options &local,
                     const EffectiveRules &rules, FileResult &res, void (*read)(Input &)) {
  Input in(sm, local);
  in.path = path;
  in.kind = res.kind;
  in.file = f;
  if constexpr (std::is_base_of_v<VendorInput, Input>) {
    if (!rules.vendorInventory.empty()) {
      in.inventory = vendorInventory(rules.vendorInventory, res.internalError);
      if (!in.inventory)
        return;
    }
  }
  if (read)
    read(in);
  runRules(res.kind, rules, in);
  res.findings = std::move(in.findings);
  res.file = f;
}

void lintVendorFile(SourceManager &sm, FileID f, const std::string &path, const Options &local,
                    const EffectiveRules &rules, FileResult &res) {
  // AMCT's protobuf text and HMCT's JSON are UTF-8 and nest within bounds (ir/BoundedInput.h),
  // checked before their readers build anything; the refusal says where, never quoting the file.
  // (YAML: the located reader counts nesting, and msmodelslim-invalid-character names a byte
  // that is not ASCII.)
  if (res.kind == FileKind::Amct || res.kind == FileKind::Hmct) {
    const std::string &text = sm.text(f);
    if (bounded::Problem p = bounded::checkText(
            text, res.kind == FileKind::Hmct ? bounded::Syntax::Json : bounded::Syntax::Yaml)) {
      uint32_t line = 0, col = 0;
      bounded::lineColumn(text, p.offset, line, col);
      res.internalError =
          path + ":" + std::to_string(line) + ":" + std::to_string(col) + ": " + p.message;
      return;
    }
  }
  switch (res.kind) {
  case FileKind::MsModelSlim:
    return lintVendorInput<PracticeInput>(sm, f, path, local, rules, res, &readPractice);
  case FileKind::Hmct:
    return lintVendorInput<QuantConfigInput>(sm, f, path, local, rules, res, &readQuantConfig);
  case FileKind::Amct:
    return lintVendorInput<AmctInput>(sm, f, path, local, rules, res, &readAmct);
  case FileKind::CompressedTensors:
    return lintVendorInput<RecipeInput>(sm, f, path, local, rules, res, &readRecipe);
  default: // Unknown: lint-unknown-file on the common input
    return lintVendorInput<LintContext>(sm, f, path, local, rules, res, nullptr);
  }
}

// Severities from the config and -Werror, suppressions, a location for every finding, and the
// findings in source order.
void finishFindings(const EffectiveRules &rules, FileResult &res) {
  // A rule may give one finding a severity other than its default (AMCT: a duplicate is an
  // error in PTQ, a warning in QAT); the config replaces it, and -Werror promotes warnings.
  for (Diagnostic &d : res.findings)
    if (const RuleInfo *r = findRule(d.code)) {
      size_t i = static_cast<size_t>(r->rule);
      if (rules.configured[i])
        d.severity = rules.severity[i];
      if (rules.promote[i] && d.severity == Severity::Warning)
        d.severity = Severity::Error;
    }
  applySuppressions(res, rules);
  for (Diagnostic &d : res.findings)
    if (d.range.file == 0)
      d.range = SourceRange::point(res.file, 1, 1, 0);
  std::stable_sort(res.findings.begin(), res.findings.end(),
                   [](const Diagnostic &a, const Diagnostic &b) {
                     if (a.range.begin.line != b.range.begin.line)
                       return a.range.begin.line < b.range.begin.line;
                     if (a.range.begin.col != b.range.begin.col)
                       return a.range.begin.col < b.range.begin.col;
                     return a.code < b.code;
                   });
}
} // namespace

FileResult lintFile(const std::string &given, const Options &opts) {
  FileResult res;
  // Standard input is linted as --stdin-filename's file, or shown as <stdin> with its kind from
  // its content and .qlint.yaml from the current folder.
  const bool fromStdin = given == "-";
  const std::string path = !fromStdin                   ? given
                           : opts.stdinFilename.empty() ? kStdinName
                                                        : opts.stdinFilename;
  res.path = path;
  res.sm = std::make_shared<SourceManager>();
  SourceManager &sm = *res.sm;
  sm.setOverlay(opts.overlay);

  EffectiveRules rules;
  if (!effectiveRules(path, opts, rules, res.internalError))
    return res;
  std::string stdinText;
  FileID f = readLintInput(sm, path, fromStdin, stdinText, res);
  if (!f)
    return res;
  res.kind = fromStdin && opts.stdinFilename.empty() ? detectContentKind(stdinText)
                                                     : detectFileKind(path, sm.text(f));
  // The hook also passes YAML, JSON and .cfg files that are no vendor's: a .cfg is an AMCT config
  // there only when its first line is one (`field:` or `message {`), not `key = value`.
  if (opts.hook && res.kind == FileKind::Amct && detectContentKind(sm.text(f)) != FileKind::Amct)
    res.kind = FileKind::Unknown;
  const bool named = std::find(opts.named.begin(), opts.named.end(), given) != opts.named.end();
  // Fail closed for what claims to be a config (a config extension, or standard input); a named
  // file of another kind (a .txt inventory pre-commit passes, notes) that no spec reads is skipped.
  const bool failClosed = named && rules.enabled[static_cast<size_t>(RuleID::LintUnknownFile)] &&
                          (fromStdin || hasConfigExtension(path));
  if (res.kind == FileKind::Unknown && !failClosed) {
    res.skipped = true;
    res.file = f;
    return res;
  }

  Options local = opts;
  local.amctHardware = rules.amctHardware;
  local.amctFramework = rules.amctFramework;
  local.root = rules.root;
  if (res.kind == FileKind::QSpec) {
    if (!lintQSpec(path, local, rules, fromStdin ? &stdinText : nullptr, res))
      return res;
  } else {
    lintVendorFile(sm, f, path, local, rules, res);
    if (!res.internalError.empty())
      return res;
    // In hook mode lint-unknown-file reports only a near-miss marker key; without one the file
    // is not ours and is skipped.
    if (res.kind == FileKind::Unknown && opts.hook && res.findings.empty()) {
      res.skipped = true;
      return res;
    }
  }
  finishFindings(rules, res);
  return res;
}

std::vector<FileResult> lintFiles(const std::vector<std::string> &paths, const Options &opts) {
  emit::registerAllEmitters();
  std::vector<FileResult> results(paths.size());
  unsigned jobs =
      opts.jobs ? opts.jobs : std::min(4u, std::max(1u, std::thread::hardware_concurrency()));
  if (paths.size() < 8)
    jobs = 1;
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < paths.size(); i = next++) {
      try {
        results[i] = lintFile(paths[i], opts);
      } catch (const std::bad_alloc &) {
        results[i] = FileResult{};
        results[i].path = paths[i];
        results[i].internalError = "out of memory linting '" + paths[i] + "' [err_out_of_memory]";
      }
    }
  };
  if (jobs <= 1) {
    worker();
    return results;
  }
  std::vector<std::thread> pool;
  for (unsigned j = 0; j < jobs; ++j)
    pool.emplace_back(worker);
  for (auto &t : pool)
    t.join();
  return results;
}

} // namespace qspec::lint
