// qcc import FILE... [--inventory INV] [--kind K] [-o spec.qspec] [--roundtrip]
//
// Reads each FILE through its vendor's document model (kind detected as qlint does, or --kind),
// writes one .qspec that means what the vendor tools do with the files (docs/import.md). With an
// inventory the result is verified: the spec is compiled, the target emitted, and the vendor's
// reading of the emitted file must equal its reading of FILE on every module
// (err_import_reading_differs otherwise); --roundtrip prints that comparison as a table row per
// file. Several files of one model merge into one spec; where their readings disagree on a
// module, the first file's rule stands and the other file's is written as a commented override
// (warn_import_disagree). Nothing is written on an error.
//
// Exit codes: 0 success, 1 errors in the input, 2 usage.
#include "driver/qcc/Import.h"

#include "driver/qcc/import/Importer.h"
#include "emitters/Emitter.h"
#include "frontend/Format.h"
#include "frontend/Frontend.h"
#include "frontend/Parser.h"
#include "ir/BoundedInput.h"
#include "passes/Pass.h"
#include "vendors/FileKind.h"
#include "vendors/Reading.h"
#include "vendors/hmct/HmctRules.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <tuple>

namespace qspec::driver {
namespace {

using frontend::qspecString;
namespace fs = std::filesystem;

const char *kImportUsage =
    R"(usage: qcc import FILE... [--inventory INV] [--kind K] [-o spec.qspec] [--roundtrip]

  FILE            an msModelSlim practice (.yaml), an AMCT config (.cfg), an HMCT
                  quant_config (.json), a Horizon QconfigSetter module (.py), an
                  llm-compressor recipe (.yaml) or a compressed-tensors config (.json)
  --inventory INV the model's module inventory: compresses name lists, decides what several
                  linear_quant processors do, and verifies the import on every module
  --kind K        msmodelslim | amct | hmct | horizon | llm-compressor (default: detected
                  as qlint does; .py is horizon)
  -o PATH         the spec to write (default: standard output)
  --roundtrip     print, per FILE, whether the vendor reading of the re-emitted file equals
                  FILE's and whether the bytes are identical (needs --inventory)
)";

int importUsageError(const std::string &msg) {
  std::cerr << "qcc import: error: " << msg << "\n" << kImportUsage;
  return 2;
}

// Parses argv; -1 to continue, else an exit code.
int parseImportArgs(int argc, char **argv, ImportOptions &o) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char *flag, std::string &out) {
      if (a != flag)
        return false;
      if (i + 1 >= argc)
        throw std::string(flag);
      out = argv[++i];
      return true;
    };
    try {
      if (a == "--help" || a == "-h") {
        std::cout << kImportUsage;
        return 0;
      }
      if (value("--inventory", o.inventory) || value("--kind", o.kind) || value("-o", o.output))
        continue;
    } catch (const std::string &flag) {
      return importUsageError("option '" + flag + "' needs a value");
    }
    if (a == "--roundtrip")
      o.roundtrip = true;
    else if (!a.empty() && a[0] == '-')
      return importUsageError("unknown option '" + sanitizeForTerminal(a) + "'");
    else
      o.files.push_back(a);
  }
  if (o.files.empty())
    return importUsageError("no input file");
  if (!o.kind.empty() && o.kind != "msmodelslim" && o.kind != "amct" && o.kind != "hmct" &&
      o.kind != "horizon" && o.kind != "llm-compressor")
    return importUsageError("--kind must be msmodelslim, amct, hmct, horizon or llm-compressor");
  if (o.roundtrip && o.inventory.empty())
    return importUsageError("--roundtrip needs --inventory");
  if (o.output == "-")
    o.output.clear();
  return -1;
}

// A spec compiled from `text` (shown as `path`) against the inventory `inv` ("" none).
bool compileText(const std::string &path, const std::string &text, const std::string &inv,
                 ir::Spec &spec, DiagnosticEngine &diags) {
  frontend::FrontendOptions fo;
  fo.inventoryOverride = inv;
  auto root = frontend::parseText(path, text, diags, fo);
  return root && !diags.hasErrors() && frontend::buildSpec(*root, path, spec, diags, fo) &&
         passes::runPipeline(spec, diags);
}

std::string kindOf(const std::string &path, const std::string &text, const ImportOptions &o) {
  if (!o.kind.empty())
    return o.kind;
  return vendors::vendorTargetKind(path, text);
}

struct Imported {
  std::string text; // the file's bytes (the SourceManager's may move as files are added)
  import::Source src;
  std::string kind;
  import::ImportedSpec spec;
};

// The bounded-input layer's checks on a vendor file before any reader builds a tree: UTF-8,
// nesting (512 levels of brackets), and for HMCT's JSON a key repeated in one object (json.loads
// would keep the last value in silence). Each refusal says where, never quoting the file.
bool checkVendorText(const Imported &in, FileID f, DiagnosticEngine &diags) {
  const bool json = in.kind == "hmct";
  bounded::Problem p =
      bounded::checkText(in.text, json ? bounded::Syntax::Json : bounded::Syntax::Yaml);
  std::string located = in.text;
  if (!p && json) {
    located = hmct::stripHmctComments(in.text); // lines kept; a syntax error is the reader's
    p = bounded::checkJsonDocument(located);
    if (p.kind != bounded::Refusal::DuplicateKey)
      p = {};
  }
  if (!p)
    return true;
  uint32_t line = 0, col = 0;
  bounded::lineColumn(located, p.offset, line, col);
  diags.report(DiagID::err_import_unsupported, SourceRange::point(f, line, col),
               {in.src.path, p.message});
  return false;
}

bool importOne(const std::string &path, const ImportOptions &o, const import::Context &ctx,
               Imported &out) {
  SourceManager &sm = ctx.diags.sourceManager();
  std::string err;
  FileID f = sm.loadFile(path, err, frontend::ParseLimits{}.maxFileBytes);
  if (!f) {
    ctx.diags.report(DiagID::err_cannot_open_file, SourceRange{}, {path, err});
    return false;
  }
  out.text = sm.text(f);
  out.src = import::Source{path, f, &out.text};
  out.kind = kindOf(path, sm.text(f), o);
  if (!checkVendorText(out, f, ctx.diags))
    return false;
  if (out.kind == "amct")
    return import::importAmct(out.src, ctx, out.spec);
  if (out.kind == "msmodelslim")
    return import::importMsModelSlim(out.src, ctx, out.spec);
  if (out.kind == "hmct")
    return import::importHmct(out.src, ctx, out.spec);
  if (out.kind == "horizon")
    return import::importHorizon(out.src, ctx, out.spec);
  if (out.kind == "llm-compressor")
    return import::importCompressedTensors(out.src, ctx, out.spec);
  ctx.diags.report(out.kind.empty() ? DiagID::err_import_unknown_kind
                                    : DiagID::err_import_unsupported,
                   SourceRange::point(f, 1, 1), {path, out.kind});
  return false;
}

} // namespace
} // namespace qspec::driver

namespace qspec::driver {
namespace {

using frontend::qspecString;

// The vendor's readings of the original file and of the file emitted from `spec` differ?
// Prints the --roundtrip row. Returns false when the readings differ (reported).
struct RoundTrip {
  bool readingEqual = true, bytesEqual = false, ok = true;
  size_t differing = 0;
  std::string firstDifference;
};

bool sameRole(const vendors::RoleReading &a, const vendors::RoleReading &b, uint32_t fields,
              bool weight) {
  using namespace vendors;
  auto on = [&](Field w, Field a2) { return (fields & (weight ? w : a2)) != 0; };
  return (!on(FieldWeightDtype, FieldActDtype) || a.dtype == b.dtype) &&
         (!on(FieldWeightScope, FieldActScope) || a.scope == b.scope) &&
         (!on(FieldWeightSymmetric, FieldActSymmetric) || a.symmetric == b.symmetric) &&
         (!on(FieldWeightMethod, FieldActMethod) || a.method == b.method);
}

std::string describe(const vendors::ModuleReading &r) {
  if (!r.known)
    return "not decided";
  if (r.tier == ir::Tier::Float && !r.weight.dtype)
    return "float";
  auto role = [](const vendors::RoleReading &x) {
    return x.dtype.value_or("-") + " " + x.scope.value_or("-") + " " +
           (x.symmetric ? (*x.symmetric ? "symmetric" : "asymmetric") : "-") + " " +
           x.method.value_or("-");
  };
  return std::string("tier ") + ir::tierName(r.tier) + ", weight " + role(r.weight) + ", act " +
         role(r.act);
}

RoundTrip roundTrip(ir::Spec &spec, const Imported &im, const import::Context &ctx) {
  DiagnosticEngine &diags = ctx.diags;
  RoundTrip rt;
  const ir::Target *target = spec.target(im.kind);
  vendors::ReadBack read = vendors::findReader(im.kind);
  std::vector<emit::EmitResult> emitted =
      target ? emit::emitTargets(spec, {target}, diags) : std::vector<emit::EmitResult>{};
  if (!read || emitted.empty() || !emitted[0].ok) {
    rt.ok = rt.readingEqual = false;
    return rt;
  }
  const std::string &bytes = emitted[0].out.buffer();
  rt.bytesEqual = bytes == *im.src.text;
  // Everything else the vendor reads (settings the module readings do not show).
  if (im.kind == "msmodelslim")
    import::compareMsModelSlim(im.src, bytes, ctx);
  else if (im.kind == "amct")
    import::compareAmct(im.src, bytes, ctx);
  else if (im.kind == "hmct")
    import::compareHmct(im.src, bytes, ctx);
  vendors::VendorReading before, after;
  std::set<std::string> undecided(im.spec.undecided.begin(), im.spec.undecided.end());
  if (!read(spec, *target, *im.src.text, before, diags) ||
      !read(spec, *target, bytes, after, diags)) {
    rt.ok = rt.readingEqual = false;
    return rt;
  }
  for (size_t m = 0; m < before.modules.size() && m < after.modules.size(); ++m) {
    const vendors::ModuleReading &a = before.modules[m], &b = after.modules[m];
    if (undecided.count(spec.inventory.modules[m].name))
      continue; // the file says something no spec can say there (reported as not carried)
    bool same = a.known == b.known &&
                (!a.known || ((!(before.fields & vendors::FieldTier) || a.tier == b.tier) &&
                              sameRole(a.weight, b.weight, before.fields, true) &&
                              sameRole(a.act, b.act, before.fields, false)));
    if (same)
      continue;
    if (rt.differing++ < 5)
      diags.report(DiagID::err_import_reading_differs,
                   SourceRange::point(im.src.file, a.line ? a.line : 1, a.column ? a.column : 1),
                   {spec.inventory.modules[m].name, describe(a), describe(b)});
    rt.readingEqual = false;
  }
  return rt;
}

// The --roundtrip row: `reading equal` only when every module reads the same and the file has no
// setting the spec does not carry; otherwise each such setting, located in the file.
void printRoundTrip(std::ostream &out, const Imported &im, const RoundTrip &rt,
                    const std::vector<import::NotCarried> &notCarried, const SourceManager &sm) {
  std::vector<const import::NotCarried *> mine;
  for (const import::NotCarried &n : notCarried)
    if (n.file == im.src.file)
      mine.push_back(&n);
  std::stable_sort(mine.begin(), mine.end(), [](const auto *x, const auto *y) {
    return std::tie(x->line, x->col) < std::tie(y->line, y->col);
  });
  bool equal = rt.readingEqual && mine.empty();
  out << im.src.path << "\t" << im.kind << "\treading " << (equal ? "equal" : "DIFFERS")
      << "\tbytes " << (rt.bytesEqual ? "identical" : "differ");
  if (!mine.empty()) {
    out << "\tnot carried:";
    for (size_t i = 0; i < mine.size(); ++i)
      out << (i ? ";" : "") << " " << sm.path(im.src.file) << ":" << mine[i]->line << ":"
          << mine[i]->col << " " << sanitizeForTerminal(mine[i]->what);
  }
  out << "\n";
}

// The printed, formatted spec; "" after an error.
std::string specText(import::ImportedSpec &s, DiagnosticEngine &diags, const std::string &name) {
  std::string raw = import::printSpec(s), out;
  FileID f = diags.sourceManager().addFile(name, raw);
  if (!frontend::formatSpec(f, diags, out))
    diags.report(DiagID::err_internal, SourceRange{}, {"the imported spec does not parse"});
  return out;
}

// What a reading says about a module's data types, for comparing two vendors' readings:
// "float", or "weight W, act A".
std::string dtypeSummary(const vendors::ModuleReading &r) {
  if (r.tier == ir::Tier::Float && !r.weight.dtype)
    return "float";
  std::string tier = ir::tierName(r.tier);
  std::string w = r.weight.dtype.value_or(tier == "int16" ? "int8" : tier);
  std::string a = r.act.dtype.value_or(tier == "int4" ? "int8" : tier);
  return "weight " + w + ", act " + a;
}

// Modules both readings decide but with different data types: one warning per module, and per
// distinct reading of the other file one commented override over those modules.
void disagreements(const Imported &a, const vendors::VendorReading &ra, const Imported &b,
                   const vendors::VendorReading &rb, const import::Context &ctx,
                   import::ImportedSpec &out) {
  const auto &mods = ctx.inventory->inventory.modules;
  std::map<std::string, std::vector<std::string>> byReading; // b's summary -> modules
  size_t n = std::min(ra.modules.size(), rb.modules.size());
  for (size_t m = 0; m < n; ++m) {
    const vendors::ModuleReading &x = ra.modules[m], &y = rb.modules[m];
    if (!x.known || !y.known || dtypeSummary(x) == dtypeSummary(y))
      continue;
    ctx.diags.report(DiagID::warn_import_disagree,
                     SourceRange::point(b.src.file, y.line ? y.line : 1, y.column ? y.column : 1),
                     {mods[m].name, b.src.path, dtypeSummary(y), a.src.path, dtypeSummary(x)});
    byReading[dtypeSummary(y)].push_back(mods[m].name);
  }
  for (const auto &[summary, names] : byReading) {
    out.trailer.push_back(" disagreement: " + b.src.path + " reads " + summary + " where " +
                          a.src.path + " reads otherwise (" + std::to_string(names.size()) +
                          " modules); " + a.src.path + "'s rules stand. To follow " + b.src.path +
                          ", uncomment:");
    std::string sel;
    for (const std::string &p : import::namePatterns(ctx, names))
      sel += (sel.empty() ? "" : ", ") + qspecString(p);
    std::string body = "tier float";
    if (summary != "float") {
      std::string w = summary.substr(7, summary.find(',') - 7),
                  act = summary.substr(summary.find("act ") + 4);
      body = "tier " +
             (w == "int4"      ? w
              : act == "int16" ? act
                               : w) +
             "; weight " + w + "; act " + act;
    }
    out.trailer.push_back(" override name " + sel + " { " + body + " }");
  }
}

// The reading of `im`'s file through its own single-file spec; false after an error.
bool ownReading(Imported &im, const import::Context &ctx, const std::string &inventory,
                ir::Spec &spec, vendors::VendorReading &out) {
  std::string text = specText(im.spec, ctx.diags, im.src.path + ".qspec");
  if (text.empty() || !compileText(im.src.path + ".qspec", text, inventory, spec, ctx.diags))
    return false;
  const ir::Target *t = spec.target(im.kind);
  vendors::ReadBack read = vendors::findReader(im.kind);
  return t && read && read(spec, *t, *im.src.text, out, ctx.diags);
}

// Several files: the first file's rules, every file's target; each module the files read
// differently is reported and written as a commented override.
bool mergeImports(std::vector<Imported> &files, const import::Context &ctx,
                  const std::string &inventory, import::ImportedSpec &out) {
  out = files[0].spec;
  if (files.size() == 1)
    return true;
  if (!ctx.inventory) {
    ctx.diags.report(DiagID::err_import_needs_inventory,
                     SourceRange::point(files[1].src.file, 1, 1),
                     {"merging " + std::to_string(files.size()) + " files"});
    return false;
  }
  ir::Spec firstSpec;
  vendors::VendorReading first;
  if (!ownReading(files[0], ctx, inventory, firstSpec, first))
    return false;
  for (size_t j = 1; j < files.size(); ++j) {
    for (size_t k = 0; k < j; ++k)
      if (files[k].kind == files[j].kind) {
        ctx.diags.report(DiagID::err_import_same_kind, SourceRange::point(files[j].src.file, 1, 1),
                         {files[j].src.path, files[k].src.path, files[j].kind});
        return false;
      }
    for (import::TargetBlock &t : files[j].spec.targets) {
      t.comments.insert(t.comments.begin(), " from " + files[j].src.path);
      out.targets.push_back(t);
    }
    ir::Spec spec;
    vendors::VendorReading other;
    if (!ownReading(files[j], ctx, inventory, spec, other))
      return false;
    disagreements(files[0], first, files[j], other, ctx, out);
  }
  return true;
}

// `inventory` relative to the folder of the spec written at `output` (standard output: as given).
std::string inventoryForSpec(const std::string &inventory, const std::string &output) {
  if (output.empty())
    return inventory;
  std::error_code ec;
  fs::path rel =
      fs::relative(fs::absolute(inventory, ec), fs::absolute(output, ec).parent_path(), ec);
  return ec || rel.empty() ? fs::absolute(inventory, ec).string() : rel.generic_string();
}

// Replays `from` (the verification of the spec printed as `specPath`) into `to`, each diagnostic
// in the spec's text moved to the input file: to where the input says the rule it falls in
// (ImportedSpec's override origins), else to `fallback`'s first line. The spec is not written
// after an error, so no diagnostic may point into it.
void replayInInputs(const DiagnosticEngine &from, const std::string &specPath, const ir::Spec &spec,
                    const import::ImportedSpec &merged, FileID fallback, DiagnosticEngine &to) {
  const SourceManager &sm = to.sourceManager();
  auto inInput = [&](const SourceRange &r) {
    for (size_t i = 0;
         i < spec.overrides.size() && spec.overrides.size() == merged.overrides.size(); ++i) {
      const SourceRange &o = spec.overrides[i].range;
      if (o.file == r.file && o.begin.line <= r.begin.line && r.begin.line <= o.end.line &&
          merged.overrides[i].origin.valid())
        return merged.overrides[i].origin;
    }
    return SourceRange::point(fallback, 1, 1);
  };
  for (Diagnostic d : from.diagnostics()) {
    if (d.range.valid() && sm.path(d.range.file) == specPath) {
      d.range = inInput(d.range);
      d.fixits.clear(); // they edit the spec's text
    }
    for (Diagnostic &n : d.notes)
      if (n.range.valid() && sm.path(n.range.file) == specPath)
        n.range = inInput(n.range);
    to.report(std::move(d));
  }
}

} // namespace

std::string importSpec(const ImportOptions &o, DiagnosticEngine &diags, std::string &rows) {
  SourceManager &sm = diags.sourceManager();
  ir::Spec inventorySpec;
  if (!o.inventory.empty() &&
      !compileText("<import>", "qspec 1\n", o.inventory, inventorySpec, diags))
    return "";
  std::vector<import::NotCarried> notCarried;
  import::Context ctx{o.inventory.empty() ? nullptr : &inventorySpec, diags, &notCarried};
  std::vector<Imported> files(o.files.size());
  bool ok = true;
  for (size_t i = 0; i < o.files.size(); ++i)
    ok = importOne(o.files[i], o, ctx, files[i]) && ok;
  if (!ok)
    return "";
  import::ImportedSpec merged;
  if (!mergeImports(files, ctx, o.inventory, merged))
    return "";
  std::string specPath = o.output.empty() ? "imported.qspec" : o.output;
  if (!o.inventory.empty())
    merged.inventory = inventoryForSpec(o.inventory, o.output);
  std::string text = specText(merged, diags, specPath);
  if (diags.hasErrors())
    return "";
  ir::Spec spec;
  DiagnosticEngine verify(sm); // the spec's diagnostics, moved to the input files below
  verify.copyWarningPolicy(diags);
  bool compiled = compileText(specPath, text, o.inventory, spec, verify);
  RoundTrip rt;
  if (compiled) // the first file's rules stand
    rt = roundTrip(spec, files.front(), import::Context{ctx.inventory, verify, &notCarried});
  replayInInputs(verify, specPath, spec, merged, files.front().src.file, diags);
  if (!compiled) {
    diags.report(DiagID::err_internal, SourceRange{}, {"the imported spec does not compile"});
    return "";
  }
  if (o.roundtrip) {
    std::ostringstream os;
    printRoundTrip(os, files.front(), rt, notCarried, sm);
    rows += os.str();
  }
  return diags.hasErrors() ? "" : text;
}

int runImport(int argc, char **argv) {
  ImportOptions o;
  if (int rc = parseImportArgs(argc, argv, o); rc >= 0)
    return rc;
  emit::registerAllEmitters();
  SourceManager sm;
  DiagnosticEngine diags(sm);
  std::string rows;
  std::string text = importSpec(o, diags, rows);
  std::cout << rows;
  if (!diags.hasErrors() && o.output.empty() && !o.roundtrip)
    std::cout << text;
  std::string err;
  if (!diags.hasErrors() && !o.output.empty() && !emit::writeFileAtomically(o.output, text, err))
    diags.report(DiagID::err_cannot_write_output, SourceRange{}, {o.output, err});
  diags.printText(std::cerr, false);
  return diags.hasErrors() ? 1 : 0;
}

} // namespace qspec::driver
