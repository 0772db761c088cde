#include "driver/lsp/Workspace.h"

#include "emitters/Emitter.h"
#include "frontend/Frontend.h"
#include "ir/BoundedInput.h"
#include "passes/Pass.h"

#include <set>

namespace qspec::lsp {

Document &Workspace::open(const std::string &uri, const std::string &path, std::string text,
                          int64_t version) {
  Document &d = docs_[uri];
  d.uri = uri;
  d.path = path;
  change(d, std::move(text), version);
  return d;
}

Document *Workspace::find(const std::string &uri) {
  auto it = docs_.find(uri);
  return it == docs_.end() ? nullptr : &it->second;
}

void Workspace::change(Document &doc, std::string text, int64_t version) {
  doc.text = std::move(text);
  doc.version = version;
  doc.model.reset();
}

void Workspace::close(const std::string &uri) { docs_.erase(uri); }

SourceManager::Overlay Workspace::overlay() const {
  auto files = std::make_shared<std::unordered_map<std::string, std::string>>();
  std::set<std::string> paths;
  for (const auto &[uri, d] : docs_) {
    (*files)[d.path] = d.text;
    paths.insert(d.path);
  }
  inputs_->setOpenPaths(std::move(paths));
  return files;
}

const lint::FileResult &Workspace::check(Document &doc) {
  lint::Options lo;
  lo.inventory = opts_.inventory;
  lo.scores = opts_.scores;
  lo.root = opts_.root;
  lo.jobs = 1;
  lo.checkTargets = false; // checkTargets runs them on open and save only
  lo.overlay = overlay();
  lo.inputReader = inputs_;
  lo.stop = stop;
  lint::FileResult res = lint::lintFile(doc.path, lo);
  if (res.abandoned) {
    abandonedCheck_ = std::move(res);
    return abandonedCheck_;
  }
  doc.lastCheck = std::move(res);
  return doc.lastCheck;
}

std::shared_ptr<Model> Workspace::buildModel(const std::string &path,
                                             SourceManager::Overlay overlay) {
  auto m = std::make_shared<Model>();
  m->sm.setOverlay(std::move(overlay));
  DiagnosticEngine diags(m->sm);
  diags.setErrorLimit(0);
  frontend::FrontendOptions fo;
  fo.inventoryOverride = opts_.inventory;
  fo.scoresOverride = opts_.scores;
  fo.inputReader = inputs_;
  fo.root = opts_.root;
  auto stopped = [&] { return m->abandoned = m->abandoned || (stop && stop()); };
  m->ast = frontend::parseFile(path, diags, fo);
  m->file = m->sm.find(path);
  if (m->ast && !diags.hasErrors() && !stopped())
    m->built = frontend::buildSpec(*m->ast, path, m->spec, diags, fo);
  passes::PipelineOptions po;
  po.stop = stopped; // between two passes
  m->passesOk = m->built && !stopped() && passes::runPipeline(m->spec, diags, po) &&
                !m->abandoned && !diags.hasErrors();
  return m;
}

const Model &Workspace::model(Document &doc) {
  if (doc.model)
    return *doc.model;
  std::shared_ptr<Model> m = buildModel(doc.path, overlay());
  if (m->abandoned)
    return *(abandonedModel_ = m); // never kept: the next request builds it again
  doc.model = m;
  if (doc.model->built)
    doc.lastBuilt = doc.model;
  return *doc.model;
}

const Model &Workspace::savedModel(Document &doc) {
  std::string disk;
  bounded::ReadOptions opt; // never block on a FIFO, never hold more than a spec's limit
  opt.maxBytes = frontend::ParseLimits{}.maxFileBytes;
  if (bounded::readBoundedFile(doc.path, disk, opt))
    return model(doc);
  if (disk == doc.text)
    return model(doc);
  if (!doc.saved || doc.savedText != disk) {
    std::shared_ptr<Model> m = buildModel(doc.path, nullptr);
    if (m->abandoned)
      return *(abandonedModel_ = m);
    doc.saved = m;
    doc.savedText = std::move(disk);
  }
  return *doc.saved;
}

const std::vector<Diagnostic> &Workspace::checkTargets(Document &doc) {
  if (model(doc).abandoned || (stop && stop()))
    return abandonedModel_ ? abandonedModel_->targetDiags : doc.model->targetDiags;
  Model &m = *doc.model;
  if (m.targetsChecked || !m.passesOk)
    return m.targetDiags;
  m.targetsChecked = true;
  std::vector<const ir::Target *> targets;
  for (const ir::Target &t : m.spec.targets)
    targets.push_back(&t);
  DiagnosticEngine diags(m.sm);
  diags.setErrorLimit(0);
  emit::emitTargets(m.spec, targets, diags);
  for (const Diagnostic &d : diags.diagnostics())
    if (d.severity != Severity::Remark)
      m.targetDiags.push_back(d);
  return m.targetDiags;
}

const Model &Workspace::modelWithInventory(Document &doc) {
  const Model &m = model(doc);
  if (m.built || !doc.lastBuilt)
    return m;
  return *doc.lastBuilt;
}

} // namespace qspec::lsp
