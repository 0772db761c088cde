// What the IR's words mean in AMCT's terms: the data types and algorithms qcc asks AMCT for on a
// module, from its resolution. One place for both sides of translation validation: the emitter
// plans with it, and the reader (AmctReader.h) uses it to name what AMCT applies in the IR's
// words.
#pragma once

#include "ir/IR.h"
#include "vendors/amct/AmctRules.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace qspec::amct {

// How specific the rule behind a decision is: built-in 0, defaults 1, type override 2, name
// override or group 3, protection and tuning 4.
int decisionRank(ir::Decision::Source s);

// A role's AMCT data type: an explicit role dtype beats the tier only when it was written at
// least as specifically as the tier (`defaults { act int8 }` does not undo a name override's
// `tier int16`). `dtype` empty = unset. nullopt: the dtype is one AMCT has no word for in that
// role (weights int8/int4, activations int8/int16, and PTQ activations never int4).
std::optional<DataType> intendedType(ir::Tier tier, int tierRank, std::string_view dtype,
                                     int dtypeRank, bool weight);
std::optional<DataType> intendedType(const ir::ResolvedModule &rm, bool weight);

// AMCT's algorithms per role and mode (PTQ acts ifmr, hfmg; weights arq, ada; QAT acts ulq;
// weights arq, ulq), and their "a or b" text for messages.
const std::vector<std::string> &algorithms(bool weight, ConfigKind k);
const std::string &algorithmList(bool weight, ConfigKind k);
// The AMCT algorithm an IR method word names in that role: an algorithm's own name, `histogram`
// = hfmg, `adaround` = ada, `minmax` = arq (weights); "" when AMCT has no word for it.
std::string_view algorithmOf(std::string_view method, bool weight, ConfigKind k);

// The algorithm qcc asks for on a module: the deciding rule's `amct { act_algo | weight_algo }`,
// else the method's own AMCT word, else the target's `act_algo` / `weight_algo` (the algorithm
// for methods AMCT has no word for), else (no method) the target's choice or AMCT's first. ""
// when the method has no AMCT word and no fallback is given, or a given algorithm is not one of
// AMCT's (`algorithmOf` of the option decides).
std::string chooseAlgorithm(std::string_view method, std::string_view ruleAlgo,
                            std::string_view targetAlgo, bool weight, ConfigKind k);

// The IR's word for an AMCT algorithm (hfmg = histogram, ada = adaround, arq = minmax, ifmr, any
// other = ulq): one copy that lives as long as the program.
const std::string &methodWord(std::string_view algo);

// The method AMCT applies to one role of module `rm` under `target`, in the IR's words
// (chooseAlgorithm, then methodWord), and the setting that chose it: the rule's act_algo /
// weight_algo, or the target's for a method AMCT has no word for (null: the method itself, or
// AMCT's default). Null word when no method or algorithm is named anywhere, or none applies.
struct MethodChoice {
  const std::string *word = nullptr;
  const ir::Option *by = nullptr;
};
MethodChoice methodChoice(const ir::Target &target, const ir::ResolvedModule &rm, bool weight,
                          ConfigKind k);

// The setting `key` inside a rule's `amct { }` blocks (the last one; null if none), and its value
// ("" if none).
const ir::Option *ruleSetting(const std::vector<const ir::Option *> &blocks, std::string_view key);
std::string_view ruleOption(const std::vector<const ir::Option *> &blocks, std::string_view key);
// The value of the target's option `key` ("" if none).
std::string_view targetOption(const ir::Target &target, std::string_view key);

} // namespace qspec::amct
