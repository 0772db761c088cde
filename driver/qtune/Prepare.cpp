// Preparing a probe: its tuning state, compressed once into the statements `qtune apply` would
// write (they are the probe's tune.qspec and, applied to the spec, what it resolves), the whole
// pass pipeline (so protected modules and groups are checked exactly as qcc checks them) on the
// one scratch spec (the base's targets and tune block restored, its resolution cleared; the
// inventory and the module selector are not copied per probe), every target emitted, and the
// cache key.
//
// The key is SHA-256 over: the evaluator key (evaluatorKey), the anti-outlier choice, a compact
// digest of the resolution (one tier byte per module), and every emitted file keyed by its
// target and hashed as emitted (no copy, no DOM). Paths do not enter the key: a renamed or moved
// spec with the same content reuses its results.
#include "driver/Compile.h"
#include "driver/qtune/Run.h"

#include "emitters/Emitter.h"
#include "vendors/msmodelslim/MsModelSlimRules.h"
#include "ir/IRPrinter.h"
#include "passes/Pass.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace qspec::tune {

namespace fs = std::filesystem;

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

// The content of `path` when it is a regular file (hashed in chunks), "" otherwise.
std::string fileDigest(const std::string &path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    return "";
  std::ifstream in(path, std::ios::binary);
  Sha256 h;
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0)
    h.update(buf, static_cast<size_t>(in.gcount()));
  return h.hexDigest();
}

} // namespace

std::string evaluatorKey(const RunOptions &o, const ir::Tune &tune) {
  std::string key =
      "qtune-cache-v2\nsalt " + std::to_string(o.cacheSalt.size()) + " " + o.cacheSalt + "\n";
  for (const ir::MetricGoal &g : tune.metrics)
    key += "metric " + g.name + "\n";
  for (size_t i = 0; i < o.evaluator.size(); ++i) {
    const std::string &a = o.evaluator[i];
    key += "arg " + std::to_string(a.size()) + " " + a + "\n";
    std::string file = i == 0 ? findProgram(a) : isScript(a) ? a : std::string();
    std::string digest = file.empty() ? "" : fileDigest(file);
    if (!digest.empty())
      key += "file-content " + digest + "\n";
  }
  for (const std::string &f : o.cacheInputs) {
    std::string digest = fileDigest(f);
    key += "cache-input " + std::to_string(f.size()) + " " + f + " " +
           (digest.empty() ? "missing" : digest) + "\n";
  }
  return key;
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
  Sha256 key;
  key.update(c.commandKey).update("anti_outlier " + out.state.antiOutlier + "\ntiers ");
  for (const ir::ResolvedModule &m : s.resolution.modules) {
    char tier = static_cast<char>(m.tier.value);
    key.update(&tier, 1);
  }
  bool ok = true;
  for (emit::EmitResult &r : emit::emitTargets(s, targets, rd)) {
    ok = ok && r.ok;
    std::string name = driver::outputFileName(r, stem);
    if (!driver::safeFileName(name)) {
      rd.report(DiagID::err_output_escapes_dir, r.target->range, {name, "config/"});
      ok = false;
      continue;
    }
    std::string bytes = std::move(r.out.buffer());
    key.update("\nfile " + r.target->kind + " " + fs::path(name).extension().string() + " " +
               std::to_string(bytes.size()) + "\n")
        .update(bytes);
    out.files.emplace_back(name, std::move(bytes));
  }
  if (!ok || rd.hasErrors())
    return false;
  if (c.opts.writeIR) {
    std::ostringstream irs;
    ir::printIRJSON(s, rd.sourceManager(), irs);
    out.irJson = irs.str();
  }
  out.key = key.hexDigest();
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
