// spec-tuning-too-many-changes: the tuning state (tune { exclude ...; raise ... to T;
// anti_outlier ... }) changes more than two things against a reference, so an accuracy change
// cannot be attributed to one edit (msModelSlim's tuning workflow: one or two changes a round).
//
// The reference is `--anchor FILE` (the best passing spec so far) or `--against REV` (the same
// file at a git revision, read with `git show REV:./FILE` in the file's folder, like
// `buf breaking --against`). Without either the rule does nothing.
//
// Counted changes: each exclude added or removed, each raise added, removed or retargeted (by
// pattern text), and the anti-outlier list as a whole.
#include "frontend/Frontend.h"
#include "lint/Context.h"

#include <filesystem>
#include <map>
#include <set>

namespace qspec::lint {

namespace {

namespace fs = std::filesystem;

// Runs `git -C dir show REV:./name`; returns false with `error` on failure.
bool gitShow(const std::string &dir, const std::string &rev, const std::string &name,
             std::string &out, std::string &error) {
  std::string object = rev + ":./" + name;
  if (runGit(dir, {"show", object}, out))
    return true;
  error = "'git show " + object + "' failed (unknown revision, or the file is not in it)";
  return false;
}

struct TuneState {
  std::set<std::string> excludes;
  std::map<std::string, std::string> raises; // pattern -> tier
  std::vector<std::string> antiOutlier;
};

TuneState stateOf(const ir::Spec &spec) {
  TuneState s;
  for (const ir::Selector &e : spec.tune.excludes)
    s.excludes.insert(e.text);
  for (const ir::TuningRaise &r : spec.tune.raises)
    for (const ir::Selector &sel : r.selectors)
      s.raises[sel.text] = ir::tierName(r.tier);
  s.antiOutlier = spec.tune.antiOutlier;
  return s;
}

} // namespace

void checkSpecTuningTooManyChanges(SpecInput &ctx) {
  if (!ctx.specBuilt || (ctx.opts.anchor.empty() && ctx.opts.against.empty()))
    return;
  const ir::Spec &spec = *ctx.spec;
  SourceManager refSm;
  DiagnosticEngine refDiags(refSm);
  ir::Spec ref;
  frontend::FrontendOptions fo;
  fo.loadInputs = false;
  std::string refName;
  SourceRange at = spec.tune.present ? spec.tune.range : SourceRange::point(ctx.file, 1, 1, 0);
  bool ok;
  if (!ctx.opts.anchor.empty()) {
    refName = "anchor '" + ctx.opts.anchor + "'";
    ok = frontend::loadSpec(ctx.opts.anchor, ref, refDiags, fo);
  } else {
    refName = "revision '" + ctx.opts.against + "'";
    fs::path p(ctx.path);
    std::string text, error;
    if (!gitShow(p.parent_path().string(), ctx.opts.against, p.filename().string(), text, error)) {
      ctx.report(RuleID::SpecTuningTooManyChanges, at,
                 "cannot compare with " + refName + ": " + error);
      return;
    }
    FileID f = refSm.addFile(ctx.opts.against + ":" + ctx.path, text);
    auto root = frontend::parse(f, refDiags);
    ok = root && frontend::buildSpec(*root, ctx.path, ref, refDiags, fo);
  }
  if (!ok || refDiags.hasErrors()) {
    ctx.report(RuleID::SpecTuningTooManyChanges, at,
               "cannot compare with " + refName + ": it does not compile");
    return;
  }
  TuneState now = stateOf(spec), old = stateOf(ref);
  std::vector<std::string> changes;
  for (const auto &e : now.excludes)
    if (!old.excludes.count(e))
      changes.push_back("exclude '" + e + "' added");
  for (const auto &e : old.excludes)
    if (!now.excludes.count(e))
      changes.push_back("exclude '" + e + "' removed");
  for (const auto &[pat, tier] : now.raises) {
    auto it = old.raises.find(pat);
    if (it == old.raises.end())
      changes.push_back("raise '" + pat + "' to " + tier + " added");
    else if (it->second != tier)
      changes.push_back("raise '" + pat + "' changed from " + it->second + " to " + tier);
  }
  for (const auto &[pat, tier] : old.raises)
    if (!now.raises.count(pat))
      changes.push_back("raise '" + pat + "' removed");
  if (now.antiOutlier != old.antiOutlier)
    changes.push_back("anti_outlier changed");
  if (changes.size() <= 2)
    return;
  std::string list;
  for (size_t i = 0; i < changes.size() && i < 5; ++i)
    list += (i ? "; " : "") + changes[i];
  if (changes.size() > 5)
    list += "; ...";
  ctx.report(RuleID::SpecTuningTooManyChanges, at,
             "tuning state makes " + std::to_string(changes.size()) + " changes against " +
                 refName + " (" + list +
                 "); change at most two per round so the result can be attributed");
}

} // namespace qspec::lint
