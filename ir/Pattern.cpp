// ir::Pattern's matcher: the VM, the lazily built DFA and the quick paths over a compiled
// program (PatternCompile.cpp builds it).
#include "ir/Pattern.h"
#include "ir/GlobSyntax.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <unordered_map>

namespace qspec {

using glob::kMaxNumberDigits;

namespace {
// Digits of `v` zero-padded to `width` (0 = none).
bool numberMatchesText(uint64_t v, std::string_view digits, uint32_t width) {
  char buf[32];
  int n = snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(v));
  std::string s(buf, static_cast<size_t>(n));
  if (width && s.size() < width)
    s = std::string(width - s.size(), '0') + s;
  return s == digits;
}
} // namespace

namespace {
// Is `digits` (the text of the number `v`) written as a range of zero-padded `width` writes it?
// Without padding the text must be canonical (no leading zero); with padding it must be exactly
// `width` long unless the canonical text is longer.
bool numberTextOk(std::string_view digits, uint64_t v, uint32_t width) {
  size_t canonical = 1;
  for (uint64_t x = v; x >= 10; x /= 10)
    ++canonical;
  return digits.size() == std::max<size_t>(width, canonical);
}

struct VmEntry {
  uint32_t pc;
  uint32_t pos;
  int32_t restoreSlot; // >= 0: restore caps[restoreSlot] = pos
};

// Memory the VM reuses across calls (one per thread): the visited set is a table of generation
// stamps, so starting a match costs nothing however large the table grew.
struct VmScratch {
  std::vector<uint32_t> stamp;
  uint32_t generation = 0;
  std::vector<VmEntry> stack;
  std::vector<size_t> caps;
};
thread_local VmScratch tlsScratch;
} // namespace

bool Pattern::reads(const Inst &in, unsigned char c) const {
  switch (in.op) {
  case Op::Char:
    return static_cast<unsigned char>(in.ch) == c;
  case Op::Any:
    return true;
  case Op::Class:
    return classes_[in.cls][c] != in.negate;
  case Op::CharRange:
    return c >= in.lo && c <= in.hi && c % in.step == in.y % in.step;
  default:
    return false;
  }
}

void Pattern::byteClasses(std::vector<uint8_t> &cls, std::vector<uint8_t> &classByte) const {
  // Two bytes are in one class when every instruction reads both or neither: partition
  // refinement, each distinct character set once.
  cls.assign(256, 0);
  std::vector<bool> seenChar(256, false), seenClass(classes_.size(), false);
  int16_t next[256][2];
  for (const Inst &in : dfaProgram()) {
    if (in.op == Op::Char) {
      if (seenChar[static_cast<unsigned char>(in.ch)])
        continue;
      seenChar[static_cast<unsigned char>(in.ch)] = true;
    } else if (in.op == Op::Class) {
      if (seenClass[in.cls])
        continue;
      seenClass[in.cls] = true;
    } else if (in.op != Op::CharRange) {
      continue;
    }
    std::fill(&next[0][0], &next[0][0] + 512, static_cast<int16_t>(-1));
    int16_t count = 0;
    for (unsigned c = 0; c < 256; ++c) {
      int16_t &slot = next[cls[c]][reads(in, static_cast<unsigned char>(c)) ? 1 : 0];
      if (slot < 0)
        slot = count++;
      cls[c] = static_cast<uint8_t>(slot); // at most 256 classes: ids 0..255
    }
  }
  classByte.clear(); // ids are numbered in the order of their first byte
  for (unsigned c = 0; c < 256; ++c)
    if (cls[c] == classByte.size())
      classByte.push_back(static_cast<uint8_t>(c));
}

namespace {
// A lazily built DFA of one pattern: a state is the sorted set of program positions about to read
// a character, and whether Match is reached; a transition is built the first time it is taken.
struct DfaCache {
  uint64_t owner = 0, lastUse = 0;
  uint32_t classes = 0;
  std::vector<uint8_t> byteClass, classByte; // byte -> class, class -> one of its bytes
  std::vector<uint32_t> sets{}, begin{0};    // state s: sets[begin[s] .. begin[s + 1])
  std::vector<uint8_t> accepting;
  std::vector<int32_t> next; // s * classes + class -> state, -1 = not built yet
  std::unordered_map<std::string, int32_t> index;
  void reset(uint64_t id) {
    owner = id;
    sets.clear();
    begin.assign(1, 0);
    accepting.clear();
    next.clear();
    index.clear();
  }
};
// Budgets per cache: past them the cache starts over and that one name goes to the VM, so a
// (pattern, name) pair never costs more than O(instructions x length).
constexpr size_t kDfaCaches = 4, kDfaMaxStates = 4096, kDfaMaxPositions = size_t(1) << 20;
struct DfaScratch {
  DfaCache caches[kDfaCaches];
  uint64_t clock = 0;
  std::vector<uint32_t> stamp, work, seeds, positions;
  uint32_t generation = 0;
  std::string key;
};
thread_local DfaScratch tlsDfa;
} // namespace

int Pattern::matchDfa(std::string_view name) const {
  DfaScratch &d = tlsDfa;
  DfaCache *c = &d.caches[0];
  for (DfaCache &k : d.caches)
    if (k.owner == id_ || (c->owner != id_ && k.lastUse < c->lastUse))
      c = &k;
  if (c->owner != id_) {
    c->reset(id_);
    byteClasses(c->byteClass, c->classByte);
    c->classes = static_cast<uint32_t>(c->classByte.size());
  }
  c->lastUse = ++d.clock;
  const std::vector<Inst> &prog = dfaProgram();
  if (d.stamp.size() < prog.size())
    d.stamp.resize(prog.size(), 0);
  // The state reached from the positions in d.seeds (their closure over Split and Jmp); -1 when
  // over budget.
  auto stateOf = [&]() -> int32_t {
    if (++d.generation == 0) {
      std::fill(d.stamp.begin(), d.stamp.end(), 0);
      d.generation = 1;
    }
    d.positions.clear();
    d.work.assign(d.seeds.begin(), d.seeds.end());
    bool accept = false;
    while (!d.work.empty()) {
      uint32_t pc = d.work.back();
      d.work.pop_back();
      if (d.stamp[pc] == d.generation)
        continue;
      d.stamp[pc] = d.generation;
      const Inst &in = prog[pc];
      if (in.op == Op::Split) {
        d.work.push_back(in.y);
        d.work.push_back(in.x);
      } else if (in.op == Op::Jmp) {
        d.work.push_back(in.x);
      } else if (in.op == Op::Match) {
        accept = true;
      } else {
        d.positions.push_back(pc);
      }
    }
    std::sort(d.positions.begin(), d.positions.end());
    d.key.assign(reinterpret_cast<const char *>(d.positions.data()), d.positions.size() * 4);
    d.key += accept ? '1' : '0';
    auto it = c->index.find(d.key);
    if (it != c->index.end())
      return it->second;
    if (c->accepting.size() >= kDfaMaxStates ||
        c->sets.size() + d.positions.size() > kDfaMaxPositions)
      return -1;
    int32_t id = static_cast<int32_t>(c->accepting.size());
    c->sets.insert(c->sets.end(), d.positions.begin(), d.positions.end());
    c->begin.push_back(static_cast<uint32_t>(c->sets.size()));
    c->accepting.push_back(accept);
    c->next.resize(c->next.size() + c->classes, -1);
    c->index.emplace(d.key, id);
    return id;
  };
  if (c->accepting.empty()) {
    d.seeds.assign(1, 0);
    if (stateOf() < 0)
      return -1;
  }
  int32_t s = 0;
  for (size_t pos = 0; pos < name.size(); ++pos) {
    if (c->begin[s] == c->begin[s + 1])
      return 0; // nothing left to read with
    uint8_t cls = c->byteClass[static_cast<unsigned char>(name[pos])];
    int32_t t = c->next[static_cast<size_t>(s) * c->classes + cls];
    if (t < 0) {
      d.seeds.clear();
      for (uint32_t i = c->begin[s]; i < c->begin[s + 1]; ++i)
        if (reads(prog[c->sets[i]], c->classByte[cls]))
          d.seeds.push_back(c->sets[i] + 1);
      t = stateOf();
      if (t < 0) {
        c->reset(id_); // over budget: start over next time (the byte classes stay)
        return -1;
      }
      c->next[static_cast<size_t>(s) * c->classes + cls] = t;
    }
    s = t;
  }
  return c->accepting[s];
}

bool Pattern::matches(std::string_view name, std::vector<std::string_view> *captures) const {
  if (literal_)
    return name == literalText_ && (!captures || (captures->clear(), true));
  const size_t n = name.size(), np = prefix_.size(), ns = suffix_.size();
  if (n < minLength_ || n < np + ns || name.compare(0, np, prefix_) != 0 ||
      name.compare(n - ns, ns, suffix_) != 0)
    return false;

  if (starsOnly_) { // `*a*b*`: each run found after the one before, between prefix and suffix
    const std::string_view middle = name.substr(0, n - ns);
    size_t pos = np;
    for (const std::string &run : starRuns_) {
      size_t at = middle.find(run, pos);
      if (at == std::string_view::npos)
        return false;
      pos = at + run.size();
    }
    if (captures)
      captures->clear();
    return true;
  }

  // Every other literal run must occur somewhere (a cheap search rejects most candidates).
  // (required_[0] is the prefix when there is one, the last entry the suffix.)
  size_t firstRun = np ? 1 : 0, endRun = required_.size();
  if (ns && endRun > 0)
    --endRun;
  for (size_t r = firstRun; r < endRun; ++r)
    if (name.find(required_[r], np) == std::string_view::npos)
      return false;

  if (dfa_) {
    int r = matchDfa(name);
    if (r >= 0) {
      if (r && captures)
        captures->clear();
      return r == 1;
    }
  }

  if (simple_)
    return matchSimple(name, captures);
  return matchVm(name, captures);
}

bool Pattern::matchSimple(std::string_view name, std::vector<std::string_view> *captures) const {
  const size_t n = name.size(), np = prefix_.size(), ns = suffix_.size();
  // Glob with `*` backtracking to the last star only (exact for single-character items).
  // The prefix and suffix are already checked; match the instructions between them.
  const uint32_t progEnd = static_cast<uint32_t>(prog_.size() - 1 - ns);
  const size_t end = n - ns;
  uint32_t pc = static_cast<uint32_t>(np);
  size_t pos = np;
  uint32_t starPc = UINT32_MAX;
  size_t starPos = 0;
  while (pos < end) {
    if (pc < progEnd) {
      const Inst &in = prog_[pc];
      unsigned char c = static_cast<unsigned char>(name[pos]);
      bool ok = false;
      switch (in.op) {
      case Op::Char:
        ok = name[pos] == in.ch;
        break;
      case Op::Any:
        ok = true;
        break;
      case Op::Class:
        ok = classes_[in.cls][c] != in.negate;
        break;
      case Op::Split: // `*`
        while (pc + 3 < progEnd && prog_[pc + 3].op == Op::Split)
          pc += 3;
        if (pc + 3 == progEnd) { // a trailing `*` takes the rest
          if (captures)
            captures->clear();
          return true;
        }
        starPc = pc + 3;
        starPos = pos;
        pc += 3;
        continue;
      default:
        break;
      }
      if (ok) {
        ++pc;
        ++pos;
        continue;
      }
    }
    if (starPc == UINT32_MAX)
      return false;
    pc = starPc;
    pos = ++starPos;
    if (prog_[pc].op == Op::Char) { // skip to the next place the star's follower can start
      size_t at = name.substr(0, end).find(prog_[pc].ch, pos);
      if (at == std::string_view::npos)
        return false;
      pos = starPos = at;
    }
  }
  while (pc < progEnd && prog_[pc].op == Op::Split)
    pc += 3;
  if (pc != progEnd)
    return false;
  if (captures)
    captures->clear();
  return true;
}

bool Pattern::matchVm(std::string_view name, std::vector<std::string_view> *captures) const {
  const size_t n = name.size(), np = prefix_.size();
  VmScratch &sc = tlsScratch;
  const size_t states = prog_.size() * (n + 1);
  if (sc.stamp.size() < states)
    sc.stamp.resize(states, 0);
  if (++sc.generation == 0) { // wrapped: forget every old stamp
    std::fill(sc.stamp.begin(), sc.stamp.end(), 0);
    sc.generation = 1;
  }
  const uint32_t gen = sc.generation;
  auto &caps = sc.caps;
  caps.assign(vars_.size() * 2, 0);
  auto &stack = sc.stack;
  stack.clear();
  stack.push_back({static_cast<uint32_t>(np), static_cast<uint32_t>(np), -1});
  auto accept = [&] {
    if (captures) {
      captures->clear();
      for (size_t k = 0; k < vars_.size(); ++k)
        captures->push_back(name.substr(caps[2 * k], caps[2 * k + 1] - caps[2 * k]));
    }
    return true;
  };
  while (!stack.empty()) {
    VmEntry e = stack.back();
    stack.pop_back();
    if (e.restoreSlot >= 0) {
      caps[static_cast<size_t>(e.restoreSlot)] = e.pos;
      continue;
    }
    size_t key = static_cast<size_t>(e.pc) * (n + 1) + e.pos;
    if (sc.stamp[key] == gen)
      continue;
    sc.stamp[key] = gen;
    const Inst &in = prog_[e.pc];
    uint32_t pos = e.pos;
    switch (in.op) {
    case Op::Char:
      if (pos < n && name[pos] == in.ch)
        stack.push_back({e.pc + 1, pos + 1, -1});
      break;
    case Op::Any:
      if (pos < n)
        stack.push_back({e.pc + 1, pos + 1, -1});
      break;
    case Op::Class:
      if (pos < n && classes_[in.cls][static_cast<unsigned char>(name[pos])] != in.negate)
        stack.push_back({e.pc + 1, pos + 1, -1});
      break;
    case Op::CharRange: {
      if (pos < n) {
        unsigned char c = static_cast<unsigned char>(name[pos]);
        if (c >= in.lo && c <= in.hi && c % in.step == in.y % in.step)
          stack.push_back({e.pc + 1, pos + 1, -1});
      }
      break;
    }
    case Op::NumRange: {
      size_t end = pos;
      while (end < n && std::isdigit(static_cast<unsigned char>(name[end])) &&
             end - pos < kMaxNumberDigits)
        ++end;
      uint64_t v = 0;
      for (size_t len = 1; pos + len <= end; ++len) {
        v = v * 10 + static_cast<uint64_t>(name[pos + len - 1] - '0');
        if (in.width == UINT32_MAX) { // {name}: any digit run
          stack.push_back({e.pc + 1, static_cast<uint32_t>(pos + len), -1});
          continue;
        }
        if (v < in.lo || v > in.hi)
          continue;
        if (in.step > 1 && v % in.step != in.y % in.step)
          continue;
        if (numberTextOk(name.substr(pos, len), v, in.width))
          stack.push_back({e.pc + 1, static_cast<uint32_t>(pos + len), -1});
      }
      break;
    }
    case Op::Split:
      if (e.pc == tailStar_) // the final `*` takes the rest of the name, whatever it is
        return accept();
      stack.push_back({in.y, pos, -1});
      stack.push_back({in.x, pos, -1});
      break;
    case Op::Jmp:
      stack.push_back({in.x, pos, -1});
      break;
    case Op::CapStart:
    case Op::CapEnd: {
      size_t slot = in.cap * 2 + (in.op == Op::CapEnd ? 1 : 0);
      stack.push_back({0, static_cast<uint32_t>(caps[slot]), static_cast<int32_t>(slot)});
      caps[slot] = pos;
      stack.push_back({e.pc + 1, pos, -1});
      break;
    }
    case Op::Match:
      if (pos == n)
        return accept();
      break;
    case Op::Star: // never emitted (`*` is Split/Any/Jmp)
      break;
    }
  }
  return false;
}

bool Pattern::matchesReference(std::string_view name,
                               std::vector<std::string_view> *captures) const {
  // Fast paths.
  if (literal_)
    return name == literalText_ && (!captures || (captures->clear(), true));
  if (name.size() < prefix_.size() || name.compare(0, prefix_.size(), prefix_) != 0)
    return false;

  const size_t n = name.size();
  const size_t states = prog_.size() * (n + 1);
  std::vector<bool> visited(states, false);
  std::vector<size_t> caps(vars_.size() * 2, 0);
  struct Entry {
    uint32_t pc;
    uint32_t pos;
    int32_t restoreSlot; // >= 0: restore caps[restoreSlot] = pos
  };
  std::vector<Entry> stack;
  stack.push_back({0, 0, -1});
  while (!stack.empty()) {
    Entry e = stack.back();
    stack.pop_back();
    if (e.restoreSlot >= 0) {
      caps[static_cast<size_t>(e.restoreSlot)] = e.pos;
      continue;
    }
    size_t key = static_cast<size_t>(e.pc) * (n + 1) + e.pos;
    if (visited[key])
      continue;
    visited[key] = true;
    const Inst &in = prog_[e.pc];
    uint32_t pos = e.pos;
    switch (in.op) {
    case Op::Char:
      if (pos < n && name[pos] == in.ch)
        stack.push_back({e.pc + 1, pos + 1, -1});
      break;
    case Op::Any:
      if (pos < n)
        stack.push_back({e.pc + 1, pos + 1, -1});
      break;
    case Op::Class:
      if (pos < n && classes_[in.cls][static_cast<unsigned char>(name[pos])] != in.negate)
        stack.push_back({e.pc + 1, pos + 1, -1});
      break;
    case Op::CharRange: {
      if (pos < n) {
        unsigned char c = static_cast<unsigned char>(name[pos]);
        if (c >= in.lo && c <= in.hi && c % in.step == in.y % in.step)
          stack.push_back({e.pc + 1, pos + 1, -1});
      }
      break;
    }
    case Op::NumRange: {
      size_t end = pos;
      while (end < n && std::isdigit(static_cast<unsigned char>(name[end])) &&
             end - pos < kMaxNumberDigits)
        ++end;
      for (size_t len = 1; pos + len <= end; ++len) {
        std::string_view digits = name.substr(pos, len);
        if (in.width == UINT32_MAX) { // {name}: any digit run
          stack.push_back({e.pc + 1, static_cast<uint32_t>(pos + len), -1});
          continue;
        }
        uint64_t v = 0;
        for (char d : digits)
          v = v * 10 + static_cast<uint64_t>(d - '0');
        if (v < in.lo || v > in.hi)
          continue;
        if (in.step > 1 && v % in.step != in.y % in.step)
          continue;
        if (numberMatchesText(v, digits, in.width))
          stack.push_back({e.pc + 1, static_cast<uint32_t>(pos + len), -1});
      }
      break;
    }
    case Op::Split:
      stack.push_back({in.y, pos, -1});
      stack.push_back({in.x, pos, -1});
      break;
    case Op::Jmp:
      stack.push_back({in.x, pos, -1});
      break;
    case Op::CapStart:
    case Op::CapEnd: {
      size_t slot = in.cap * 2 + (in.op == Op::CapEnd ? 1 : 0);
      stack.push_back({0, static_cast<uint32_t>(caps[slot]), static_cast<int32_t>(slot)});
      caps[slot] = pos;
      stack.push_back({e.pc + 1, pos, -1});
      break;
    }
    case Op::Match:
      if (pos == n) {
        if (captures) {
          captures->clear();
          for (size_t k = 0; k < vars_.size(); ++k)
            captures->push_back(name.substr(caps[2 * k], caps[2 * k + 1] - caps[2 * k]));
        }
        return true;
      }
      break;
    case Op::Star: // never emitted (`*` is Split/Any/Jmp)
      break;
    }
  }
  return false;
}

bool hasGlobSyntax(std::string_view text) {
  return text.find_first_of("*?[{\\") != std::string_view::npos;
}

std::string escapeGlob(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (std::strchr("*?[]{}\\", c) && c != '\0')
      out += '\\';
    out += c;
  }
  return out;
}

} // namespace qspec
