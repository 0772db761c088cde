// Helpers shared by the AMCT rules: take the findings of one check from the document checks the
// driver ran once per file (AmctInput::amctFindings).
#pragma once

#include "vendors/amct/AmctConfig.h"
#include "lint/Context.h"

#include <string>

namespace qspec::lint::amctlint {

// Reports the vendor model's findings of `check` (AmctChecks.def) under `rule`, at the place
// they name; a warning-level finding stays a warning.
inline void reportFindings(AmctInput &ctx, RuleID rule, amct::Check check) {
  if (!ctx.amctFindings)
    return;
  for (const amct::Finding &f : *ctx.amctFindings) {
    if (f.check != check)
      continue;
    Diagnostic &d = ctx.report(rule, ctx.at(f.line, f.col ? f.col : 1), f.message);
    if (f.level == amct::Finding::Warning)
      d.severity = Severity::Warning;
  }
}

// Where a parse error is: on the field it names ("... named \"X\"", "field \"X\" ...") when that
// name is on the reported line (libprotobuf reports the token after it), else at the position.
// libprotobuf reports an unknown enum value or field at the token after it, which may be on a
// later line: the two lines before are searched too.
inline SourceRange errorRange(const AmctInput &ctx, const AmctInput::AmctError &e) {
  if (e.line == 0)
    return ctx.at(1, 1);
  size_t q2 = e.message.rfind('"');
  size_t q = q2 == std::string::npos || q2 == 0 ? std::string::npos : e.message.rfind('"', q2 - 1);
  if (q != std::string::npos && q2 > q + 1) {
    std::string name = e.message.substr(q + 1, q2 - q - 1);
    for (uint32_t l = e.line; name.find('.') == std::string::npos && l >= 1 && l + 3 > e.line;
         --l) {
      size_t at = ctx.sm.line(ctx.file, l).find(name);
      if (at != std::string_view::npos)
        return ctx.at(l, static_cast<uint32_t>(at + 1), static_cast<uint32_t>(name.size()));
    }
  }
  return ctx.at(e.line, e.col ? e.col : 1);
}

// A missing `clip_max` or `clip_min` (both required in ClipMaxMin): AMCT's own check says
// `clip_max and clip_min are both required.`, which is amct-clip-pair's, not a parse error.
inline bool isClipPairError(const std::string &msg) {
  size_t at = msg.find("missing required fields: ");
  if (at == std::string::npos)
    return false;
  std::string first =
      msg.substr(at + 25, msg.find(',', at) == std::string::npos ? std::string::npos
                                                                 : msg.find(',', at) - at - 25);
  auto ends = [&](const char *s) {
    std::string t = s;
    return first.size() >= t.size() && first.compare(first.size() - t.size(), t.size(), t) == 0;
  };
  return ends("clip_max_min.clip_max") || ends("clip_max_min.clip_min");
}

// The notes of a parse error: the top-level field that decided which root message the file was
// read as (at that field), and what each root message said.
inline void addParseNotes(AmctInput &ctx, Diagnostic &d) {
  if (!ctx.amctKindNote.empty())
    ctx.note(d, ctx.at(ctx.amctKindLine, ctx.amctKindCol), ctx.amctKindNote);
  if (!ctx.amctTried.empty())
    ctx.note(d, SourceRange{}, "tried " + ctx.amctTried);
}

inline bool isUnknownFieldError(const std::string &msg) {
  return msg.find("has no field named") != std::string::npos ||
         msg.find("Unknown enumeration value") != std::string::npos ||
         msg.find("has no value named") != std::string::npos;
}

} // namespace qspec::lint::amctlint
