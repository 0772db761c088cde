// The typed, resolved representation of one .qspec file.
//
// `Spec` holds what the author wrote, typed and validated (tiers parsed, patterns compiled,
// targets and tuning structured), plus the model's inventory and scores. The passes fill in
// `Resolution`: per module its tier and settings, and for every setting the rule that decided
// it. Emitters, qlint and qtune read a Spec; only passes write its resolution.
#pragma once

#include "ir/Location.h"
#include "ir/Pattern.h"

#include <cstdint>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace qspec::ir {

// ---- Tiers -------------------------------------------------------------------------------

// The canonical tier order, lowest to highest precision. A spec's ladder is a subsequence.
enum class Tier : uint8_t { Int4, Int8, Int16, DualInt16, FP16, Float };
constexpr int kNumTiers = 6;
const char *tierName(Tier t);
std::optional<Tier> parseTier(std::string_view name);
// "int4, int8, int16, dual-int16, fp16, float"
std::string knownTierList();

// ---- Generic option trees (target blocks, nested settings) --------------------------------

struct Value {
  enum Kind { String, Number, Ident } kind = Ident;
  std::string text; // unescaped string, identifier, or number as written
  double number = 0;
  bool isInteger = false;
  SourceRange range;
};

struct Option {
  std::string key;
  std::vector<Value> values;    // `key v1, v2`
  std::vector<Option> children; // `key { ... }`
  bool isBlock = false;
  SourceRange range;    // the whole setting
  SourceRange keyRange; // the key alone

  const Option *child(std::string_view k) const;
};

// ---- Selectors ---------------------------------------------------------------------------

struct Selector {
  enum Kind { Name, Type } kind = Name;
  std::string text;               // the pattern as written (unescaped) or the type name
  std::optional<Pattern> pattern; // compiled (Name only)
  SourceRange range;
};
// The one module name a selector names, or nullopt (a glob, or a type selector).
std::optional<std::string> literalName(const Selector &s);

// ---- Quantization recipes ----------------------------------------------------------------

// Where a resolved value came from. A decision is kept for every setting of every module (nine
// per module, a million modules in the largest inventories), so it points at the rule's range,
// which the Spec owns, rather than copying it.
struct Decision {
  enum Source : uint8_t {
    BuiltIn,
    Default,
    TypeOverride,
    NameOverride,
    Protect,
    TuningExclude,
    TuningRaise,
    Group,
    // What one target adds (TargetReading, passes/TargetReadingPass.cpp); index into
    // Spec::targets. The target's own scope (msModelSlim's `include`) leaves the module out:
    TargetScope,
    // a setting of the deciding rule's vendor block (`amct { channel_wise false }`):
    TargetOption,
    // the vendor never quantizes the module's type (AMCT's ReduceMean, msModelSlim's non-Linear):
    VendorSkip,
    // the method the vendor applies for the recipe (AMCT's algorithm for PTQ or QAT):
    VendorMethod
  };
  Source source = BuiltIn;
  // Into Spec::overrides / protects / tune excludes / raises / targets, by source.
  int32_t index = -1;
  const SourceRange *at = nullptr; // the rule's range in the Spec; null for built-in values

  const SourceRange &range() const;
};
const char *decisionSourceName(Decision::Source s);

// One role (weight or activation). Unset fields inherit from lower-precedence rules.
struct Recipe {
  std::optional<std::string> dtype; // int4 int8 int16 fp16 fp8_e4m3 mxfp8 mxfp4 float ...
  std::optional<std::string> scope; // per_tensor per_channel per_group per_block per_token ...
  std::optional<bool> symmetric;
  std::optional<std::string> method; // minmax histogram ssz gptq ...
  // key=value settings, e.g. group_size=128, axes=-1: each value with its kind (a number stays a
  // number, sign included), as the backends write it.
  std::map<std::string, Value> ext;
  SourceRange range;
  bool empty() const { return !dtype && !scope && !symmetric && !method && ext.empty(); }
};

// The settings of a defaults or override block.
struct Settings {
  std::optional<Tier> tier;
  SourceRange tierRange;
  Recipe weight, act;
  std::vector<Option> targetOptions; // `amct { ... }` blocks inside a rule, by target name
};

struct Override {
  enum Level { Type, Name } level = Name;
  std::vector<Selector> selectors;
  int priority = 0;
  bool hasPriority = false;
  Settings settings;
  SourceRange range;        // whole declaration
  SourceRange subjectRange; // `type Linear` / `name "..."`
};

struct Protect {
  Selector selector;
  SourceRange range;
};

struct GroupDecl {
  enum Kind { SameScore, Declared } kind = Declared;
  std::string name;              // declared name, or "" (auto: "group@line:col")
  std::vector<Selector> members; // Declared: patterns, possibly with {i} variables
  std::string scoresPath;        // SameScore: file (resolved path), "" = tune scores
  SourceRange range;
};

// ---- Inventory and scores ----------------------------------------------------------------

struct Module {
  std::string name;
  std::string type;   // Linear, Conv2d, MatMul, ... ("" if unknown)
  int32_t block = -1; // decoder-block index, -1 if none
  uint32_t line = 0;  // line in the inventory file (manifests), 0 if not applicable
  // Whether the module has a bias (`NAME.bias` in a safetensors index or header; a bias input on
  // an ONNX Gemm/Conv node). Meaningful only when `biasKnown` (manifests do not say).
  bool hasBias = false;
  bool biasKnown = false;
  // A 2-D weight's input features (shape [out, in] in a safetensors header); 0 when unknown (an
  // index, a manifest, ONNX).
  uint32_t inFeatures = 0;
};

// Name -> position in a module list: an open-addressing table (linear probing, at most half
// full) of 8-byte slots, a position and 32 bits of its name's hash, over the modules' own names
// (a std::unordered_map of views was about 56 MB at a million modules, this is 16 MB). It reads
// like the map it replaced: `auto it = index.find(name); if (it != index.end()) use(it->second);`
// (find returns a small value, not an iterator into the table). The first position inserted for
// a name stays.
class ModuleIndex {
public:
  struct Hit {
    uint32_t second = 0;
    bool found = false;
    const Hit *operator->() const { return this; }
    friend bool operator==(const Hit &a, const Hit &b) {
      return a.found == b.found && (!a.found || a.second == b.second);
    }
    friend bool operator!=(const Hit &a, const Hit &b) { return !(a == b); }
  };

  // The modules whose names the table reads; the owner calls it again when the vector moves.
  void attach(const std::vector<Module> *modules) { modules_ = modules; }
  void clear();
  // Room for `n` names without growing.
  void reserve(size_t n);
  size_t size() const { return size_; }
  // Inserts modules[pos], whose name hashes to `hash` (std::hash<std::string_view>), unless its
  // name is in already: {the position indexed for the name, whether it was inserted}.
  std::pair<uint32_t, bool> insert(uint32_t pos, size_t hash);
  // The slot a name of hash `hash` goes to first, after reserve(): inserting names in this
  // order writes the table front to back.
  size_t homeSlot(size_t hash) const { return shift_ >= 64 ? 0 : hash >> shift_; }
  Hit find(std::string_view name) const;
  Hit end() const { return {}; }
  uint32_t at(std::string_view name) const; // throws std::out_of_range if absent

private:
  struct Slot {
    uint32_t pos = kEmpty;
    uint32_t tag = 0; // the hash's low 32 bits
  };
  static constexpr uint32_t kEmpty = UINT32_MAX;
  void rehash(size_t slots);

  const std::vector<Module> *modules_ = nullptr;
  std::vector<Slot> slots_; // a power of two, or empty
  unsigned shift_ = 64;     // 64 - log2(slots): a hash's top bits are its home slot
  size_t size_ = 0;
};

struct Inventory {
  std::string path;   // as given
  std::string format; // safetensors-index | safetensors | onnx | manifest
  std::vector<Module> modules;
  // name -> position in modules, over the modules' own names: whoever adds to or renames
  // `modules` after indexing calls rebuildIndex(). A copy of the Inventory rebuilds its index over
  // its own names; a move keeps the vector's buffer and re-attaches the index to it.
  ModuleIndex index;
  Inventory() { index.attach(&modules); }
  Inventory(const Inventory &o) : path(o.path), format(o.format), modules(o.modules) {
    rebuildIndex();
  }
  Inventory &operator=(const Inventory &o) {
    if (this != &o) {
      path = o.path;
      format = o.format;
      modules = o.modules;
      rebuildIndex();
    }
    return *this;
  }
  Inventory(Inventory &&o) noexcept
      : path(std::move(o.path)), format(std::move(o.format)), modules(std::move(o.modules)),
        index(std::move(o.index)) {
    index.attach(&modules);
    o.index.attach(&o.modules);
  }
  Inventory &operator=(Inventory &&o) noexcept {
    path = std::move(o.path);
    format = std::move(o.format);
    modules = std::move(o.modules);
    index = std::move(o.index);
    index.attach(&modules);
    o.index.attach(&o.modules);
    return *this;
  }
  bool present() const { return !path.empty(); }
  void rebuildIndex();
  const Module *find(std::string_view name) const;
};

// What the model's own `config.json` says (docs/inputs.md, "The model's config.json"): read
// beside a safetensors index or header, or from `config "path"` in the model block.
struct ModelConfig {
  // One part of the model: the top level (key ""), or a nested `text_config`, `vision_config`,
  // `audio_config`, ... of a composite model.
  struct Part {
    std::string key;       // "" = top level
    std::string modelType; // its "model_type", "" if absent
    std::string norm;      // "RMSNorm" (rms_norm_eps), "LayerNorm" (layer_norm_eps/_epsilon), ""
  };
  std::string path;  // as read; "" = none
  SourceRange range; // where the model block names it (invalid when found beside the index)
  std::vector<std::string> architectures; // "architectures", e.g. "GPT2LMHeadModel"
  std::vector<Part> parts;                // the top level first, then nested configs in file order
  // "tie_word_embeddings" at the top level, else in `text_config`; nullopt when neither says
  // (transformers' default is true).
  std::optional<bool> tieWordEmbeddings;
  bool present() const { return !path.empty(); }
};

struct ScoreEntry {
  std::string name; // a module, or a block such as "model.layers.3" (covers "model.layers.3.*")
  double score = 0;
  uint32_t line = 0;
};

struct Scores {
  std::string path;
  std::string format; // msmodelslim-log | analysis-yaml | hmct-json | hmct-log | horizon-table
  std::string metric; // e.g. mse_layer_wise, cosine-similarity
  bool higherIsMoreSensitive = true; // false for cosine-like metrics
  std::vector<ScoreEntry> entries;   // in file order
  bool present() const { return !path.empty(); }
};

// ---- The exported ONNX graph (two graphs: docs/inputs.md) --------------------------------

// One node of the exported ONNX's main graph (Constant nodes are left out, as for inventories).
struct GraphNode {
  std::string name; // the node's name; an unnamed node is `<op_type>_<index>` (see `unnamed`)
  std::string opType;
  std::string scope; // the module the exporter put it in, dotted ("model.layers.0.mlp"); "" unknown
  std::vector<std::string> inputs;
  bool unnamed = false;
};

// One module's nodes in the ONNX graph, and how they were found.
struct NodeMapping {
  enum How : uint8_t { None, MapFile, Weight, Scope };
  How how = None;
  std::vector<uint32_t> nodes;      // into OnnxGraph::nodes, graph order
  std::vector<uint32_t> candidates; // How None: the nodes that could be it (ambiguous), or empty
  SourceRange at;                   // MapFile: the mapping file's entry
};
const char *mappingHowName(NodeMapping::How h);

// The `onnx "model.onnx"` of the model block: the graph the ONNX-side targets (HMCT) name nodes
// in, with each inventory module's nodes (parallel to Inventory::modules).
struct OnnxGraph {
  std::string path, mapPath;   // as resolved; mapPath "" = no mapping file
  SourceRange range, mapRange; // where the model block names them
  std::vector<GraphNode> nodes;
  std::vector<NodeMapping> modules;
  bool present() const { return !path.empty(); }
};

// ---- Targets -----------------------------------------------------------------------------

struct Target {
  std::string kind;    // msmodelslim | amct | hmct | horizon
  std::string variant; // amct: ptq | qat; others: ""
  std::vector<Option> options;
  SourceRange range;
  const Option *option(std::string_view key) const;
};

// ---- Tuning ------------------------------------------------------------------------------

struct LevelTerm {
  enum Kind { First, Last, Top, Pattern } kind = First;
  uint32_t count = 0;
  bool percent = false; // `top 20%`: count is a percentage of the units (blocks for first/last)
  std::string pattern;
  SourceRange range;
};
struct Level {
  std::vector<LevelTerm> terms; // union
  SourceRange range;
  std::string text; // as written, e.g. "first 4 + last 4"
};

struct TuningRaise {
  std::vector<Selector> selectors;
  Tier tier = Tier::Float;
  SourceRange range;
};

// One `metric` statement: NAME OP THRESHOLD, or NAME OP P% of float (relative: the threshold is
// P/100 times the metric of the float baseline, which qtune evaluates once).
struct MetricGoal {
  std::string name;
  std::string op; // >= <= > <
  double threshold = 0;
  bool relative = false;
  SourceRange range;
};

struct Tune {
  bool present = false;
  std::vector<MetricGoal> metrics; // all must hold; `metric`/`metricOp`/`threshold` = the first
  std::string scoresPath;
  SourceRange scoresRange;
  std::string metric;   // e.g. accuracy
  std::string metricOp; // >= <= > <
  double threshold = 0;
  SourceRange metricRange;
  std::string strategy; // standing-high | hmct-ladder | qspec (default)
  SourceRange strategyRange;
  std::vector<Level> levels;
  std::vector<std::string> antiOutlier; // candidates, in rotation order
  std::optional<Tier> raiseTo;          // tier used for a fallback (default: float)
  int maxRounds = 0;                    // 0 = strategy default
  double maxSeconds = 0;
  std::vector<Selector> excludes;  // tuning state: excluded (float)
  std::vector<TuningRaise> raises; // tuning state: raised to a tier
  std::vector<Option> options;     // anything else, for the driver
  SourceRange range;
  // Where the tuning state is written, each statement with its ';' (qtune apply rewrites these):
  // every exclude/raise statement, and the anti_outlier setting.
  std::vector<SourceRange> stateStatements;
  SourceRange antiOutlierStatement;
};

// ---- Resolution (filled by passes) -------------------------------------------------------

template <typename T> struct Decided {
  T value{};
  Decision from;
};

// The text of an unset Word.
extern const std::string kUnsetWord;

// A resolved word (dtype, scope, method): the text of the rule that set it, which the Spec owns.
class Word {
public:
  Word() = default;
  explicit Word(const std::string &text) : text_(&text) {}
  // Inline: the emitters read a million modules' words.
  const std::string &str() const { return text_ ? *text_ : kUnsetWord; }
  operator const std::string &() const { return str(); }
  bool empty() const { return str().empty(); }
  friend bool operator==(const Word &a, std::string_view b) { return a.str() == b; }
  friend bool operator!=(const Word &a, std::string_view b) { return a.str() != b; }

private:
  const std::string *text_ = nullptr;
};
std::ostream &operator<<(std::ostream &os, const Word &w);

struct ResolvedRecipe {
  Decided<Word> dtype, scope, method;
  Decided<bool> symmetric;
};

struct ResolvedModule {
  Decided<Tier> tier;
  ResolvedRecipe weight, act;
  bool isProtected = false;
  bool tuned = false; // tier raised/excluded by the tuning state
  int32_t group = -1; // index into Resolution::groups, -1 if none
  // Per-target option blocks from the winning override, by target name.
  std::vector<const Option *> targetOptions;
};

struct Group {
  std::string name;
  GroupDecl::Kind kind = GroupDecl::Declared;
  int32_t decl = -1;             // index into Spec::groups
  std::vector<uint32_t> members; // module indices, ascending
  double score = 0;              // SameScore: the shared score
  SourceRange range;
};

// Without an inventory there are no modules to resolve, so the rules are resolved over what they
// name (passes/SymbolicResolution.h): one entry per distinct written selector (a type, or a name
// pattern), selected by every selector written the same way.
struct SymbolicEntry {
  bool isType = false;
  std::string text;                        // the selector as written
  std::vector<const Selector *> selectors; // every selector written so, in rule order
  ResolvedModule module;                   // defaults, overrides, protect and tuning applied
};

// What one target's vendor applies to a module where it differs from the general resolution:
// the fields it changes, each with the rule that decided it (a Decision of source TargetScope,
// TargetOption, VendorSkip or VendorMethod).
struct TargetChange {
  std::optional<Decided<Tier>> tier;
  std::optional<Decided<Word>> weightDtype, weightScope;
  // The vendor's method for each role where its word differs from the spec's (the QAT/PTQ
  // mapping, TargetInfo::methodOf).
  std::optional<Decided<Word>> weightMethod, actMethod;
  bool empty() const {
    return !tier && !weightDtype && !weightScope && !weightMethod && !actMethod;
  }
};

// One target's expected reading (passes/TargetReadingPass.cpp): what that vendor applies to each
// module, in the IR's words. The general resolution, then what the target adds (its scope, the
// deciding rule's vendor block), then the types the vendor does not quantize. Stored as the
// changes only: most modules read as the general resolution.
struct TargetReading {
  // Per module: 0 = as the general resolution, else 1 + an index into `changes`. Empty when no
  // module changes.
  std::vector<uint32_t> change;
  std::vector<TargetChange> changes; // distinct changes
  // Without an inventory, for a vendor that quantizes one module type only
  // (TargetInfo::onlyType): the symbolic resolution with every written name read as a module of
  // that type, so the type's overrides reach it under the name's. Empty otherwise.
  std::vector<SymbolicEntry> symbolic;
  const TargetChange *changeOf(size_t m) const {
    return m < change.size() && change[m] != 0 ? &changes[change[m] - 1] : nullptr;
  }
  // Module `m` (resolved as `general`) as this target reads it.
  ResolvedModule expected(const ResolvedModule &general, size_t m) const;
};

class ModuleSelector;

struct Resolution {
  bool done = false;
  // The passes' module selector and its indexes, for the emitters (ir::sharedSelector).
  std::shared_ptr<const ModuleSelector> selector;
  std::vector<ResolvedModule> modules; // parallel to inventory.modules
  std::vector<Group> groups;
  // Which modules each selector selected, by rule (for lint: unused patterns, shadowing).
  // Key: address of the Selector in the Spec.
  std::unordered_map<const Selector *, std::vector<uint32_t>> selected;
  // Without an inventory: the symbolic resolution, computed once by the precedence pass, in
  // first-written order (protects, tuning excludes, overrides, raises). The entries point at the
  // Spec's selectors and ranges, so they live as long as the Spec they were resolved from.
  std::vector<SymbolicEntry> symbolic;
  // Per target (parallel to Spec::targets), what its vendor applies: filled with an inventory.
  std::vector<TargetReading> targets;
};

// ---- The spec ----------------------------------------------------------------------------

// allow GROUP because "REASON": a warning group (or one warning ID) silenced in this spec.
struct Allow {
  std::string name, reason;
  SourceRange range;
};

struct Spec {
  std::string path;      // the .qspec file
  std::string modelName; // model "NAME"
  SourceRange modelRange;
  std::vector<Option> modelOptions;
  std::optional<Pattern> blockPattern; // blocks "model.layers.{i}"
  std::string blockPatternText;

  std::vector<Tier> ladder; // lowest first; default = all tiers
  SourceRange ladderRange;
  Settings defaults;
  SourceRange defaultsRange;
  std::vector<Protect> protects;
  std::vector<GroupDecl> groups;
  std::vector<Override> overrides;
  std::vector<Target> targets;
  Tune tune;

  Inventory inventory;
  SourceRange inventoryRange; // where the spec names it (invalid if from the command line)
  ModelConfig modelConfig;    // the model's config.json, when one was read
  OnnxGraph onnx; // the exported ONNX, when the model block names one next to the inventory
  Scores scores;
  SourceRange scoresRange; // where the model block names its scores file
  std::vector<Allow> allows;

  Resolution resolution;

  // The default tier: defaults.tier, else the lowest tier of the ladder.
  Tier defaultTier() const;
  bool inLadder(Tier t) const;
  const Target *target(std::string_view kind) const;
  // The expected reading of `t` (one of `targets`), or nullptr when there is none.
  const TargetReading *readingOf(const Target &t) const;
  // Module `m` as target `t` reads it: the general resolution with the target's changes.
  ResolvedModule expectedModule(const Target &t, size_t m) const;
  // The settings of the defaults or override block behind `d` (null for any other source): where
  // a decided recipe's key=value settings (group_size=128) are.
  const Settings *decidingSettings(const Decision &d) const;
};

} // namespace qspec::ir
