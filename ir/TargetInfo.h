// The hook through which each backend declares what it can express. Emitters register a
// TargetInfo at start-up (registerAllEmitters()); passes and qlint ask it, never an emitter.
#pragma once

#include "ir/Diagnostics.h"
#include "ir/IR.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace qspec::ir {

struct TargetInfo {
  std::string kind;     // name used in `target KIND`
  std::string emitKind; // --emit value, e.g. amct-cfg
  // Other --emit values of the same target: files of another kind the backend writes from the
  // same resolution (llm-compressor: compressed-tensors-config). Not written by --emit=all.
  std::vector<std::string> otherEmitKinds;
  std::string fileExtension;         // e.g. ".cfg"
  std::vector<std::string> variants; // allowed second words (`target amct qat`); empty = none
  std::string defaultVariant;
  // Keys accepted in the target block (nested keys are the emitter's to check); empty = any.
  std::vector<std::string> optionKeys;
  // Keys accepted in a rule's `KIND { ... }` block (per-module settings); empty = the backend
  // reads no rule block, so any key there is an error rather than a silent drop.
  std::vector<std::string> ruleOptionKeys;
  // Can `target` express `tier` on a module of `moduleType` ("" = unknown type)? If not, `why`
  // may name the rule (it is appended to the diagnostic).
  std::function<bool(const Target &target, Tier tier, const std::string &moduleType,
                     std::string &why)>
      canExpress;

  // The names the vendor matches (passes/TargetNamesPass.cpp). Modules: PyTorch module names
  // and classes (named_modules(): msModelSlim, AMCT for PyTorch, the Horizon plugin). OnnxGraph:
  // ONNX node names and ONNX op types (HMCT, AMCT for ONNX), so the target needs the model's ONNX
  // graph (an ONNX inventory, or `onnx` beside a module inventory) and, without an inventory,
  // type rules on ONNX op types. Unset = Modules.
  enum class Names { Modules, OnnxGraph };
  std::function<Names(const Target &target)> names;

  // What the target adds to the general resolution (passes/TargetReadingPass.cpp, the target's
  // expected reading). The option of the target block whose values are name patterns narrowing
  // the modules the target quantizes (msModelSlim's `include`); "" = none.
  std::string scopeOption;
  // Whether the vendor quantizes a module of `moduleType` ("" = unknown type) at all; unset =
  // every type.
  std::function<bool(const Target &target, const std::string &moduleType)> quantizesType;
  // A module a rule (not the defaults) gives a quantized tier, of a type the vendor never
  // quantizes, is a skip: the target-readings pass reports `skipWarning` for it, once per type and
  // target, with the arguments: module, type, `skipWhat(target)` (the tool and mode, "PTQ 9.2.0"),
  // tier. Unset = the skip is silent (msModelSlim's linear_quant never tests other types).
  std::optional<DiagID> skipWarning;
  std::function<std::string(const Target &target)> skipWhat;
  // The one module type the vendor quantizes ("" = several, or any): without an inventory, every
  // name a rule gives it reads as a module of this type (TargetReading::symbolic).
  std::string onlyType;
  // What one setting of a rule's vendor block (`amct { channel_wise false }`) decides on the
  // modules that rule decides, in the IR's words (pointers to words that live as long as the
  // program); unset or null = nothing the reading compares.
  struct RuleOptionEffect {
    const std::string *weightDtype = nullptr, *weightScope = nullptr;
  };
  std::function<RuleOptionEffect(const Target &target, const Option &setting)> ruleOption;
  // The method the vendor applies to one role (`weight` or not) of a quantized module under this
  // target: the QAT/PTQ mapping (AMCT: the rule's act_algo / weight_algo, the method's AMCT
  // word, the target's algorithm), in the IR's words (a word that lives as long as the program),
  // and the setting that chose it (null: the method itself, or the vendor's default). A null
  // word = nothing the reading compares (no method named anywhere). Unset = the spec's method.
  struct MethodMapping {
    const std::string *word = nullptr;
    const SourceRange *at = nullptr;
  };
  std::function<MethodMapping(const Target &target, const ResolvedModule &module, bool weight)>
      methodOf;
};

void registerTarget(TargetInfo info);
// The name space `target` matches (its TargetInfo::names; Modules for an unknown kind).
TargetInfo::Names targetNames(const Target &target);
const TargetInfo *findTarget(std::string_view kind);
const TargetInfo *findTargetByEmitKind(std::string_view emitKind);
std::vector<const TargetInfo *> allTargets();
std::string knownTargetList();

} // namespace qspec::ir
