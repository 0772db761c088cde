// Helpers shared by the llm-compressor rules: the vendor model's issues, picked by check.
#pragma once

#include "lint/Context.h"
#include "vendors/compressed_tensors/CompressedTensors.h"

namespace qspec::lint::llmc {

// Reports the issues of RecipeInput::ctIssues whose check is `check` under `rule`, at the entry
// or scheme they are about; an issue the vendor model marks as a warning stays a warning.
inline void reportIssues(RecipeInput &ctx, RuleID rule, vendors::ct::Check check) {
  for (const vendors::ct::Issue &i : ctx.ctIssues) {
    if (i.check != check)
      continue;
    Diagnostic &d = ctx.report(rule, ctx.at(i.at.line, i.at.column), i.message);
    if (!i.error)
      d.severity = Severity::Warning;
  }
}

} // namespace qspec::lint::llmc
