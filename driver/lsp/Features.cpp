#include "driver/lsp/Features.h"

#include "frontend/Frontend.h"
#include "frontend/Parser.h"
#include "ir/IRPrinter.h"
#include "ir/TargetInfo.h"

#include <algorithm>
#include <sstream>

namespace qspec::lsp {
namespace {

using ast::Kind;
using ast::Node;

bool contains(const SourceRange &r, FileID f, uint32_t off) {
  return r.file == f && r.begin.offset <= off && off < r.end.offset;
}

// The selector of the spec written at `off`, if any.
const ir::Selector *selectorAt(const ir::Spec &s, FileID f, uint32_t off) {
  auto in = [&](const std::vector<ir::Selector> &sels) -> const ir::Selector * {
    for (const ir::Selector &sel : sels)
      if (contains(sel.range, f, off))
        return &sel;
    return nullptr;
  };
  for (const ir::Protect &p : s.protects)
    if (contains(p.selector.range, f, off))
      return &p.selector;
  for (const ir::Override &o : s.overrides)
    if (auto *sel = in(o.selectors))
      return sel;
  for (const ir::GroupDecl &g : s.groups)
    if (auto *sel = in(g.members))
      return sel;
  if (auto *sel = in(s.tune.excludes))
    return sel;
  for (const ir::TuningRaise &r : s.tune.raises)
    if (auto *sel = in(r.selectors))
      return sel;
  return nullptr;
}

// The deepest AST node at `off` in file `f`, and its parent.
void nodeAt(const Node &n, FileID f, uint32_t off, const Node *parent, const Node *&hit,
            const Node *&hitParent) {
  for (const auto &c : n.children)
    if (contains(c->range, f, off)) {
      hit = c.get();
      hitParent = &n;
      nodeAt(*c, f, off, &n, hit, hitParent);
      return;
    }
}

std::string explainText(const Model &m, uint32_t index) {
  std::ostringstream os;
  ir::printExplain(m.spec, index, m.sm, os);
  return "```text\n" + os.str() + "```\n";
}

// The rule (a protect or an override) whose selector `sel` is, as a decision's source and index;
// false for the selectors of other constructs.
bool ruleOf(const ir::Spec &s, const ir::Selector &sel, ir::Decision::Source &src, int32_t &index) {
  for (size_t i = 0; i < s.protects.size(); ++i)
    if (&s.protects[i].selector == &sel) {
      src = ir::Decision::Protect;
      index = static_cast<int32_t>(i);
      return true;
    }
  for (size_t i = 0; i < s.overrides.size(); ++i)
    for (const ir::Selector &x : s.overrides[i].selectors)
      if (&x == &sel) {
        src = s.overrides[i].level == ir::Override::Type ? ir::Decision::TypeOverride
                                                         : ir::Decision::NameOverride;
        index = static_cast<int32_t>(i);
        return true;
      }
  return false;
}

// The selectors' texts of rule `index` of kind `src`, for finding the same rule in another version.
std::vector<std::string> ruleSelectors(const ir::Spec &s, ir::Decision::Source src, int32_t index) {
  std::vector<std::string> out;
  if (src == ir::Decision::Protect)
    return {s.protects[static_cast<size_t>(index)].selector.text};
  for (const ir::Selector &x : s.overrides[static_cast<size_t>(index)].selectors)
    out.push_back(x.text);
  return out;
}

// How many modules' tier rule `index` of kind `src` decides.
size_t tiersDecided(const ir::Spec &s, ir::Decision::Source src, int32_t index) {
  size_t n = 0;
  for (const ir::ResolvedModule &r : s.resolution.modules)
    n += r.tier.from.source == src && r.tier.from.index == index;
  return n;
}

// "The rule decides the tier of N modules" and, with the saved model, the same for the rule of
// the saved file with the same kind and selectors.
std::string ruleHover(const Model &m, const ir::Selector &sel, const Model *saved) {
  ir::Decision::Source src{};
  int32_t index = -1;
  if (!m.spec.resolution.done || !ruleOf(m.spec, sel, src, index))
    return "";
  const size_t n = tiersDecided(m.spec, src, index);
  std::string out =
      "\n\nThis rule decides the tier of " + std::to_string(n) + (n == 1 ? " module" : " modules");
  if (!saved || saved == &m || !saved->spec.resolution.done)
    return out + ".\n";
  // The saved rule of the same kind with the same selectors; else, when both versions have as
  // many rules of the kind, the one in the same place (an edited rule).
  const std::vector<std::string> mine = ruleSelectors(m.spec, src, index);
  const bool protect = src == ir::Decision::Protect;
  const size_t count = protect ? saved->spec.protects.size() : saved->spec.overrides.size();
  const size_t ownCount = protect ? m.spec.protects.size() : m.spec.overrides.size();
  auto sameKind = [&](size_t i) {
    return protect || (saved->spec.overrides[i].level == ir::Override::Type) ==
                          (src == ir::Decision::TypeOverride);
  };
  int32_t match = -1;
  for (size_t i = 0; i < count && match < 0; ++i)
    if (sameKind(i) && ruleSelectors(saved->spec, src, static_cast<int32_t>(i)) == mine)
      match = static_cast<int32_t>(i);
  if (match < 0 && count == ownCount && sameKind(static_cast<size_t>(index)))
    match = index;
  if (match >= 0) {
    const size_t before = tiersDecided(saved->spec, src, match);
    out += "; in the saved file " + std::to_string(before);
    if (before != n)
      out += std::string(" (") + (n > before ? "+" : "-") +
             std::to_string(n > before ? n - before : before - n) + ")";
    return out + ".\n";
  }
  return out + "; the saved file has no such rule.\n";
}

std::string selectorHover(const Model &m, const ir::Selector &sel, const Model *saved) {
  const auto &selected = m.spec.resolution.selected;
  auto it = selected.find(&sel);
  std::ostringstream md;
  std::string what = sel.kind == ir::Selector::Type ? "type " + sel.text : "\"" + sel.text + "\"";
  if (it == selected.end()) {
    md << "`" << what << "`: not resolved (no inventory)\n";
    return md.str();
  }
  const std::vector<uint32_t> &mods = it->second;
  md << "`" << what << "` selects " << mods.size() << (mods.size() == 1 ? " module" : " modules")
     << " of " << m.spec.inventory.modules.size() << "\n\n";
  const size_t shown = std::min<size_t>(mods.size(), 8);
  for (size_t i = 0; i < shown; ++i)
    md << "- `" << m.spec.inventory.modules[mods[i]].name << "`\n";
  if (mods.size() > shown)
    md << "- ... and " << mods.size() - shown << " more\n";
  if (mods.size() == 1)
    md << "\n" << explainText(m, mods[0]);
  md << ruleHover(m, sel, saved);
  return md.str();
}

} // namespace

std::optional<HoverInfo> hover(const Model &m, uint32_t offset, const Model *saved) {
  if (!m.built)
    return std::nullopt;
  if (const ir::Selector *sel = selectorAt(m.spec, m.file, offset))
    return HoverInfo{sel->range, selectorHover(m, *sel, saved)};
  const Node *hit = nullptr, *parent = nullptr;
  nodeAt(*m.ast, m.file, offset, nullptr, hit, parent);
  if (!hit || (hit->kind != Kind::String && hit->kind != Kind::NameSelector) ||
      !m.spec.resolution.done)
    return std::nullopt;
  auto it = m.spec.inventory.index.find(hit->text);
  if (it == m.spec.inventory.index.end())
    return std::nullopt;
  return HoverInfo{hit->range, explainText(m, it->second)};
}

std::optional<std::string> explain(const Model &m, const std::string &name) {
  if (!m.built || !m.spec.resolution.done)
    return std::nullopt;
  auto it = m.spec.inventory.index.find(name);
  if (it == m.spec.inventory.index.end())
    return std::nullopt;
  std::ostringstream os;
  ir::printExplain(m.spec, it->second, m.sm, os);
  return os.str();
}

namespace {

// `include "FILE"` at `offset` (the AST has no include nodes: the frontend splices the included
// items in their place), read from the tokens.
std::optional<std::string> includeAt(const Model &m, uint32_t offset) {
  std::vector<frontend::Token> toks = frontend::tokenize(m.file, m.sm);
  const std::string &text = m.sm.text(m.file);
  const frontend::Token *prev = nullptr;
  for (const frontend::Token &t : toks) {
    if (t.kind == frontend::Token::Kind::LineComment ||
        t.kind == frontend::Token::Kind::BlockComment)
      continue;
    if (t.kind == frontend::Token::Kind::String && t.range.begin.offset <= offset &&
        offset < t.range.end.offset && prev &&
        text.compare(prev->range.begin.offset, prev->range.end.offset - prev->range.begin.offset,
                     "include") == 0) {
      std::string path;
      size_t badAt = 0;
      std::string_view body(text.data() + t.range.begin.offset + 1,
                            t.range.end.offset - t.range.begin.offset - 2);
      if (!frontend::unescapeString(body, path, badAt))
        return std::nullopt;
      return frontend::resolvePath(m.sm.path(m.file), path);
    }
    prev = &t;
  }
  return std::nullopt;
}

} // namespace

std::optional<DefinitionTarget> definition(const Model &m, uint32_t offset) {
  if (!m.file)
    return std::nullopt;
  if (auto inc = includeAt(m, offset))
    return DefinitionTarget{*inc, 1, 1, {}};
  if (!m.ast)
    return std::nullopt;
  const Node *hit = nullptr, *parent = nullptr;
  nodeAt(*m.ast, m.file, offset, nullptr, hit, parent);
  if (!hit)
    return std::nullopt;
  const std::string base = m.sm.path(hit->range.file);
  if (hit->kind == Kind::String && parent &&
      (parent->kind == Kind::SameScoreGroup ||
       (parent->kind == Kind::Setting &&
        (parent->text == "inventory" || parent->text == "scores"))))
    return DefinitionTarget{frontend::resolvePath(base, hit->text), 1, 1, {}};
  if (hit->kind == Kind::String || hit->kind == Kind::NameSelector) {
    const ir::Module *mod = m.spec.inventory.find(hit->text);
    if (mod)
      return DefinitionTarget{m.spec.inventory.path, std::max<uint32_t>(mod->line, 1), 1, {}};
  }
  // A declared group's name: its declaration (the name itself is the node's text).
  for (const ir::GroupDecl &g : m.spec.groups)
    if (!g.name.empty() && hit->kind == Kind::NamedGroup && hit->text == g.name && g.range.valid())
      return DefinitionTarget{m.sm.path(g.range.file), g.range.begin.line, g.range.begin.col,
                              g.range};
  return std::nullopt;
}

// ---- Completion -------------------------------------------------------------------------------

namespace {

// The language's words (docs/language.md; recipe words as frontend::SpecBuilder::lowerRecipe
// reads them).
const char *const kKeywords[] = {
    "qspec",      "include", "model",    "defaults",     "tiers",   "protect", "group",
    "same_score", "from",    "with",     "override",     "type",    "name",    "priority",
    "tier",       "weight",  "act",      "target",       "tune",    "metric",  "levels",
    "exclude",    "raise",   "to",       "first",        "last",    "top",     "inventory",
    "blocks",     "scores",  "strategy", "anti_outlier", "raise_to"};
const char *const kRecipeWords[] = {
    "int4",       "int8",      "int16",     "fp16",       "bf16",        "float",
    "fp8_e4m3",   "mxfp8",     "mxfp4",     "per_tensor", "per_channel", "per_group",
    "per_block",  "per_token", "pd_mix",    "per_head",   "dual_scale",  "symmetric",
    "asymmetric", "minmax",    "histogram", "ssz",        "gptq"};

void wordCompletions(std::vector<CompletionItem> &out) {
  for (const char *k : kKeywords)
    out.push_back({k, CompletionKind::Keyword, "keyword"});
  for (int t = 0; t < ir::kNumTiers; ++t)
    out.push_back({ir::tierName(static_cast<ir::Tier>(t)), CompletionKind::Value, "tier"});
  for (const char *w : kRecipeWords)
    if (!ir::parseTier(w))
      out.push_back({w, CompletionKind::Value, "recipe word"});
  for (const ir::TargetInfo *t : ir::allTargets()) {
    out.push_back({t->kind, CompletionKind::Target, "target (--emit=" + t->emitKind + ")"});
    for (const std::string &key : t->optionKeys)
      out.push_back({key, CompletionKind::Setting, "target " + t->kind + " setting"});
  }
  std::sort(out.begin(), out.end(), [](const CompletionItem &a, const CompletionItem &b) {
    return a.label != b.label ? a.label < b.label : a.detail < b.detail;
  });
  out.erase(std::unique(out.begin(), out.end(),
                        [](const CompletionItem &a, const CompletionItem &b) {
                          return a.label == b.label;
                        }),
            out.end());
}

} // namespace

std::vector<CompletionItem> complete(const Model &m, const std::string &text, uint32_t offset,
                                     size_t limit, bool &incomplete) {
  incomplete = false;
  std::vector<CompletionItem> out;
  SourceManager sm;
  FileID f = sm.addFile("<completion>", text);
  for (const frontend::Token &t : frontend::tokenize(f, sm)) {
    if (t.range.begin.offset >= offset || offset > t.range.end.offset)
      continue;
    bool quoted =
        (t.kind == frontend::Token::Kind::String || t.kind == frontend::Token::Kind::Bad) &&
        text[t.range.begin.offset] == '"';
    if (t.kind == frontend::Token::Kind::LineComment ||
        t.kind == frontend::Token::Kind::BlockComment)
      return out;
    if (!quoted || (t.kind == frontend::Token::Kind::String && offset == t.range.end.offset))
      break;
    std::string_view prefix =
        std::string_view(text).substr(t.range.begin.offset + 1, offset - t.range.begin.offset - 1);
    for (const ir::Module &mod : m.spec.inventory.modules) {
      if (mod.name.compare(0, prefix.size(), prefix) != 0)
        continue;
      if (out.size() == limit) {
        incomplete = true;
        break;
      }
      out.push_back({mod.name, CompletionKind::Module, mod.type.empty() ? "module" : mod.type});
    }
    return out;
  }
  wordCompletions(out);
  return out;
}

// ---- Symbols ----------------------------------------------------------------------------------

namespace {

std::string joinedSelectors(const Node &n) {
  std::string s;
  for (const auto &c : n.children) {
    if (c->kind != Kind::NameSelector && c->kind != Kind::TypeSelector && c->kind != Kind::String)
      continue;
    if (!s.empty())
      s += ", ";
    s += c->kind == Kind::TypeSelector ? "type " + c->text : "\"" + c->text + "\"";
  }
  return s;
}

Symbol symbolOf(const Node &n) {
  Symbol s{"", "", SymbolKind::Model, n.range, n.range};
  switch (n.kind) {
  case Kind::Model:
    s = {"model",
         n.children.empty() || n.children[0]->kind != Kind::String ? "" : n.children[0]->text,
         SymbolKind::Model, n.range, n.range};
    break;
  case Kind::Include:
    s = {"include", n.children[0]->text, SymbolKind::Include, n.range, n.children[0]->range};
    break;
  case Kind::Defaults:
    s = {"defaults", "", SymbolKind::Defaults, n.range, n.range};
    break;
  case Kind::Tiers:
    s = {"tiers", "", SymbolKind::Tiers, n.range, n.range};
    break;
  case Kind::Protect:
    s = {"protect", joinedSelectors(n), SymbolKind::Protect, n.range, n.range};
    break;
  case Kind::SameScoreGroup:
    s = {"group same_score", "", SymbolKind::Group, n.range, n.range};
    break;
  case Kind::NamedGroup:
    s = {"group " + n.text, joinedSelectors(n), SymbolKind::Group, n.range, n.range};
    break;
  case Kind::WithGroup:
    s = {"group", joinedSelectors(n), SymbolKind::Group, n.range, n.range};
    break;
  case Kind::Target:
    s = {"target " + n.text, "", SymbolKind::Target, n.range, n.children[0]->range};
    break;
  case Kind::Tune:
    s = {"tune", "", SymbolKind::Tune, n.range, n.range};
    break;
  case Kind::Override: {
    const Node &subj = *n.children[0];
    std::string name = subj.kind == Kind::TypeSubject ? "override type " + subj.text
                                                      : "override name " + joinedSelectors(subj);
    const Node *prio = n.first(Kind::Priority);
    s = {name, prio ? "priority " + prio->text : "", SymbolKind::Override, n.range, subj.range};
    break;
  }
  default:
    break;
  }
  return s;
}

} // namespace

std::vector<Symbol> symbols(const Model &m) {
  std::vector<Symbol> out;
  if (!m.ast)
    return out;
  for (const auto &item : m.ast->children)
    if (item->range.file == m.file && item->kind != Kind::Version)
      out.push_back(symbolOf(*item));
  return out;
}

} // namespace qspec::lsp
