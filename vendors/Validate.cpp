// Translation validation (vendors/Reading.h): the vendor's reading of a written file against the
// target's expected reading (ir::TargetReading: the spec's resolution with what the target adds),
// module by module and field by field.
//
// Rules, for the modules the vendor decides (ModuleReading::known):
// 1. Quantized or float is compared on every backend; the exact tier only where the backend
//    carries FieldTier.
// 2. On a module both sides quantize, each recipe field the backend carries is compared when the
//    spec sets it (a rule, not the built-in value) and the reading states it. A weight dtype no
//    rule sets is the tier's integer width (int4, int8) where the tier has one, and an integer
//    dtype set by a less specific rule than the tier gives way to it (effectiveWeightDtype).
// 3. An activation dtype that is a float word on both sides (float, fp16, bf16...) is one
//    reading: the activation stays unquantized.
// 4. A tied output head the reading has (VendorReading::head, two graphs) must read float.
// 5. At most kMaxDivergences are reported per target, each with a note at the deciding rule;
//    one note counts the rest.
#include "vendors/Reading.h"

#include <string>
#include <string_view>

namespace qspec::vendors {

namespace {

// At most this many divergences are reported per target; one note counts the rest.
constexpr unsigned kMaxDivergences = 20;

const char *symmetryWord(bool symmetric) { return symmetric ? "symmetric" : "asymmetric"; }

// One compared field: what the spec resolved (with the rule behind it) and what the vendor applies.
struct Difference {
  Field field;
  std::string spec, vendor;
  const ir::Decision *from;
};

// Float words: an activation left unquantized is one reading whatever float width is named.
bool isFloatWord(const std::string &w) {
  return w == "float" || w == "fp16" || w == "bf16" || w == "float16" || w == "bfloat16" ||
         w == "fp32" || w == "float32";
}

bool sameWord(Field f, const std::string &spec, const std::string &vendor) {
  if (spec == vendor)
    return true;
  return f == FieldActDtype && isFloatWord(spec) && isFloatWord(vendor);
}

// The recipe fields of one role: only those the spec sets (not built-in) and the vendor's reading
// states are compared; an unset reading means the vendor's own default, which the reader fills in
// where it is known. `weightDtype` (the weight role only) is the module's effective weight dtype,
// compared instead of the rule's word.
void compareRole(const ir::ResolvedRecipe &ir, const RoleReading &vendor, uint32_t fields,
                 Field dtype, Field scope, Field symmetric, Field method,
                 const std::string_view *weightDtype, const ir::Decision &tierFrom,
                 std::vector<Difference> &out) {
  auto word = [&](Field f, const ir::Decided<ir::Word> &spec, const ReadingWord &v) {
    if ((fields & f) && spec.from.source != ir::Decision::BuiltIn && v &&
        !sameWord(f, spec.value.str(), *v))
      out.push_back({f, spec.value.str(), *v, &spec.from});
  };
  if (weightDtype) {
    const ir::Decision &from = ir.dtype.value.str() == *weightDtype ? ir.dtype.from : tierFrom;
    if ((fields & dtype) && !weightDtype->empty() && vendor.dtype && *vendor.dtype != *weightDtype)
      out.push_back({dtype, std::string(*weightDtype), *vendor.dtype, &from});
  } else {
    word(dtype, ir.dtype, vendor.dtype);
  }
  word(scope, ir.scope, vendor.scope);
  word(method, ir.method, vendor.method);
  if ((fields & symmetric) && ir.symmetric.from.source != ir::Decision::BuiltIn &&
      vendor.symmetric && ir.symmetric.value != *vendor.symmetric)
    out.push_back({symmetric, symmetryWord(ir.symmetric.value), symmetryWord(*vendor.symmetric),
                   &ir.symmetric.from});
}

std::vector<Difference> compareModule(const ir::ResolvedModule &m, const ModuleReading &r,
                                      uint32_t fields) {
  std::vector<Difference> out;
  // Quantized or not is compared on every backend; the exact tier where the backend carries it.
  bool floatSpec = m.tier.value == ir::Tier::Float, floatVendor = r.tier == ir::Tier::Float;
  if ((fields & FieldTier) ? m.tier.value != r.tier : floatSpec != floatVendor)
    out.push_back({FieldTier, ir::tierName(m.tier.value), ir::tierName(r.tier), &m.tier.from});
  // A recipe only means something on a quantized module, on both sides.
  if (floatSpec || floatVendor)
    return out;
  std::string_view weightDtype = effectiveWeightDtype(m);
  compareRole(m.weight, r.weight, fields, FieldWeightDtype, FieldWeightScope, FieldWeightSymmetric,
              FieldWeightMethod, &weightDtype, m.tier.from, out);
  compareRole(m.act, r.act, fields, FieldActDtype, FieldActScope, FieldActSymmetric, FieldActMethod,
              nullptr, m.tier.from, out);
  return out;
}

std::string where(const ModuleReading &r) {
  if (r.line == 0)
    return " (by the tool's default)";
  return " (line " + std::to_string(r.line) + ", column " + std::to_string(r.column) + ")";
}

} // namespace

std::string_view effectiveWeightDtype(const ir::ResolvedModule &m) {
  const auto &d = m.weight.dtype;
  std::string_view width = m.tier.value == ir::Tier::Int4   ? "int4"
                           : m.tier.value == ir::Tier::Int8 ? "int8"
                                                            : "";
  if (d.from.source == ir::Decision::BuiltIn)
    return width;
  bool integer = d.value == "int4" || d.value == "int8";
  if (integer && !width.empty() && m.tier.from.source > d.from.source)
    return width;
  return d.value.str();
}

bool readingAgrees(const ir::ResolvedModule &m, const ModuleReading &r, uint32_t fields) {
  return !r.known || compareModule(m, r, fields).empty();
}

const char *fieldName(Field f) {
  switch (f) {
  case FieldTier:
    return "tier";
  case FieldWeightDtype:
    return "weight dtype";
  case FieldWeightScope:
    return "weight scope";
  case FieldWeightSymmetric:
    return "weight symmetry";
  case FieldWeightMethod:
    return "weight method";
  case FieldActDtype:
    return "act dtype";
  case FieldActScope:
    return "act scope";
  case FieldActSymmetric:
    return "act symmetry";
  case FieldActMethod:
    return "act method";
  }
  return "field";
}

bool validateReading(const ir::Spec &spec, const ir::Target &target, const VendorReading &reading,
                     DiagnosticEngine &diags) {
  const auto &mods = spec.inventory.modules;
  const auto &res = spec.resolution.modules;
  if (reading.modules.empty() || reading.modules.size() != mods.size() || res.size() != mods.size())
    return true;
  const ir::TargetReading *expected = spec.readingOf(target);
  unsigned shown = 0, hidden = 0;
  Diagnostic *last = nullptr;
  ir::ResolvedModule changed; // a module the target reads differently from the general resolution
  for (size_t i = 0; i < mods.size(); ++i) {
    const ModuleReading &r = reading.modules[i];
    if (!r.known)
      continue;
    const ir::ResolvedModule *m = &res[i];
    if (expected && expected->changeOf(i)) {
      changed = expected->expected(res[i], i);
      m = &changed;
    }
    for (const Difference &d : compareModule(*m, r, reading.fields)) {
      if (shown == kMaxDivergences) {
        ++hidden;
        continue;
      }
      ++shown;
      Diagnostic &diag = diags.report(
          DiagID::err_emit_divergence, target.range,
          {reading.kind, mods[i].name, fieldName(d.field), d.spec, d.vendor, where(r)});
      if (d.from->range().valid())
        diags.note(diag, DiagID::note_emit_divergence_rule, d.from->range(),
                   {fieldName(d.field), mods[i].name});
      last = &diag;
    }
  }
  // A tied output head (two graphs) is no module of the inventory; every target keeps it float.
  const ModuleReading &head = reading.head;
  if (head.known && head.tier != ir::Tier::Float) {
    if (shown == kMaxDivergences) {
      ++hidden;
    } else {
      ++shown;
      last = &diags.report(DiagID::err_emit_divergence, target.range,
                           {reading.kind, reading.headName, fieldName(FieldTier),
                            ir::tierName(ir::Tier::Float), ir::tierName(head.tier), where(head)});
    }
  }
  if (hidden > 0 && last)
    diags.note(*last, DiagID::note_emit_divergence_more, target.range,
               {std::to_string(hidden), reading.kind});
  return shown == 0;
}

} // namespace qspec::vendors
