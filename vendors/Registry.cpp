// The vendor readers, by target kind (vendors/Reading.h). Backends register theirs next to
// their emitter; emit::emitTargets looks them up for translation validation.
#include "vendors/Reading.h"

#include <array>
#include <map>
#include <mutex>
#include <atomic>
#include <stdexcept>
#include <unordered_map>

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

namespace {

// The interned words, numbered from 1 in the order they are first seen: fixed-size blocks that
// never move (a word's number is its block and slot), so a lookup by number takes no lock.
struct WordTable {
  static constexpr uint32_t kBlockBits = 12, kBlock = 1u << kBlockBits, kBlocks = 1u << 16;
  std::mutex mu;
  std::unordered_map<std::string_view, uint32_t> ids; // views of the copies in `blocks`
  std::array<std::atomic<std::string *>, kBlocks> blocks{};
  uint32_t count = 0;

  const std::string &at(uint32_t id) const {
    return blocks[(id - 1) >> kBlockBits].load(std::memory_order_acquire)[(id - 1) & (kBlock - 1)];
  }
  uint32_t add(std::string_view text) { // with `mu` held
    auto it = ids.find(text);
    if (it != ids.end())
      return it->second;
    if (count == kBlock * kBlocks)
      throw std::length_error("too many distinct words in vendor readings");
    uint32_t slot = count & (kBlock - 1), block = count >> kBlockBits;
    if (slot == 0)
      blocks[block].store(new std::string[kBlock], std::memory_order_release);
    std::string &copy = blocks[block].load(std::memory_order_relaxed)[slot];
    copy.assign(text);
    ids.emplace(copy, ++count);
    return count;
  }
};

WordTable &wordTable() {
  static WordTable *t = new WordTable; // never freed: readings may outlive static destruction
  return *t;
}

} // namespace

uint32_t ReadingWord::intern(std::string_view text) {
  // Readers give every module one of a few words: a per-thread cache in front of the shared
  // table answers nearly every call without a lock.
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : text)
    h = (h ^ c) * 1099511628211ULL;
  thread_local std::array<uint32_t, 64> cache{};
  uint32_t &slot = cache[(h ^ (h >> 29)) & 63];
  WordTable &t = wordTable();
  if (slot && t.at(slot) == text)
    return slot;
  std::lock_guard<std::mutex> lock(t.mu);
  slot = t.add(text);
  return slot;
}

const std::string &ReadingWord::text(uint32_t id) { return wordTable().at(id); }

} // namespace qspec::vendors
