// msmodelslim-pattern-matches-nothing: with --inventory (the model's module names), an include
// or exclude entry of a processor that selects no module under msModelSlim's own matching
// (reference msmodelslim.md 5: exact name, then a whole-name glob where `*` crosses dots;
// ir::Pattern is the same matcher qcc uses). msModelSlim only warns at run time, after loading the
// model (6: "unmatched patterns (warn)"), and an exclude that matches nothing quantizes the layers
// it was meant to keep float. The finding says why when it can tell: a regular expression written
// as a glob (`.*down_proj.*`), a bare name that only the end of module names matches (`down_proj`:
// names match whole), or a module name within two edits (a typo). A tied output head is a module
// at run time that the index does not list (ir::outputHead): an entry selecting it matches, and an
// entry naming a head elsewhere (`lm_head` on MedGemma, whose head is `language_model.lm_head`)
// is told where the head is.
#include "ir/EditDistance.h"
#include "ir/Pattern.h"
#include "ir/Suggest.h"
#include "lint/rules/msmodelslim/PracticeUtil.h"

namespace qspec::lint {

namespace {

size_t countMatches(const Pattern &p, const std::string &text, const ir::Inventory &inv) {
  size_t n = 0;
  for (const ir::Module &m : inv.modules)
    n += m.name == text || p.matches(m.name);
  return n;
}

// Why `text` matched nothing, as " (...)", or "". `tiedHead`: the tied output head's name, or "".
std::string hint(const std::string &text, const ir::Inventory &inv, const std::string &tiedHead) {
  std::string err;
  if (!tiedHead.empty() && ir::tiedHead(inv, ir::ModelConfig{}, text))
    return " (the output head is tied to the embedding and is named '" + tiedHead +
           "' at run time: did you mean '" + tiedHead + "'?)";
  // A regular expression: `.*` is a literal '.' and then anything, `\.` an escaped dot.
  if (text.find(".*") != std::string::npos || text.find("\\.") != std::string::npos) {
    std::string glob;
    for (size_t i = 0; i < text.size(); ++i) {
      if (text.compare(i, 2, ".*") == 0) {
        glob += '*';
        ++i;
      } else if (text.compare(i, 2, "\\.") == 0) {
        glob += '.';
        ++i;
      } else {
        glob += text[i];
      }
    }
    if (auto p = Pattern::compile(glob, err); p && countMatches(*p, glob, inv))
      return " (msModelSlim patterns are globs, not regular expressions: did you mean '" + glob +
             "', which matches " + std::to_string(countMatches(*p, glob, inv)) + " modules?)";
    return " (msModelSlim patterns are globs, not regular expressions: '.*' is a literal '.' "
           "followed by anything)";
  }
  if (!hasGlobSyntax(text)) {
    for (const std::string &g : {"*." + text, "*" + text + "*"})
      if (auto p = Pattern::compile(g, err); p && countMatches(*p, g, inv))
        return " (a pattern matches whole module names: did you mean '" + g + "', which matches " +
               std::to_string(countMatches(*p, g, inv)) + " modules?)";
  }
  for (const ir::Module &m : inv.modules)
    if (editDistanceAtMost(text, m.name, 2) <= 2)
      return " (did you mean '" + m.name + "'?)";
  return "";
}

} // namespace

void checkMsmodelslimPatternMatchesNothing(PracticeInput &ctx) {
  if (!ctx.tree || !ctx.tree->isMap() || !ctx.inventory)
    return;
  const ir::Inventory &inv = *ctx.inventory;
  std::optional<ir::OutputHead> head = ir::outputHead(inv, ir::ModelConfig{});
  const std::string tied = head && head->tied() ? head->name : "";
  practice::forEachProcessor(*ctx.tree, [&](const LNode &item, const std::string &path) {
    for (const char *list : {"include", "exclude"}) {
      const LNode *l = item.get(list);
      if (!l || !l->isSeq())
        continue;
      for (const LNode &e : l->seq) {
        std::string err;
        auto p = e.isScalar() ? Pattern::compile(e.value, err) : std::nullopt;
        if (!p || countMatches(*p, e.value, inv))
          continue; // not a pattern: msmodelslim-pattern-limit and the schema rules say why
        if (!tied.empty() && (e.value == tied || p->matches(tied)))
          continue; // the tied head: a module at run time
        ctx.report(RuleID::MsmodelslimPatternMatchesNothing, e.range,
                   std::string(list) + " entry '" + e.value + "' of " + path +
                       " matches no module of the inventory" + hint(e.value, inv, tied));
      }
    }
  });
}

} // namespace qspec::lint
