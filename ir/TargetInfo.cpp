#include "ir/TargetInfo.h"

#include <algorithm>
#include <memory>

namespace qspec::ir {

static std::vector<std::unique_ptr<TargetInfo>> &registry() {
  static std::vector<std::unique_ptr<TargetInfo>> r;
  return r;
}

void registerTarget(TargetInfo info) {
  for (auto &t : registry())
    if (t->kind == info.kind) {
      *t = std::move(info);
      return;
    }
  registry().push_back(std::make_unique<TargetInfo>(std::move(info)));
  std::sort(registry().begin(), registry().end(),
            [](const auto &a, const auto &b) { return a->kind < b->kind; });
}

const TargetInfo *findTarget(std::string_view kind) {
  for (auto &t : registry())
    if (t->kind == kind)
      return t.get();
  return nullptr;
}

const TargetInfo *findTargetByEmitKind(std::string_view emitKind) {
  for (auto &t : registry())
    if (t->emitKind == emitKind || std::find(t->otherEmitKinds.begin(), t->otherEmitKinds.end(),
                                             emitKind) != t->otherEmitKinds.end())
      return t.get();
  return nullptr;
}

std::vector<const TargetInfo *> allTargets() {
  std::vector<const TargetInfo *> out;
  for (auto &t : registry())
    out.push_back(t.get());
  return out;
}

TargetInfo::Names targetNames(const Target &target) {
  const TargetInfo *info = findTarget(target.kind);
  return info && info->names ? info->names(target) : TargetInfo::Names::Modules;
}

std::string knownTargetList() {
  std::string s;
  for (auto &t : registry()) {
    if (!s.empty())
      s += ", ";
    s += t->kind;
  }
  return s;
}

} // namespace qspec::ir
