// The vendor readers, by target kind (vendors/Reading.h). Backends register theirs next to
// their emitter; emit::emitTargets looks them up for translation validation.
#include "vendors/Reading.h"

#include <array>
#include <map>
#include <mutex>
#include <unordered_set>

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

const std::string *ReadingWord::intern(std::string_view text) {
  // Readers give every module one of a few words: a per-thread cache in front of the shared
  // table answers nearly every call without a lock.
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : text)
    h = (h ^ c) * 1099511628211ULL;
  thread_local std::array<const std::string *, 64> cache{};
  const std::string *&slot = cache[(h ^ (h >> 29)) & 63];
  if (slot && *slot == text)
    return slot;
  static std::mutex mu;
  static std::unordered_set<std::string> words; // nodes: stable addresses
  std::lock_guard<std::mutex> lock(mu);
  slot = &*words.emplace(text).first;
  return slot;
}

} // namespace qspec::vendors
