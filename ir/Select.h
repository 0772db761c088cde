// Which modules of an inventory a selector selects. Built once per inventory and shared by the
// passes, emitters and qlint, so every tool agrees on what a pattern means.
//
// Speed (docs/performance.md): a literal pattern is a hash lookup. Any other pattern only tries
// candidates: the modules containing the rarest dot-separated segment the pattern requires (a
// posting list: `*.mlp.experts.*.down_proj` needs the segments `mlp`, `experts` and a last
// segment `down_proj`), or, when the literal prefix says more, the modules whose names start with
// it (a range of the names in sorted order), or, for a piece with classes that must be one whole
// segment (`experts.5[0-4].`), the posting lists of the distinct segments it matches.
// Inventories of at most 512 modules are scanned. A star-only pattern whose runs have no dot or
// are a lone dot (`*experts*gate*`, `*up*.*`) that would be tried on many candidates is decided
// per class of equal subtrees of the names' segment trie (SegmentTrie), with a table per distinct
// segment instead of string searches, and only the subtrees holding a match are read (StarFold in
// Select.cpp).
// Indexes are built on first need. Results are the same as trying every module
// (`selectPatternReference`, kept for the equivalence test).
#pragma once

#include "ir/IR.h"
#include "ir/SegmentTrie.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace qspec::ir {

class ModuleSelector {
public:
  explicit ModuleSelector(const Inventory &inv);

  // Indices into inv.modules, ascending.
  std::vector<uint32_t> select(const Selector &s) const;
  std::vector<uint32_t> selectPattern(const Pattern &p) const;
  std::vector<uint32_t> selectType(std::string_view type) const;
  // The straightforward matcher: every module through Pattern::matchesReference.
  std::vector<uint32_t> selectPatternReference(const Pattern &p) const;
  // msModelSlim's test for a written pattern: the module named exactly `text`, then the glob.
  std::vector<uint32_t> selectWritten(const std::string &text, const Pattern &p) const;
  // From now on keeps what selectPattern finds for a pattern that is not a literal name, by the
  // pattern's text, and answers the same text again from there, up to `ids` module ids in all
  // (the first patterns to come are kept). For a selector used for many compiles of one
  // inventory (qtune selects the spec's patterns again for every probe); until this is called, a
  // selector keeps nothing.
  void rememberSelections(size_t ids) const;
  struct Remembered {
    size_t patterns = 0, ids = 0; // kept
    size_t answers = 0;           // selectPattern calls answered from them
  };
  Remembered remembered() const;

  const Inventory &inventory() const { return inv_; }

private:
  // selectPattern without the remembered selections.
  std::vector<uint32_t> findPattern(const Pattern &p) const;
  void buildSorted() const;
  void buildSegments() const;
  // Calls visit(i, ids, shared) for each module name in turn: ids its dot-separated segments' ids
  // in order, the first `shared` of them those of the name before it (the segments the two share,
  // equal and in the same places, are not read again) and the others from lookup(segment).
  template <typename Lookup, typename Visit> void forEachName(Lookup lookup, Visit visit) const;
  // trie_ (the segments built first).
  void buildTrie() const;
  // The posting list of a segment, or nullptr if no module has it.
  const std::vector<uint32_t> *segmentPostings(std::string_view segment) const;
  // The modules in every class piece's set of segments (classPieces: `5[0-4]`, `{3,17}`), in the
  // set of segments containing each selective literal run without a dot (addRunSets) and in
  // `best` if given, ascending, into `out`; false if the pattern has no such piece or run.
  bool intersectPieces(const Pattern &p, const std::vector<uint32_t> *best,
                       std::vector<uint32_t> &out) const;
  struct PieceSet;
  // The distinct segments `keep` accepts, with the length of their posting lists together.
  template <typename Keep> PieceSet segmentsWhere(Keep keep) const;
  // The segment sets of the pattern's literal runs without a dot, for intersectPieces.
  void addRunSets(const Pattern &p, std::vector<PieceSet> &sets) const;
  // A star-only pattern matched segment by segment (Select.cpp).
  class StarFold;
  // Appends to `out` the candidates `p` matches, `forEach(keep)` calling keep(i) for each of the
  // `count` candidates i, through Pattern::matches; or, when the candidates are many and the
  // StarFold applies, every match of `p` without reading them (they hold every match).
  template <typename ForEach>
  void keepMatches(const Pattern &p, size_t count, ForEach forEach,
                   std::vector<uint32_t> &out) const;

  const Inventory &inv_;
  std::unordered_map<std::string, std::vector<uint32_t>> byType_;
  // Built on first need (selection is logically const), once even when emitters select from
  // several threads.
  mutable std::vector<uint32_t> sorted_; // module indices, by name
  mutable std::once_flag sortedOnce_;
  mutable std::unordered_map<std::string_view, uint32_t> segmentIds_; // views into inv_ names
  mutable std::vector<std::vector<uint32_t>> postings_; // by segment id, ascending, no repeats
  // By segment id: the modules whose name has a dot and ends with that segment (`*.down_proj`).
  mutable std::vector<std::vector<uint32_t>> lastPostings_;
  // The names as a trie of segment ids, for StarFold. Built on first need.
  mutable SegmentTrie trie_;
  mutable std::once_flag trieOnce_;
  mutable std::once_flag segmentsOnce_;
  // rememberSelections: selections by pattern text, the module ids they may hold in all and do
  // hold, and the calls answered from them.
  mutable std::mutex rememberedLock_;
  mutable std::unordered_map<std::string, std::vector<uint32_t>> remembered_;
  mutable size_t rememberLimit_ = 0, rememberedIds_ = 0, rememberedAnswers_ = 0;
  mutable std::atomic<bool> remembering_{false};
};

// The selector the passes built for `spec` (shared with the emitters), or nullptr when the spec
// was not resolved or is a copy of the one that was.
const ModuleSelector *sharedSelector(const Spec &spec);

} // namespace qspec::ir
