#include "ir/Select.h"
#include "ir/GlobSyntax.h"
#include "ir/Prefix.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>

namespace qspec::ir {

// A set of segments whose modules are candidates for one part of a pattern, and the length of
// their posting lists together (intersectPieces).
struct ModuleSelector::PieceSet {
  std::vector<uint32_t> segments;
  size_t total = 0;
};

namespace {
// Inventories up to this size are scanned: building an index does not pay.
constexpr size_t kSegmentIndexThreshold = 512;

// The whole dot-separated segments a literal run implies: pieces bounded by dots inside the run,
// or by the start (end) of the name when the run is the pattern's prefix (suffix).
void segmentsOfRun(std::string_view run, bool atStart, bool atEnd,
                   std::vector<std::string_view> &out) {
  size_t start = 0;
  bool leftBounded = atStart;
  while (true) {
    size_t dot = run.find('.', start);
    bool rightBounded = dot != std::string_view::npos || atEnd;
    size_t end = dot == std::string_view::npos ? run.size() : dot;
    if (leftBounded && rightBounded && end > start)
      out.push_back(run.substr(start, end - start));
    if (dot == std::string_view::npos)
      break;
    start = dot + 1;
    leftBounded = true;
  }
}
// Is `body` (the text inside one pair of braces) a numeric or character range (Pattern.cpp
// compileBrace), so that its dots are range syntax and not characters to match?
bool isRangeBody(std::string_view body) {
  auto number = [](std::string_view s, bool sign) {
    if (sign && !s.empty() && (s[0] == '-' || s[0] == '+'))
      s.remove_prefix(1);
    return !s.empty() && s.size() <= 17 &&
           s.find_first_not_of("0123456789") == std::string_view::npos;
  };
  size_t dots = body.find("..");
  if (dots == std::string_view::npos || body.find_first_of(",{}") != std::string_view::npos)
    return false;
  std::string_view a = body.substr(0, dots), b = body.substr(dots + 2), step;
  if (size_t d2 = b.find(".."); d2 != std::string_view::npos) {
    step = b.substr(d2 + 2);
    b = b.substr(0, d2);
    if (!number(step, true) || step.find_first_not_of("+-0") == std::string_view::npos)
      return false;
  }
  if (number(a, false) && number(b, false))
    return true;
  return a.size() == 1 && b.size() == 1 && std::isalnum(static_cast<unsigned char>(a[0])) &&
         std::isalnum(static_cast<unsigned char>(b[0]));
}

using glob::bracketEnd;

// Can `piece` (a part of a pattern between two literal dots) match a '.'? No when its classes
// are of letters, digits, '_' and ranges between them only (none reaches '.', which sorts below
// '0', unlike a negated class or `[+-/]`), and every brace group holding a dot is a range.
bool pieceMatchesNoDot(std::string_view piece) {
  for (size_t i = 0; i < piece.size(); ++i) {
    if (piece[i] == ']' || piece[i] == '.')
      return false; // a ']' outside a class, or a dot inside braces that may be literal
    if (piece[i] == '[') {
      size_t close = piece.find(']', i + 1);
      if (close == std::string_view::npos || close == i + 1)
        return false;
      for (char c : piece.substr(i + 1, close - i - 1))
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'))
          return false;
      i = close;
    } else if (piece[i] == '{') {
      int depth = 0;
      size_t close = i;
      for (; close < piece.size(); ++close) {
        if (piece[close] == '[' && (close = bracketEnd(piece, close)) == std::string_view::npos)
          return false;
        depth += piece[close] == '{' ? 1 : piece[close] == '}' ? -1 : 0;
        if (depth == 0)
          break;
      }
      if (close >= piece.size())
        return false;
      std::string_view body = piece.substr(i + 1, close - i - 1);
      if (body.find('.') != std::string_view::npos) {
        if (!isRangeBody(body))
          return false;
        i = close; // the range's own dots
      }
    }
  }
  return true;
}

// The dot-separated pieces of `text` that match exactly one whole segment of a name but are not
// literal: `5[0-4]` in `model.layers.*.mlp.experts.5[0-4].down_proj`, `{3,17}` and `{0..63}` in
// `model.layers.{3,17}.mlp.experts.{0..63}.*`. Such a piece lies between two literal dots of the
// pattern (dots inside braces do not split it), or an end, and can match no dot itself
// (pieceMatchesNoDot); it has classes or braces but no `*` and no `?`. Patterns with escapes or
// unbalanced braces are left alone.
std::vector<std::string_view> classPieces(std::string_view text) {
  std::vector<std::string_view> out;
  if (text.find('\\') != std::string_view::npos)
    return out;
  std::vector<size_t> cuts; // depth-0 dots
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '[') {
      size_t close = bracketEnd(text, i);
      if (close != std::string_view::npos)
        i = close;
    } else if (text[i] == '{') {
      ++depth;
    } else if (text[i] == '}' && --depth < 0) {
      return out;
    } else if (text[i] == '.' && depth == 0) {
      cuts.push_back(i);
    }
  }
  if (depth != 0)
    return out;
  cuts.push_back(text.size());
  size_t start = 0;
  for (size_t end : cuts) {
    std::string_view piece = text.substr(start, end - start);
    if (piece.find_first_of("[{") != std::string_view::npos &&
        piece.find_first_of("*?") == std::string_view::npos && pieceMatchesNoDot(piece))
      out.push_back(piece);
    start = end + 1;
  }
  return out;
}
} // namespace

ModuleSelector::ModuleSelector(const Inventory &inv) : inv_(inv) {
  // Neighbouring modules usually share a type: look the type up only when it changes.
  std::vector<uint32_t> *list = nullptr;
  const std::string *last = nullptr;
  for (uint32_t i = 0; i < inv.modules.size(); ++i) {
    const std::string &type = inv.modules[i].type;
    if (!last || type != *last) {
      list = &byType_[type];
      last = &type;
    }
    list->push_back(i);
  }
}

std::vector<uint32_t> ModuleSelector::select(const Selector &s) const {
  if (s.kind == Selector::Type)
    return selectType(s.text);
  if (!s.pattern)
    return {};
  return selectPattern(*s.pattern);
}

void ModuleSelector::buildSorted() const {
  std::call_once(sortedOnce_, [this] {
    const auto &mods = inv_.modules;
    sorted_.resize(mods.size());
    for (uint32_t i = 0; i < mods.size(); ++i)
      sorted_[i] = i;
    std::sort(sorted_.begin(), sorted_.end(),
              [&](uint32_t a, uint32_t b) { return mods[a].name < mods[b].name; });
  });
}

namespace {
// The ids of the segments last seen at each position of a name ("model.layers.7.mlp.experts.3.
// up_proj" is segments 0-6), a few per position: neighbouring names share their leading segments
// and cycle through a few last ones (gate_proj, up_proj, down_proj), so most segments are found
// here without hashing.
class RecentSegments {
public:
  static constexpr size_t kWays = 4;
  // The id of `seg` at `pos`, or UINT32_MAX.
  uint32_t find(size_t pos, std::string_view seg) const {
    if (pos >= ways_.size())
      return UINT32_MAX;
    for (const auto &[text, id] : ways_[pos])
      if (id != UINT32_MAX && text == seg)
        return id;
    return UINT32_MAX;
  }
  // The id of `seg` at `pos`: from here, or else miss(seg), remembered.
  template <typename Miss> uint32_t get(size_t pos, std::string_view seg, Miss miss) {
    uint32_t id = find(pos, seg);
    if (id == UINT32_MAX) {
      id = miss(seg);
      add(pos, seg, id);
    }
    return id;
  }
  void add(size_t pos, std::string_view seg, uint32_t id) {
    if (pos >= ways_.size()) {
      ways_.resize(pos + 1);
      next_.resize(pos + 1, 0);
      for (auto &w : ways_[pos])
        w.second = UINT32_MAX;
    }
    ways_[pos][next_[pos]] = {seg, id};
    next_[pos] = static_cast<uint8_t>((next_[pos] + 1) % kWays);
  }

private:
  std::vector<std::array<std::pair<std::string_view, uint32_t>, kWays>> ways_;
  std::vector<uint8_t> next_; // per position, the way to replace next
};

// The dot-separated segments `name` shares with `prev`, equal and in the same places: how many,
// and where the first other one starts. `dots` comes in with where prev's dots are (the shared
// bytes have the same ones) and leaves with name's dots before that start.
std::pair<size_t, size_t> sharedSegments(std::string_view prev, std::string_view name,
                                         std::vector<size_t> &dots) {
  const size_t diff = commonPrefixLength(prev, name);
  size_t count = 0;
  while (count < dots.size() && dots[count] < diff)
    ++count;
  const size_t start = count ? dots[count - 1] + 1 : 0;
  dots.resize(count);
  // The segment from `start` is shared too when both names end it at the first difference (past
  // the end of `name`, when that is all of it).
  if ((diff == name.size() || name[diff] == '.') && (diff == prev.size() || prev[diff] == '.')) {
    if (diff < name.size())
      dots.push_back(diff);
    return {count + 1, diff + 1};
  }
  return {count, start};
}
} // namespace

template <typename Lookup, typename Visit>
void ModuleSelector::forEachName(Lookup lookup, Visit visit) const {
  const auto &mods = inv_.modules;
  RecentSegments recent;
  std::vector<uint32_t> ids; // the name before's, then this one's
  std::vector<size_t> dots;  // where the name before's dots are, then this one's
  for (uint32_t i = 0; i < mods.size(); ++i) {
    std::string_view name = mods[i].name;
    auto [shared, start] =
        i == 0 ? std::pair<size_t, size_t>{0, 0} : sharedSegments(mods[i - 1].name, name, dots);
    ids.resize(shared);
    while (start <= name.size()) {
      const size_t end = std::min(name.find('.', start), name.size());
      if (end < name.size())
        dots.push_back(end);
      ids.push_back(recent.get(ids.size(), name.substr(start, end - start), lookup));
      start = end + 1;
    }
    visit(i, ids, shared);
  }
}

void ModuleSelector::buildSegments() const {
  std::call_once(segmentsOnce_, [this] {
    auto insert = [this](std::string_view seg) {
      auto [it, inserted] = segmentIds_.try_emplace(seg, static_cast<uint32_t>(postings_.size()));
      if (inserted)
        postings_.emplace_back();
      return it->second;
    };
    forEachName(insert, [this](uint32_t i, const std::vector<uint32_t> &ids, size_t) {
      for (uint32_t id : ids) {
        std::vector<uint32_t> &list = postings_[id];
        if (list.empty() || list.back() != i) // a name may repeat a segment ("5" in 5.experts.5)
          list.push_back(i);
      }
      if (ids.size() > 1) { // the last segment of a name with a dot
        if (lastPostings_.size() < postings_.size())
          lastPostings_.resize(postings_.size());
        lastPostings_[ids.back()].push_back(i);
      }
    });
  });
}

void ModuleSelector::buildTrie() const {
  buildSegments(); // every segment has its id
  std::call_once(trieOnce_, [this] {
    auto find = [this](std::string_view seg) { return segmentIds_.find(seg)->second; };
    forEachName(find, [this](uint32_t i, const std::vector<uint32_t> &ids, size_t shared) {
      trie_.addName(i, shared, ids);
    });
    trie_.finish();
  });
}

template <typename Keep> ModuleSelector::PieceSet ModuleSelector::segmentsWhere(Keep keep) const {
  buildSegments();
  PieceSet ps;
  for (const auto &[seg, id] : segmentIds_)
    if (keep(seg)) {
      ps.segments.push_back(id);
      ps.total += postings_[id].size();
    }
  return ps;
}

// A literal run without a dot lies inside one segment of every match (`kv` in `*experts*0*kv*`):
// the modules with a segment that contains it are candidates. Only runs whose segments are few
// enough to be worth it, and only while reading the distinct segments costs less than matching
// every module.
void ModuleSelector::addRunSets(const Pattern &p, std::vector<PieceSet> &sets) const {
  const size_t modules = inv_.modules.size();
  buildSegments();
  for (const std::string &run : p.requiredLiterals()) {
    if (run.find('.') != std::string::npos || segmentIds_.size() * (sets.size() + 1) > modules)
      continue;
    PieceSet ps = segmentsWhere(
        [&](std::string_view seg) { return seg.find(run) != std::string_view::npos; });
    if (ps.total * 8 < modules)
      sets.push_back(std::move(ps));
  }
}

// A star-only pattern (`*a*b*c*`, Pattern::starsOnly) whose runs have no dot or are a lone dot
// (`*up*.*`), after a prefix that is empty or ends with a dot and before a suffix that is empty or
// starts with one. A name matches when its segments are the prefix's, then at least one more, then
// the suffix's, and the ones between take all the runs: each run without a dot lies inside one
// segment, so read in order a segment takes as many of the remaining runs as it contains one after
// the other, and the next segment goes on from there; the dot between two of them takes one
// lone-dot run, when that is the next one. A table gives the runs a segment takes, per distinct
// segment and runs taken before it. Over the classes of the segment trie (SegmentTrie: equal
// subtrees), whether a name below can still match is known per class and runs taken; the trie is
// then read only where it can, so the cost is the classes' edges and the matches, not the names.
class ModuleSelector::StarFold {
public:
  static bool applies(const Pattern &p) {
    // Without runs, Pattern::matches compares the prefix and the suffix only.
    if (!p.starsOnly() || p.starRuns().empty() || p.starRuns().size() >= UINT8_MAX)
      return false;
    const std::string &pre = p.literalPrefix(), &suf = p.literalSuffix();
    if ((!pre.empty() && pre.back() != '.') || (!suf.empty() && suf.front() != '.'))
      return false;
    return std::all_of(p.starRuns().begin(), p.starRuns().end(), [](const std::string &run) {
      return run == "." || run.find('.') == std::string::npos;
    });
  }

  // The selector's segment trie must be built.
  StarFold(const ModuleSelector &sel, const Pattern &p)
      : trie_(sel.trie_), runs_(p.starRuns().size()),
        shift_(static_cast<uint32_t>(64 - __builtin_clzll(runs_ | 1))),
        next_(sel.postings_.size() << shift_), dot_(runs_ + 1) {
    for (size_t taken = 0; taken <= runs_; ++taken)
      dot_[taken] = static_cast<uint8_t>(taken + (taken < runs_ && p.starRuns()[taken] == "."));
    // A segment has no dot: the search for a lone-dot run fails, so a segment stops before one.
    for (const auto &[seg, id] : sel.segmentIds_)
      for (size_t taken = 0; taken <= runs_; ++taken) {
        size_t k = taken, from = 0;
        for (size_t at;
             k < runs_ && (at = seg.find(p.starRuns()[k], from)) != std::string_view::npos; ++k)
          from = at + p.starRuns()[k].size();
        next_[(size_t{id} << shift_) | taken] = static_cast<uint8_t>(k);
      }
    const std::string &pre = p.literalPrefix(), &suf = p.literalSuffix();
    found_ =
        (pre.empty() || segmentIds(sel, std::string_view(pre).substr(0, pre.size() - 1), pre_)) &&
        (suf.empty() || segmentIds(sel, std::string_view(suf).substr(1), suf_));
    if (found_)
      decideClasses();
  }

  // Appends every module the pattern matches to `out`, ascending.
  void matchAll(std::vector<uint32_t> &out) const {
    if (!found_)
      return;
    const size_t first = out.size();
    std::vector<uint32_t> at{SegmentTrie::root()}, scratch;
    for (uint32_t seg : pre_) // the nodes the prefix leads to (more than one if it came back)
      childrenOf(at, seg, scratch);
    // Depth first through the nodes whose class can still end a match, with the runs taken.
    std::vector<std::pair<uint32_t, uint8_t>> stack;
    for (uint32_t n : at)
      push(n, 0, stack); // no dot before the first segment after the prefix
    while (!stack.empty()) {
      auto [n, taken] = stack.back();
      stack.pop_back();
      if (taken == runs_ && ends_[trie_.node(n).cls])
        addSuffixMatches(n, out, scratch);
      push(n, dot_[taken], stack);
    }
    // Depth first visits the names about in inventory order: sorted already but for a name read
    // after a longer one it begins, or after the prefix came back.
    if (!std::is_sorted(out.begin() + static_cast<ptrdiff_t>(first), out.end()))
      std::sort(out.begin() + static_cast<ptrdiff_t>(first), out.end());
  }

private:
  // The runs taken after segment `seg`, `taken` before it (and before the dot ahead of it).
  uint8_t after(uint32_t seg, size_t taken) const { return next_[(size_t{seg} << shift_) | taken]; }
  bool canEnd(uint32_t cls, size_t taken) const { return reach_[cls * (runs_ + 1) + taken]; }

  // The ids of `text`'s dot-separated segments (the prefix without its last dot, the suffix
  // without its first) into `out`; false when a segment is in no name.
  static bool segmentIds(const ModuleSelector &sel, std::string_view text,
                         std::vector<uint32_t> &out) {
    for (size_t start = 0;;) {
      size_t dot = std::min(text.find('.', start), text.size());
      auto it = sel.segmentIds_.find(text.substr(start, dot - start));
      if (it == sel.segmentIds_.end())
        return false;
      out.push_back(it->second);
      if (dot == text.size())
        return true;
      start = dot + 1;
    }
  }

  // ends_: per class, whether the suffix's segments lead from it to a name. reach_: per class and
  // runs taken after its segment, whether a name below it (or it) matches. Edges lead to lower
  // classes, so both are filled from class 0 up.
  void decideClasses() {
    const size_t classes = trie_.classCount(), row = runs_ + 1;
    ends_.resize(classes);
    for (uint32_t c = 0; c < classes; ++c)
      ends_[c] = trie_.terminal(c);
    std::vector<uint8_t> before(classes);
    for (size_t j = suf_.size(); j-- > 0; ends_.swap(before))
      for (uint32_t c = 0; c < classes; ++c)
        before[c] =
            std::any_of(trie_.edgesBegin(c), trie_.edgesEnd(c), [&](const SegmentTrie::Edge &e) {
              return e.segment == suf_[j] && ends_[e.cls];
            });
    reach_.assign(classes * row, 0);
    for (uint32_t c = 0; c < classes; ++c)
      for (size_t taken = 0; taken <= runs_; ++taken)
        reach_[c * row + taken] =
            (taken == runs_ && ends_[c]) ||
            std::any_of(trie_.edgesBegin(c), trie_.edgesEnd(c), [&](const SegmentTrie::Edge &e) {
              return canEnd(e.cls, after(e.segment, dot_[taken]));
            });
  }

  // Pushes the children of node n that can end a match, with the runs they take, `before` taken
  // before them.
  void push(uint32_t n, uint8_t before, std::vector<std::pair<uint32_t, uint8_t>> &stack) const {
    for (uint32_t c = trie_.node(n).firstChild; c != SegmentTrie::kNone;
         c = trie_.node(c).nextSibling) {
      const SegmentTrie::Node &child = trie_.node(c);
      const uint8_t t = after(child.segment, before);
      if (canEnd(child.cls, t))
        stack.emplace_back(c, t);
    }
  }

  // Replaces the nodes `at` by their children of segment `seg`.
  void childrenOf(std::vector<uint32_t> &at, uint32_t seg, std::vector<uint32_t> &scratch) const {
    scratch.clear();
    for (uint32_t n : at)
      for (uint32_t c = trie_.node(n).firstChild; c != SegmentTrie::kNone;
           c = trie_.node(c).nextSibling)
        if (trie_.node(c).segment == seg)
          scratch.push_back(c);
    at.swap(scratch);
  }

  // Appends the modules the suffix's segments lead to from node n.
  void addSuffixMatches(uint32_t n, std::vector<uint32_t> &out,
                        std::vector<uint32_t> &scratch) const {
    if (suf_.empty()) {
      out.push_back(trie_.node(n).module);
      return;
    }
    std::vector<uint32_t> at{n};
    for (uint32_t seg : suf_)
      childrenOf(at, seg, scratch);
    for (uint32_t m : at)
      if (trie_.node(m).module != SegmentTrie::kNone)
        out.push_back(trie_.node(m).module);
  }

  const SegmentTrie &trie_;
  size_t runs_;
  uint32_t shift_;            // next_'s row length, a power of two above the runs: 1 << shift_
  std::vector<uint8_t> next_; // by segment id << shift_ | runs taken before it: runs taken after it
  std::vector<uint8_t> dot_;  // by runs taken: runs taken after a dot between two segments
  std::vector<uint32_t> pre_, suf_; // the segment ids of the prefix and of the suffix
  bool found_ = false;              // every one of them is in some name
  std::vector<uint8_t> ends_, reach_;
};

template <typename ForEach>
void ModuleSelector::keepMatches(const Pattern &p, size_t count, ForEach forEach,
                                 std::vector<uint32_t> &out) const {
  // The table costs a few searches per distinct segment; the searches it saves, a few per module.
  if (inv_.modules.size() > kSegmentIndexThreshold && StarFold::applies(p)) {
    buildSegments();
    if (count > 2 * segmentIds_.size()) {
      // Every candidate list holds every match: the pattern's own matches are the answer.
      buildTrie();
      StarFold(*this, p).matchAll(out);
      return;
    }
  }
  forEach([&](uint32_t i) {
    if (p.matches(inv_.modules[i].name))
      out.push_back(i);
  });
}

const std::vector<uint32_t> *ModuleSelector::segmentPostings(std::string_view segment) const {
  auto it = segmentIds_.find(segment);
  return it == segmentIds_.end() ? nullptr : &postings_[it->second];
}

bool ModuleSelector::intersectPieces(const Pattern &p, const std::vector<uint32_t> *best,
                                     std::vector<uint32_t> &out) const {
  // Per module: how many of the sets so far hold it; and a bit per module of the first set, so
  // that set is read back in ascending order from its words alone. Both are kept zero between
  // calls (per thread: the selector runs in parallel), so no call clears or scans a byte per
  // module: the cost is the postings read plus one word per 64 modules of the first set's span.
  static thread_local std::vector<uint8_t> rounds;
  static thread_local std::vector<uint64_t> firstSet;
  size_t lo = SIZE_MAX, hi = 0; // words of firstSet that may be set
  std::vector<PieceSet> sets;   // each piece's matching segments
  for (std::string_view piece : classPieces(p.text())) {
    std::string err;
    std::optional<Pattern> pp = Pattern::compile(piece, err);
    if (!pp)
      continue;
    sets.push_back(segmentsWhere([&](std::string_view seg) { return pp->matches(seg); }));
  }
  if (!best || best->size() * 8 >= inv_.modules.size())
    addRunSets(p, sets);
  // Smallest first; a piece whose lists are much longer than the candidates so far is left to the
  // pattern's own match of those candidates (every candidate is matched anyway: a superset is
  // fine).
  std::stable_sort(sets.begin(), sets.end(),
                   [](const PieceSet &a, const PieceSet &b) { return a.total < b.total; });
  size_t bound = best ? best->size() : inv_.modules.size();
  uint8_t round = 0;
  for (const PieceSet &ps : sets) {
    if (round == 254 || ((round > 0 || best) && ps.total > bound * 8))
      break;
    if (rounds.size() < inv_.modules.size()) {
      rounds.resize(inv_.modules.size(), 0);
      firstSet.resize((inv_.modules.size() + 63) / 64, 0);
    }
    for (uint32_t id : ps.segments)
      for (uint32_t i : postings_[id])
        if (rounds[i] == round) {
          rounds[i] = static_cast<uint8_t>(round + 1);
          if (round == 0) {
            firstSet[i >> 6] |= uint64_t(1) << (i & 63);
            lo = std::min<size_t>(lo, i >> 6);
            hi = std::max<size_t>(hi, i >> 6);
          }
        }
    bound = std::min(bound, ps.total);
    ++round;
  }
  if (round == 0)
    return false;
  // `best` narrows the pieces' intersection only when it is about as short: reading a posting list
  // of most of the inventory (`experts` in `model.layers.{3,17}.mlp.experts.{5,9}.*`) costs more
  // than matching the candidates it would drop.
  if (best && best->size() <= bound * 8) {
    for (uint32_t i : *best)
      if (rounds[i] == round)
        rounds[i] = static_cast<uint8_t>(round + 1);
    ++round;
  }
  for (size_t w = lo; w <= hi && lo != SIZE_MAX; ++w) {
    uint64_t bits = firstSet[w];
    firstSet[w] = 0;
    for (; bits; bits &= bits - 1) {
      uint32_t i = static_cast<uint32_t>(w * 64 + static_cast<size_t>(__builtin_ctzll(bits)));
      if (rounds[i] == round)
        out.push_back(i);
      rounds[i] = 0;
    }
  }
  return true;
}

void ModuleSelector::rememberSelections(size_t ids) const {
  std::lock_guard<std::mutex> hold(rememberedLock_);
  rememberLimit_ = ids;
  remembering_ = ids > 0;
}

ModuleSelector::Remembered ModuleSelector::remembered() const {
  std::lock_guard<std::mutex> hold(rememberedLock_);
  return {remembered_.size(), rememberedIds_, rememberedAnswers_};
}

std::vector<uint32_t> ModuleSelector::selectPattern(const Pattern &p) const {
  // A literal name is one hash lookup: nothing to keep.
  if (!remembering_ || p.isLiteral())
    return findPattern(p);
  {
    std::lock_guard<std::mutex> hold(rememberedLock_);
    if (auto it = remembered_.find(p.text()); it != remembered_.end()) {
      ++rememberedAnswers_;
      return it->second;
    }
  }
  std::vector<uint32_t> out = findPattern(p);
  std::lock_guard<std::mutex> hold(rememberedLock_);
  if (rememberedIds_ + out.size() <= rememberLimit_ && remembered_.emplace(p.text(), out).second)
    rememberedIds_ += out.size();
  return out;
}

std::vector<uint32_t> ModuleSelector::findPattern(const Pattern &p) const {
  std::vector<uint32_t> out;
  if (p.isLiteral()) {
    auto it = inv_.index.find(p.literal());
    if (it != inv_.index.end())
      out.push_back(it->second);
    return out;
  }
  const auto &mods = inv_.modules;
  // The matches among the modules of an ascending list of candidates.
  auto keepMatchesIn = [&](const std::vector<uint32_t> &list) {
    keepMatches(
        p, list.size(),
        [&](auto keep) {
          for (uint32_t i : list)
            keep(i);
        },
        out);
  };

  // `*.NAME` selects exactly the modules whose last segment is NAME (a copy, nothing to match).
  const std::string &suffix = p.literalSuffix();
  if (mods.size() > kSegmentIndexThreshold && suffix.size() > 1 && suffix[0] == '.' &&
      suffix.find('.', 1) == std::string::npos && p.text().size() == suffix.size() + 1 &&
      p.text()[0] == '*' && p.text().compare(1, std::string::npos, suffix) == 0) {
    buildSegments();
    auto it = segmentIds_.find(std::string_view(suffix).substr(1));
    if (it == segmentIds_.end() || it->second >= lastPostings_.size())
      return out;
    return lastPostings_[it->second];
  }

  // Candidates 1: the shortest posting list of a segment every match contains.
  const std::vector<uint32_t> *best = nullptr;
  const std::string &prefix = p.literalPrefix();
  if (mods.size() > kSegmentIndexThreshold && !p.requiredLiterals().empty()) {
    std::vector<std::string_view> segments;
    const auto &runs = p.requiredLiterals();
    for (size_t r = 0; r < runs.size(); ++r) {
      bool atStart = r == 0 && !prefix.empty();
      bool atEnd = r + 1 == runs.size() && !p.literalSuffix().empty();
      segmentsOfRun(runs[r], atStart, atEnd, segments);
    }
    if (!segments.empty()) {
      buildSegments();
      static const std::vector<uint32_t> kNone;
      for (std::string_view seg : segments) {
        const std::vector<uint32_t> *list = segmentPostings(seg);
        if (!list)
          list = &kNone; // a required segment no module has: nothing matches
        if (!best || list->size() < best->size())
          best = list;
      }
    }
  }
  // Candidates 1c: pieces that must each be one whole segment (`5[0-4]`, `{3,17}`, `{0..63}`):
  // for each, the union of the posting lists of the distinct segments it matches; the modules in
  // every union and in the list above are the candidates (a subset of that list).
  std::vector<uint32_t> pieceCandidates;
  if (mods.size() > kSegmentIndexThreshold && intersectPieces(p, best, pieceCandidates))
    best = &pieceCandidates;
  // Candidates 1b: when the pattern starts with alternatives ("model.layers.{3,17}.mlp.*"), the
  // union over its literal prefixes of each prefix's rarest segment, if that is fewer.
  const auto &prefixes = p.literalPrefixes();
  if (prefixes.size() > 1 && mods.size() > kSegmentIndexThreshold) {
    buildSegments();
    std::vector<const std::vector<uint32_t> *> lists;
    size_t total = 0;
    std::vector<std::string_view> segments;
    for (const std::string &pre : prefixes) {
      segments.clear();
      segmentsOfRun(pre, true, false, segments);
      if (segments.empty()) {
        lists.clear();
        break;
      }
      static const std::vector<uint32_t> kNone;
      const std::vector<uint32_t> *rarest = nullptr;
      for (std::string_view seg : segments) {
        const std::vector<uint32_t> *list = segmentPostings(seg);
        if (!list)
          list = &kNone;
        if (!rarest || list->size() < rarest->size())
          rarest = list;
      }
      lists.push_back(rarest);
      total += rarest->size();
    }
    if (!lists.empty() && (!best || total < best->size()) && total * 8 < mods.size()) {
      std::vector<uint32_t> candidates;
      candidates.reserve(total);
      for (const auto *list : lists)
        candidates.insert(candidates.end(), list->begin(), list->end());
      std::sort(candidates.begin(), candidates.end());
      candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
      keepMatchesIn(candidates);
      return out;
    }
  }

  if (best && best->size() * 8 < mods.size()) { // ascending already
    keepMatchesIn(*best);
    return out;
  }

  // Candidates 2: names starting with the literal prefix, a range of the sorted names (sorted on
  // first need), unless that range is not smaller than the posting list.
  // The prefix's whole segments were considered above; it can only do better when it ends inside
  // a segment ("model.layers.1*") or ties several segments together.
  bool prefixMayHelp = !prefix.empty() && (!best || prefix.back() != '.' ||
                                           std::count(prefix.begin(), prefix.end(), '.') >= 3);
  if (prefixMayHelp && mods.size() > kSegmentIndexThreshold) {
    buildSorted();
    auto lo = std::partition_point(sorted_.begin(), sorted_.end(), [&](uint32_t i) {
      return mods[i].name.compare(0, prefix.size(), prefix) < 0;
    });
    auto hi = std::partition_point(lo, sorted_.end(), [&](uint32_t i) {
      return mods[i].name.compare(0, prefix.size(), prefix) == 0;
    });
    if (!best || static_cast<size_t>(hi - lo) < best->size()) {
      auto range = [&](auto keep) {
        for (auto it = lo; it != hi; ++it)
          keep(*it);
      };
      keepMatches(p, static_cast<size_t>(hi - lo), range, out);
      std::sort(out.begin(), out.end());
      return out;
    }
  }
  if (best) {
    keepMatchesIn(*best);
    return out;
  }
  // Candidates 3: every module (small inventories, or nothing to index by).
  keepMatches(
      p, mods.size(),
      [&](auto keep) {
        for (uint32_t i = 0; i < mods.size(); ++i)
          keep(i);
      },
      out);
  return out;
}

std::vector<uint32_t> ModuleSelector::selectPatternReference(const Pattern &p) const {
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < inv_.modules.size(); ++i)
    if (p.matchesReference(inv_.modules[i].name))
      out.push_back(i);
  return out;
}

std::vector<uint32_t> ModuleSelector::selectWritten(const std::string &text,
                                                    const Pattern &p) const {
  std::vector<uint32_t> out = selectPattern(p);
  if (!p.isLiteral() || p.literal() != text) {
    auto it = inv_.index.find(text);
    if (it != inv_.index.end()) {
      auto at = std::lower_bound(out.begin(), out.end(), it->second);
      if (at == out.end() || *at != it->second)
        out.insert(at, it->second);
    }
  }
  return out;
}

const ModuleSelector *sharedSelector(const Spec &spec) {
  const ModuleSelector *s = spec.resolution.selector.get();
  return s && &s->inventory() == &spec.inventory ? s : nullptr;
}

std::vector<uint32_t> ModuleSelector::selectType(std::string_view type) const {
  auto it = byType_.find(std::string(type));
  return it == byType_.end() ? std::vector<uint32_t>{} : it->second;
}

} // namespace qspec::ir
