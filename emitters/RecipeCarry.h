// What a backend's file cannot carry of the spec's recipes. HMCT and the Horizon QconfigSetter
// apply one activation recipe to the whole model (or none) and have no per-module recipe keys;
// every recipe field a rule sets that the written file does not apply as written is reported once
// at the rule -- a warning the user silences by naming it in the target
// (`silence warn_hmct_recipe_not_carried`), never dropped in silence.
#pragma once

#include "ir/Diagnostics.h"
#include "ir/IR.h"
#include "vendors/Reading.h"

#include <string>

namespace qspec::emit {

// The file's model-wide recipes as the vendor reads them; an unset field = the format has no key
// for it.
struct CarriedRecipes {
  vendors::RoleReading weight, act;
};

// The settings of the rule behind decision `d`: `defaults`, or the type or name override that
// decided; null for any other source (protect, group, tuning).
const ir::Settings *decidingSettings(const ir::Spec &spec, const ir::Decision &d);

// True if `target`'s `silence` setting names `id`.
bool silenced(const ir::Target &target, DiagID id);

// Reports `id` once per rule and role (args: "weight recipe" / "act recipe", the rule's values
// the file does not apply, what the file gives instead) for the recipe fields of `defaults` and
// of every override that `carried` does not apply as written. A dtype is carried when it is the
// width of the rule's tier (or the default tier), which the file carries.
void reportUncarriedRecipes(const ir::Spec &spec, const ir::Target &target,
                            const CarriedRecipes &carried, DiagID id, DiagnosticEngine &diags);

} // namespace qspec::emit
