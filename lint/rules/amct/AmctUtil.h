// Helpers shared by the AMCT rules: run the emitter's document checks once per rule and take the
// findings of some check names.
#pragma once

#include "emitters/amct/AmctConfig.h"
#include "lint/Context.h"

#include <initializer_list>
#include <string>

namespace qspec::lint::amctlint {

inline std::vector<amct::Finding> documentFindings(const LintContext &ctx) {
  amct::CheckOptions opts;
  opts.hardware = ctx.opts.amctHardware;
  return amct::checkDocument(*ctx.amctDoc, opts);
}

// Reports the emitter-check findings whose `rule` is one of `checks` under `rule`.
inline void reportFindings(LintContext &ctx, RuleID rule, std::initializer_list<const char *> checks,
                           const std::string &prefix = "") {
  if (!ctx.amctParsed)
    return;
  for (const amct::Finding &f : documentFindings(ctx)) {
    bool match = false;
    for (const char *c : checks)
      match = match || f.rule == c;
    if (!match)
      continue;
    Diagnostic &d = ctx.report(rule, ctx.at(f.line, f.col ? f.col : 1), prefix + f.message);
    if (f.level == amct::Finding::Warning)
      d.severity = Severity::Warning;
  }
}

inline bool isUnknownFieldError(const std::string &msg) {
  return msg.find("has no field named") != std::string::npos ||
         msg.find("Unknown enumeration value") != std::string::npos ||
         msg.find("has no value named") != std::string::npos;
}

} // namespace qspec::lint::amctlint
