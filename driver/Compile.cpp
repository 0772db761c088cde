// File naming shared by qcc and qtune; see Compile.h.
#include "driver/Compile.h"

#include "ir/TargetInfo.h"

namespace qspec::driver {

std::string outputFileName(const emit::EmitResult &r, const std::string &specStem) {
  if (!r.out.fileName.empty())
    return r.out.fileName;
  const ir::TargetInfo *info = ir::findTarget(r.target->kind);
  return specStem + (info ? info->fileExtension : std::string());
}

bool safeFileName(const std::string &name) {
  return !name.empty() && name.find('/') == std::string::npos && name.find('\\') == std::string::npos &&
         name != "." && name != ".." && name.find('\0') == std::string::npos;
}

} // namespace qspec::driver
