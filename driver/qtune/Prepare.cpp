// Preparing a probe: its tuning state, compressed once into the statements `qtune apply` would
// write (they are the probe's tune.qspec and, applied to the spec, what it resolves), the whole
// pass pipeline (so protected modules and groups are checked exactly as qcc checks them) on the
// one scratch spec (the base's targets and tune block restored, its resolution cleared; the
// inventory and the module selector are not copied per probe), every target emitted, and the
// cache key.
//
// The key is SHA-256 over two parts. The inputs (keyInputs: one digest per thing the answer
// depends on besides the configuration: the evaluator, its declared input files, the model's
// inventory, ONNX and scores files, the metrics, the salt), the same for every probe of a run;
// and the configuration digest: the anti-outlier choice, a compact digest of the resolution (one
// tier byte per module), and every emitted file keyed by its target and hashed as emitted (no
// copy, no DOM). The history keeps both parts of each record, so a rerun whose configuration was
// answered before under other inputs can say which input invalidated the answer. Paths do not
// enter the key: a renamed or moved spec with the same content reuses its results.
#include "driver/qtune/Run.h"

#include "emitters/Emitter.h"
#include "emitters/TargetStage.h"
#include "vendors/msmodelslim/MsModelSlimRules.h"
#include "ir/IRPrinter.h"
#include "passes/Pass.h"
#include "support/Sha256.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace qspec::tune {

namespace fs = std::filesystem;
using support::Sha256;
using support::sha256Hex;

namespace {

// A script or program among the evaluator's arguments (`python3 eval.py`): an executable file
// or one with a script extension. Other files (a counter, a log, a data set) enter the key only
// through --cache-input, so an output file the evaluator appends to does not change the key.
bool isScript(const std::string &path) {
  static const char *kExt[] = {".py", ".sh", ".bash", ".pl", ".rb", ".js", ".lua", ".R", ".jl"};
  std::string ext = fs::path(path).extension().string();
  for (const char *e : kExt)
    if (ext == e)
      return true;
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0111);
}

// Files up to this size enter a key with their whole content; a larger one (a checkpoint's
// safetensors) with its size, its first and its last kSampleBytes, so a run does not read
// gigabytes each time it starts.
constexpr size_t kWholeFileBytes = 64u << 20, kSampleBytes = 16u << 20;

void hashRange(std::ifstream &in, Sha256 &h, size_t bytes) {
  char buf[65536];
  while (bytes > 0) {
    in.read(buf, static_cast<std::streamsize>(std::min(bytes, sizeof buf)));
    std::streamsize got = in.gcount();
    if (got <= 0)
      break;
    h.update(buf, static_cast<size_t>(got));
    bytes -= static_cast<size_t>(got);
  }
}

// The content of `path` when it is a regular file (hashed in chunks), "" otherwise.
std::string fileDigest(const std::string &path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    return "";
  std::ifstream in(path, std::ios::binary);
  Sha256 h;
  size_t size = static_cast<size_t>(st.st_size);
  if (size <= kWholeFileBytes) {
    hashRange(in, h, SIZE_MAX);
    return h.hexDigest();
  }
  h.update("sampled " + std::to_string(size) + "\n");
  hashRange(in, h, kSampleBytes);
  in.clear();
  in.seekg(static_cast<std::streamoff>(size - kSampleBytes));
  hashRange(in, h, kSampleBytes);
  return h.hexDigest();
}

// What the evaluator runs: its arguments and the content of its program and of every argument
// that is a script.
std::string evaluatorText(const RunOptions &o) {
  std::string key;
  for (size_t i = 0; i < o.evaluator.size(); ++i) {
    const std::string &a = o.evaluator[i];
    key += "arg " + std::to_string(a.size()) + " " + a + "\n";
    std::string file = i == 0 ? findProgram(a) : isScript(a) ? a : std::string();
    std::string digest = file.empty() ? "" : fileDigest(file);
    if (!digest.empty())
      key += "file-content " + digest + "\n";
  }
  return key;
}

} // namespace

std::vector<std::pair<std::string, std::string>> keyInputs(const RunOptions &o,
                                                           const ir::Spec &spec) {
  std::vector<std::pair<std::string, std::string>> out;
  out.emplace_back("evaluator", sha256Hex(evaluatorText(o)));
  if (!o.cacheInputs.empty()) {
    std::string text;
    for (const std::string &f : o.cacheInputs) {
      std::string digest = fileDigest(f);
      text += "input " + std::to_string(f.size()) + " " + f + " " +
              (digest.empty() ? "missing" : digest) + "\n";
    }
    out.emplace_back("eval-inputs", sha256Hex(text));
  }
  std::string metrics;
  for (const ir::MetricGoal &g : spec.tune.metrics)
    metrics += "metric " + g.name + "\n";
  out.emplace_back("metrics", sha256Hex(metrics));
  if (!o.cacheSalt.empty())
    out.emplace_back("salt", sha256Hex(o.cacheSalt));
  for (const auto &[name, path] :
       {std::pair<const char *, const std::string *>{"inventory", &spec.inventory.path},
        {"config", &spec.modelConfig.path},
        {"onnx", &spec.onnx.path},
        {"onnx-map", &spec.onnx.mapPath},
        {"scores", &spec.scores.path}})
    if (!path->empty()) {
      std::string digest = fileDigest(*path);
      out.emplace_back(name, digest.empty() ? "missing" : digest);
    }
  return out;
}

std::string inputsKeyText(const std::vector<std::pair<std::string, std::string>> &inputs) {
  std::string text = "qtune-cache-v3\n";
  for (const auto &[name, digest] : inputs)
    text += name + " " + digest + "\n";
  return text;
}

bool prepareProbe(const ProbeContext &c, const Probe &p, Prepared &out, DiagnosticEngine &rd) {
  out.probe = p;
  out.state = stateFor(c.space, c.base, p);
  StatePatterns patterns = compressState(out.state, c.scratch.inventory, c.compressor);
  out.tuneText = stateText(out.state, patterns, "");
  ir::Spec &s = c.scratch;
  s.targets = c.base.targets;
  s.tune = c.base.tune;
  applyState(s, out.state, patterns);
  if (!passes::runPipeline(s, rd))
    return false;
  std::vector<const ir::Target *> targets;
  for (const ir::Target &t : s.targets)
    targets.push_back(&t);
  std::string stem = fs::path(c.opts.spec).stem().string();
  Sha256 key; // the configuration digest
  key.update("anti_outlier " + out.state.antiOutlier + "\ntiers ");
  for (const ir::ResolvedModule &m : s.resolution.modules) {
    char tier = static_cast<char>(m.tier.value);
    key.update(&tier, 1);
  }
  // qcc's target stage, with the names `qcc --emit=all -o config/` writes.
  emit::EmitIndexes indexes;
  indexes.msmodelslimCompressor = &c.compressor;
  std::vector<emit::TargetFile> built =
      emit::buildTargets(s, targets, rd, stem, "config/", indexes);
  bool ok = built.size() == targets.size();
  for (emit::TargetFile &f : built) {
    key.update("\nfile " + f.target->kind + " " + fs::path(f.name).extension().string() + " " +
               std::to_string(f.bytes.size()) + "\n")
        .update(f.bytes);
    out.files.emplace_back(std::move(f.name), std::move(f.bytes));
  }
  if (!ok || rd.hasErrors())
    return false;
  if (c.opts.writeIR) {
    std::ostringstream irs;
    ir::printIRJSON(s, rd.sourceManager(), irs);
    out.irJson = irs.str();
  }
  out.config = key.hexDigest();
  out.key = sha256Hex(c.inputsKey + "config " + out.config + "\n");
  out.dir = (fs::path(c.opts.workdir) / "evals" / out.key.substr(0, 16)).string();
  return true;
}

void writeEvalDir(Prepared &p) {
  std::error_code ec;
  fs::remove_all(p.dir, ec); // removes a link at p.dir itself, never what it names
  // p.dir is WORKDIR/evals/KEY: written below the work directory without following links.
  const fs::path dir(p.dir);
  const std::string workdir = dir.parent_path().parent_path().string();
  const fs::path rel = fs::path("evals") / dir.filename();
  std::string err;
  if (int fd = openWorkSubdir(workdir, (rel / "config").string(), true, err); fd >= 0)
    ::close(fd);
  for (const auto &[name, bytes] : p.files)
    writeWorkFile(workdir, (rel / "config" / name).string(), bytes, err);
  if (!p.irJson.empty())
    writeWorkFile(workdir, (rel / "ir.json").string(), p.irJson, err);
  writeWorkFile(workdir, (rel / "tune.qspec").string(), p.tuneText, err);
  p.files.clear();
  p.files.shrink_to_fit();
  p.irJson.clear();
  p.irJson.shrink_to_fit();
}

} // namespace qspec::tune
