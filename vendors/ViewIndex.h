// A flat index from keys (names, mostly) to values for the readers and emitters, which look up
// every module of an inventory (tens of thousands to a million) in a document's lists: open
// addressing in one array (a power of two at least twice the keys), so building it allocates once
// instead of once per key and a lookup touches one slot and the key's text instead of a bucket, a
// node and the text (the std::unordered_map it replaces). Keys are views: their text must outlive
// the index.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

namespace qspec::vendors {

template <typename K, typename V, typename Hash = std::hash<K>> class FlatIndex {
public:
  explicit FlatIndex(size_t expected = 0) { slots_.resize(capacityFor(expected)); }

  // key -> value; a repeated key keeps its first value, or with `replace` its last.
  void add(const K &key, V value, bool replace = false) {
    auto [at, fresh] = tryEmplace(key, value);
    if (!fresh && replace)
      *at = value;
  }

  // The key's value, set to `value` first if the key was not there: {its value, whether it was
  // added}.
  std::pair<V *, bool> tryEmplace(const K &key, V value) {
    if ((size_ + 1) * 2 > slots_.size())
      grow();
    size_t hash = Hash{}(key), mask = slots_.size() - 1, i = hash & mask;
    for (; slots_[i].used; i = (i + 1) & mask)
      if (slots_[i].hash == hash && slots_[i].key == key)
        return {&slots_[i].value, false};
    slots_[i] = Slot{hash, key, value, true};
    ++size_;
    return {&slots_[i].value, true};
  }

  // The key's value, or null.
  const V *find(const K &key) const {
    if (size_ == 0)
      return nullptr;
    size_t hash = Hash{}(key), mask = slots_.size() - 1;
    for (size_t i = hash & mask; slots_[i].used; i = (i + 1) & mask)
      if (slots_[i].hash == hash && slots_[i].key == key)
        return &slots_[i].value;
    return nullptr;
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

private:
  struct Slot {
    size_t hash = 0;
    K key{};
    V value{};
    bool used = false;
  };
  std::vector<Slot> slots_;
  size_t size_ = 0;

  static size_t capacityFor(size_t keys) {
    size_t n = 16;
    while (n < keys * 2)
      n <<= 1;
    return n;
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.size() * 2, Slot{});
    size_ = 0;
    for (const Slot &s : old)
      if (s.used)
        add(s.key, s.value); // keys are distinct already
  }
};

// Names (views: their text must outlive the index) -> values.
template <typename V> using ViewIndex = FlatIndex<std::string_view, V>;

} // namespace qspec::vendors
