// The vendor's reading: what a vendor tool applies to each module of the inventory when it reads
// a file, in the IR's own vocabulary. Each vendors/<name>/ folder builds one from a written file
// (its document model plus that tool's matching and precedence rules); translation validation
// compares it with the spec's resolution, module by module and field by field.
#pragma once

#include "ir/Diagnostics.h"
#include "ir/IR.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace qspec::vendors {

// The fields of a module's resolution that a backend may carry. A backend declares which of them
// its format carries; only those are compared, and every field the spec sets that the backend
// cannot carry is reported by the emitter (an error, or a warning the user can silence), never
// dropped in silence.
enum Field : uint32_t {
  FieldTier = 1u << 0,
  FieldWeightDtype = 1u << 1,
  FieldWeightScope = 1u << 2,
  FieldWeightSymmetric = 1u << 3,
  FieldWeightMethod = 1u << 4,
  FieldActDtype = 1u << 5,
  FieldActScope = 1u << 6,
  FieldActSymmetric = 1u << 7,
  FieldActMethod = 1u << 8,
};
const char *fieldName(Field f); // "tier", "weight dtype", ...

// One role (weight or activation) as the vendor applies it; unset = the format says nothing and
// the vendor's own default applies (the reading then fills in that default where it is known).
// A word of a reading (dtype, scope, method), or none: the number of one interned copy of its
// text (4 bytes instead of an optional string's 40; a reading has one per module and field, a
// million modules per backend in the largest inventories, and the emit threads hold two readings
// side by side). Reads like std::optional<std::string>.
class ReadingWord {
public:
  ReadingWord() = default;
  ReadingWord(std::nullopt_t) {}
  ReadingWord(std::string_view text) : id_(intern(text)) {}
  ReadingWord(const std::string &text) : ReadingWord(std::string_view(text)) {}
  ReadingWord(const char *text) : ReadingWord(std::string_view(text)) {}
  ReadingWord(const std::optional<std::string> &o) : id_(o ? intern(*o) : 0) {}

  bool has_value() const { return id_ != 0; }
  explicit operator bool() const { return id_ != 0; }
  const std::string &operator*() const { return text(id_); } // only when has_value()
  const std::string *operator->() const { return id_ ? &text(id_) : nullptr; }
  std::string value_or(std::string_view fallback) const {
    return id_ ? text(id_) : std::string(fallback);
  }
  operator std::optional<std::string>() const {
    return id_ ? std::optional<std::string>(text(id_)) : std::nullopt;
  }
  void reset() { id_ = 0; }

  // Equal texts are one interned copy.
  friend bool operator==(const ReadingWord &a, const ReadingWord &b) { return a.id_ == b.id_; }
  friend bool operator!=(const ReadingWord &a, const ReadingWord &b) { return a.id_ != b.id_; }

private:
  // The number (from 1) of the process-wide copy of `text` (never freed; thread-safe), and that
  // copy by its number.
  static uint32_t intern(std::string_view text);
  static const std::string &text(uint32_t id);
  uint32_t id_ = 0;
};

struct RoleReading {
  ReadingWord dtype, scope, method;
  std::optional<bool> symmetric;
};

// One module as the vendor applies it.
struct ModuleReading {
  bool known = false;              // false: the vendor's rules do not decide this module at all
  ir::Tier tier = ir::Tier::Float; // Float = left unquantized
  RoleReading weight, act;
  // Where in the vendor file the deciding entry is (1-based line and column of the key or
  // value), for messages; 0 when the vendor's built-in default decided.
  uint32_t line = 0, column = 0;
};

struct VendorReading {
  std::string kind;                   // target kind: msmodelslim | amct | hmct | horizon
  uint32_t fields = 0;                // the Field bits this backend carries
  std::vector<ModuleReading> modules; // parallel to spec.inventory.modules (empty: no inventory)
  // Two graphs, a target naming ONNX nodes: the tied output head (ir::graphHead), which is no
  // module of the inventory, as the vendor applies it to its nodes; unknown when it has no usable
  // node. Every target keeps a tied head float, so validateReading expects float.
  std::string headName;
  ModuleReading head;
};

// Reads `bytes` (a file the emitter wrote for `target`) through the vendor's document model and
// rules into `out`. Returns false after reporting a diagnostic where the vendor would refuse the
// file. One per vendor folder, registered next to the emitter (vendors::registerReader).
using ReadBack = bool (*)(const ir::Spec &spec, const ir::Target &target, std::string_view bytes,
                          VendorReading &out, DiagnosticEngine &diags);
void registerReader(std::string_view kind, ReadBack read);
ReadBack findReader(std::string_view kind); // null when the kind has none

// The weight dtype the spec gives a module, as every backend must carry it: the dtype a rule
// names, unless the tier was decided by a more specific rule (then an integer dtype gives way to
// the tier's width: `override name "x" { tier int4 }` over `defaults { tier int8; weight int8 }`
// is int4, while `override type Linear { weight int4 }` under `defaults { tier int8 }` is W4A8);
// no dtype: the tier's width (int4, int8), "" for other tiers. The view is of a literal or of the
// rule's own word, so it lives as long as the spec.
std::string_view effectiveWeightDtype(const ir::ResolvedModule &m);

// Translation validation: compares `reading` with the target's expected reading (the spec's
// resolution with what the target adds, ir::TargetReading) module by module, for the fields the
// backend carries. Each difference is reported (err_emit_divergence: the module, the
// field, what the spec says with a note at the deciding rule, what the vendor would apply);
// returns false when there is one. emit::emitTargets runs it after every emitter.
bool validateReading(const ir::Spec &spec, const ir::Target &target, const VendorReading &reading,
                     DiagnosticEngine &diags);

// Whether validateReading would find no difference between module `m` and the reading `r` (an
// unknown reading agrees). Two graphs: a module read through several ONNX nodes is read as the
// first node that does not agree, so a split module shows.
bool readingAgrees(const ir::ResolvedModule &m, const ModuleReading &r, uint32_t fields);

} // namespace qspec::vendors
