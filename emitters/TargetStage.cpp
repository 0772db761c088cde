// File naming and the target stage shared by qcc, qtune and qlint; see TargetStage.h.
#include "emitters/TargetStage.h"

#include "ir/TargetInfo.h"

namespace qspec::emit {

std::string outputFileName(const EmitResult &r, const std::string &specStem) {
  if (!r.out.fileName.empty())
    return r.out.fileName;
  const ir::TargetInfo *info = ir::findTarget(r.target->kind);
  return specStem + (info ? info->fileExtension : std::string());
}

bool safeFileName(const std::string &name) {
  return !name.empty() && name.find('/') == std::string::npos &&
         name.find('\\') == std::string::npos && name != "." && name != ".." &&
         name.find('\0') == std::string::npos;
}

std::vector<TargetFile> buildTargets(const ir::Spec &spec,
                                     const std::vector<const ir::Target *> &targets,
                                     DiagnosticEngine &diags, const std::string &specStem,
                                     const std::string &folder, const EmitIndexes &indexes) {
  std::vector<TargetFile> files;
  for (EmitResult &r : emitTargets(spec, targets, diags, 0, indexes)) {
    if (!r.ok)
      continue;
    TargetFile f;
    f.target = r.target;
    if (!folder.empty()) {
      f.name = outputFileName(r, specStem);
      if (!safeFileName(f.name)) {
        diags.report(DiagID::err_output_escapes_dir, r.target->range, {f.name, folder});
        continue;
      }
    }
    f.bytes = std::move(r.out.buffer());
    files.push_back(std::move(f));
  }
  return files;
}

void checkAllTargets(const ir::Spec &spec, DiagnosticEngine &diags, const std::string &specStem) {
  std::vector<const ir::Target *> targets;
  for (const ir::Target &t : spec.targets)
    targets.push_back(&t);
  buildTargets(spec, targets, diags, specStem, "DIR");
}

} // namespace qspec::emit
