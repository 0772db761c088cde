// Files the unit tests read: the repository's copies of the vendors' files (lit's %conformance,
// or $QSPEC_CONFORMANCE) and whole files as bytes.
#ifndef QSPEC_TEST_UNIT_TESTFILES_H
#define QSPEC_TEST_UNIT_TESTFILES_H

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

inline std::filesystem::path conformanceDir() {
  if (const char *env = std::getenv("QSPEC_CONFORMANCE"); env && *env)
    return env;
  return std::filesystem::path(QSPEC_SOURCE_DIR) / "test" / "Inputs" / "conformance";
}

// The whole file; "" when it cannot be read.
inline std::string slurp(const std::filesystem::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

#endif
