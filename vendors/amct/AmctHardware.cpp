// Ascend chip names (--amct-hardware): their shape, and the hardware limits the reference states
// (AmctRules.h).
#include "ir/EditDistance.h"
#include "vendors/amct/AmctRules.h"

#include <cctype>

namespace qspec::amct {

static std::string normalizedHardware(std::string_view hw) {
  std::string out;
  for (char c : hw)
    if (c != ' ' && c != '-' && c != '_')
      out += static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  return out;
}

std::string checkHardwareName(std::string_view name) {
  std::string hw = normalizedHardware(name);
  auto digit = [&](size_t i) { return i < hw.size() && hw[i] >= '0' && hw[i] <= '9'; };
  bool shaped = hw.compare(0, 6, "ASCEND") == 0 && digit(6) && digit(7) && digit(8);
  for (size_t i = 9; shaped && i < hw.size(); ++i)
    shaped = std::isalnum(static_cast<unsigned char>(hw[i])) != 0;
  if (shaped)
    return "";
  static const char *const kKnown[] = {"Ascend310",  "Ascend310B",  "Ascend310P", "Ascend910",
                                       "Ascend910B", "Ascend950PR", "Ascend950DT"};
  std::string why = "'" + std::string(name) +
                    "' is not an Ascend chip name (Ascend, a three-digit family and a suffix, "
                    "such as Ascend310P or Ascend950PR)";
  size_t best = 3;
  const char *suggestion = nullptr;
  // Without the "Ascend" (950PR), the rest is compared.
  std::string asWritten = hw.compare(0, 6, "ASCEND") == 0 ? hw : "ASCEND" + hw;
  for (const char *k : kKnown) {
    size_t d = editDistanceAtMost(asWritten, normalizedHardware(k), 2);
    if (d < best)
      best = d, suggestion = k;
  }
  if (suggestion)
    why += "; did you mean '" + std::string(suggestion) + "'?";
  return why;
}

bool checkNOutOfMHardware(std::string_view hardware, std::string &msg) {
  std::string hw = normalizedHardware(hardware);
  if (hw.find("950PR") == std::string::npos && hw.find("950DT") == std::string::npos)
    return true;
  msg = "n_out_of_m_pruner (4:2 sparsity) is not supported on Ascend 950PR/950DT due to hardware "
        "constraints";
  return false;
}

} // namespace qspec::amct
