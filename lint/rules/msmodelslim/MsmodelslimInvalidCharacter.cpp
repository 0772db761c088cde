// msmodelslim-invalid-character: a key or string value contains a character outside
// msModelSlim's whitelist (ASCII letters, digits, space and _ " ' > < = [ ] ( ) , { } : | / . * ~
// ? ! + - \). msModelSlim refuses the file: `dict contains invalid characters.` or `dict key
// contains invalid characters.`; a file path with characters outside [_A-Za-z0-9/.-] is refused
// before loading: `Input path contains invalid characters.`
//
// Like msModelSlim, the walk enters mappings and lists but not mappings inside lists (the items
// of spec.process, spec.save, ...), so the verdict matches the vendor's. The whitelist is the
// emitter's (msmodelslim::firstNonWhitelisted).
#include "vendors/msmodelslim/MsModelSlimRules.h"
#include "lint/Context.h"

#include <functional>

namespace qspec::lint {

namespace {

void checkText(LintContext &ctx, const LNode &n, bool isKey) {
  if (!n.isScalar() || n.alias)
    return;
  size_t bad = msmodelslim::firstNonWhitelisted(n.value);
  if (bad == std::string::npos)
    return;
  SourceRange r = n.range;
  // Point at the byte when the scalar is written plainly on one line.
  if (!n.quoted && r.begin.line == r.end.line && bad < n.value.size())
    r = ctx.sm.range(ctx.file, r.begin.offset + static_cast<uint32_t>(bad),
                     r.begin.offset + static_cast<uint32_t>(bad) + 1);
  ctx.report(
      RuleID::MsmodelslimInvalidCharacter, r,
      std::string(isKey ? "key" : "value") + " contains " +
          msmodelslim::describeByte(static_cast<unsigned char>(n.value[bad])) +
          ", outside msModelSlim's character whitelist (msModelSlim: '" +
          (isKey ? "dict key contains invalid characters." : "dict contains invalid characters.") +
          "')");
}

} // namespace

void checkMsmodelslimInvalidCharacter(PracticeInput &ctx) {
  // Standard input without --stdin-filename has no path for msModelSlim to refuse.
  std::string_view path = ctx.path == kStdinName ? "" : std::string_view(ctx.path);
  for (unsigned char c : path)
    if (!(isalnum(c) || c == '_' || c == '/' || c == '.' || c == '-')) {
      ctx.report(RuleID::MsmodelslimInvalidCharacter, SourceRange::point(ctx.file, 1, 1, 0),
                 "file path contains " + msmodelslim::describeByte(c) +
                     "; msModelSlim accepts only [_A-Za-z0-9/.-] (msModelSlim: 'Input path "
                     "contains invalid characters.')");
      break;
    }
  if (!ctx.tree || !ctx.tree->isMap())
    return;
  std::function<void(const LNode &)> walkMap, walkList;
  walkMap = [&](const LNode &m) {
    for (const auto &[k, v] : m.map) {
      checkText(ctx, k, true);
      if (v.isMap())
        walkMap(v);
      else if (v.isSeq())
        walkList(v);
      else
        checkText(ctx, v, false);
    }
  };
  walkList = [&](const LNode &l) {
    for (const LNode &i : l.seq)
      if (i.isSeq())
        walkList(i);
      else if (i.isScalar())
        checkText(ctx, i, false);
  };
  walkMap(*ctx.tree);
}

} // namespace qspec::lint
