#include "ir/Cli.h"

#include "ir/Version.h"

#include <atomic>
#include <cstdlib>
#include <unistd.h>

namespace qspec {

std::string versionLine(const char *tool) {
  return std::string(tool) + " (qspec) " + kQspecVersion + " (git " + kQspecGitRevision + ")";
}

bool useColor(const std::string &when, int fd) {
  if (when == "always")
    return true;
  if (when == "never")
    return false;
  const char *noColor = std::getenv("NO_COLOR");
  return isatty(fd) && !(noColor && *noColor);
}

namespace {
std::atomic<bool> gColorAll{false};
} // namespace

void setColorAllDiagnostics(bool on) { gColorAll = on; }
bool colorAllDiagnostics() { return gColorAll; }

} // namespace qspec
