// horizon_plugin_pytorch QconfigSetter knowledge shared by the Horizon emitter and qlint
// (reference: ../shared/reference/horizon.md §3, §5): march vocabulary and defaults, legal
// observers, dtype identifiers, fixed-scale thresholds, and the one Python string escaper.
// Plain qspec types only.
#pragma once

#include <bitset>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace qspec::horizon {

// ---- march ---------------------------------------------------------------------------------
// Plugin march strings: nash-e, nash-m, nash-p, nash-h, nash-b.
bool isKnownMarch(std::string_view march);
std::string knownMarchList();
// The plugin's own enum constant `March.NASH_E` (also `hpp.march.March.NASH_E`, ...) -> its march
// string ("nash-e"); "" if `name` is not one of March.NASH_E, NASH_M, NASH_P, NASH_B.
std::string marchForConstant(std::string_view name);
// §3.5: nash-p / nash-h run non-GEMM ops in fp16 (global torch.float16, Conv/Matmul qint8);
// the others default to qint8 everywhere.
bool marchDefaultsToFloat16(std::string_view march);
constexpr const char *kDefaultMarch = "nash-e";

// ---- observers -----------------------------------------------------------------------------
// qspec spelling (histogram, minmax, mse) -> observer_v2 class name; "" if not one of the three
// legal observers.
std::string observerClass(std::string_view name);
std::string knownObserverList();

// ---- dtypes --------------------------------------------------------------------------------
// Python identifier of a dtype: "qint8", "qint16", "qint4", "torch.float16", "torch.float32".
// Tiers: int8, int16, fp16, float (dual-int16 is a port map, see the emitter).
std::optional<std::string> dtypeForTier(std::string_view tierName);
// -quant_min of a dtype identifier: 128 (qint8), 32768 (qint16), 8 (qint4); 0 = no fixed scale.
double negQuantMin(std::string_view dtypeIdent);
// threshold = scale x (-quant_min) (§3.4). Returns false (and `why`) if scale <= 0 or the dtype
// has no integer range.
bool thresholdForScale(double scale, std::string_view dtypeIdent, double &threshold,
                       std::string &why);
// Python float literal, shortest round trip, always with '.' or an exponent ("6.4", "1.0").
std::string pythonFloat(double v);

// ---- types ---------------------------------------------------------------------------------
// ConvDtypeTemplate covers these module types (Conv1d/2d/3d, ConvTranspose*, Conv, Linear).
bool isConvLikeType(std::string_view type);
// MatmulDtypeTemplate covers these (MatMul, Matmul, matmul ops, Gemm? no: Gemm is conv-like).
bool isMatmulLikeType(std::string_view type);
// dual-int16 exists only on Conv and Matmul (both operands qint16).
bool dualInt16Allowed(std::string_view type);

// ---- strings -------------------------------------------------------------------------------
// THE escaper: `text` as a double-quoted Python 3 str literal. Escapes `\\`, `"`, `\n`, `\r`,
// `\t`, other controls as `\xNN`, non-ASCII code points as `\uXXXX` / `\UXXXXXXXX`, so the
// literal is pure ASCII. Returns false (and `why`) for NUL or invalid UTF-8.
bool pythonStringLiteral(std::string_view text, std::string &out, std::string &why);
// True for dotted Python identifiers such as `backbone.layer1.0.conv` (digits allowed after a
// dot, as in nn.Sequential); the emitter warns on other names.
bool isDottedModuleName(std::string_view name);

// ---- module-name prefixes -------------------------------------------------------------------
// ModuleNameTemplate keys indexed for reading many names: a key reaches a name it equals or is a
// dotted prefix of (`blk` reaches `blk.sub`). Keys are hashed with FNV-1a, which is incremental,
// so a name and all its dotted prefixes are looked up in one pass over it (std::hash rehashed
// every prefix of every module). Keys are views: their text must outlive the index.
class PrefixKeys {
public:
  explicit PrefixKeys(size_t expected = 0);
  void add(std::string_view key, size_t value); // a repeated key keeps the last value
  bool empty() const { return size_ == 0; }
  struct Hit {
    size_t value;
    size_t length; // of the key: name.size() when the name itself is a key
  };
  // The longest key that is `name` or a dotted prefix of it; with `withEmpty`, "" reaches every
  // name (as in the plugin's templates), else only names that start with a dot.
  std::optional<Hit> longest(std::string_view name, bool withEmpty) const;
  // The dotted prefixes of the last name a cursor looked up (their hashes and the best key so
  // far): the next name resumes after the last dot the two share, so an inventory in tree order
  // hashes and probes about one segment per module instead of every prefix. For one index,
  // after all its keys are added.
  class Cursor {
    friend class PrefixKeys;
    struct Level {
      size_t end;    // just after a dot of `prev`
      uint64_t hash; // of prev[0, end)
      std::optional<Hit> best;
    };
    const PrefixKeys *keys = nullptr;
    std::vector<char> prev; // the last name's text: its first prevLength bytes (only the part
    size_t prevLength = 0;  // after the shared prefix is copied in, into a buffer that only grows)
    std::vector<Level> levels;
  };
  // The same as longest(name, withEmpty), resuming from `cursor` (which then holds `name`).
  std::optional<Hit> longest(std::string_view name, bool withEmpty, Cursor &cursor) const;

private:
  struct Slot {
    uint64_t hash = 0;
    std::string_view key;
    size_t value = 0;
    bool used = false;
  };
  std::vector<Slot> slots_;
  size_t size_ = 0;
  static constexpr size_t kLongKey = 255;
  std::bitset<kLongKey + 1>
      lengths_; // the keys' lengths (kLongKey: that or longer): most probes miss
  size_t maxLength_ = 0;
  std::optional<size_t> emptyValue_; // the value of the key "", which reaches every name

  static constexpr size_t kNone = SIZE_MAX;
  size_t find(std::string_view key, uint64_t hash) const; // the key's slot, or kNone
  void grow();
};

} // namespace qspec::horizon
