// The vendor readers, by target kind (vendors/Reading.h). Backends register theirs next to
// their emitter; emit::emitTargets looks them up for translation validation.
#include "vendors/Reading.h"

#include <map>
#include <mutex>

namespace qspec::vendors {

namespace {

struct Readers {
  std::mutex mu;
  std::map<std::string, ReadBack, std::less<>> byKind;
};

Readers &readers() {
  static Readers r;
  return r;
}

} // namespace

void registerReader(std::string_view kind, ReadBack read) {
  Readers &r = readers();
  std::lock_guard<std::mutex> lock(r.mu);
  r.byKind[std::string(kind)] = read;
}

ReadBack findReader(std::string_view kind) {
  Readers &r = readers();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.byKind.find(kind);
  return it == r.byKind.end() ? nullptr : it->second;
}

} // namespace qspec::vendors
