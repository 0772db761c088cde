#include "frontend/Frontend.h"

#include "ir/TargetInfo.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <utility>

namespace qspec::frontend {

using ast::Kind;
using ast::Node;

static const char *const kStrategies[] = {"group-bisect", "standing-high", "hmct-ladder"};

std::string canonicalStrategy(std::string_view name) {
  std::string s(name);
  std::replace(s.begin(), s.end(), '_', '-');
  for (const char *k : kStrategies)
    if (s == k)
      return s;
  return "";
}

std::string knownStrategyList() {
  std::string s;
  for (const char *k : kStrategies)
    s += std::string(s.empty() ? "" : ", ") + k;
  return s;
}

// ---- Building the typed spec -------------------------------------------------------------

namespace {

class SpecBuilder {
public:
  SpecBuilder(ir::Spec &s, DiagnosticEngine &d, const FrontendOptions &o, std::string path)
      : spec_(s), diags_(d), opts_(o), path_(std::move(path)) {}

  bool build(const Node &root) {
    spec_.path = path_;
    for (const auto &item : root.children)
      lowerItem(*item);
    checkLadder();
    size_t rules = spec_.overrides.size() + spec_.protects.size() + spec_.groups.size();
    if (rules > opts_.maxRules)
      diags_.report(DiagID::err_too_many_rules, root.range,
                    {std::to_string(opts_.maxRules), "rules"});
    return !diags_.hasErrors();
  }

private:
  ir::Spec &spec_;
  DiagnosticEngine &diags_;
  const FrontendOptions &opts_;
  std::string path_;
  const Node *defaultsNode_ = nullptr, *tiersNode_ = nullptr, *modelNode_ = nullptr,
             *tuneNode_ = nullptr;
  std::vector<std::pair<ir::Tier, SourceRange>> tierUses_; // checked against the ladder at the end

  // Returns false (after reporting) when `n` repeats a declaration that may appear once; the
  // repeat is then not lowered, so it cannot change what the first one said or cause follow-on
  // errors (a second `tiers` line would otherwise replace the ladder).
  bool duplicate(const char *what, const Node &n, const Node *&seen) {
    if (seen) {
      Diagnostic &d = diags_.report(DiagID::err_duplicate_decl, n.range, {what});
      diags_.note(d, DiagID::note_previous_decl, seen->range);
      return false;
    }
    seen = &n;
    return true;
  }

  std::optional<ir::Tier> tier(const Node &identNode) {
    auto t = ir::parseTier(identNode.text);
    if (!t)
      diags_.report(DiagID::err_unknown_tier, identNode.range,
                    {identNode.text, ir::knownTierList()});
    return t;
  }

  std::optional<ir::Selector> selector(const Node &n) {
    ir::Selector s;
    s.range = n.range;
    s.text = n.text;
    if (n.kind == Kind::TypeSelector || n.kind == Kind::TypeSubject) {
      s.kind = ir::Selector::Type;
      return s;
    }
    std::string err;
    s.pattern = Pattern::compile(n.text, err);
    if (!s.pattern) {
      diags_.report(DiagID::err_bad_pattern, n.range, {n.text, err});
      return std::nullopt;
    }
    return s;
  }

  ir::Value value(const Node &n) {
    ir::Value v;
    v.text = n.text;
    v.range = n.range;
    if (n.kind == Kind::String) {
      v.kind = ir::Value::String;
    } else if (n.kind == Kind::Number) {
      v.kind = ir::Value::Number;
      v.number = std::strtod(n.text.c_str(), nullptr);
      v.isInteger = n.text.find_first_of(".eE") == std::string::npos;
      // 1e309 reads as inf, which no backend can write back (Python has no `inf` literal, YAML
      // loads the text 'inf' as a string): refuse it here, where it is written.
      if (!std::isfinite(v.number)) {
        diags_.report(DiagID::err_number_not_finite, n.range, {n.text});
        v.number = 0;
      }
    } else {
      v.kind = ir::Value::Ident;
    }
    return v;
  }

  ir::Option option(const Node &setting) {
    ir::Option o;
    o.key = setting.text;
    o.range = setting.range;
    for (const auto &c : setting.children) {
      if (c->kind == Kind::Ident && o.keyRange.file == 0 &&
          c.get() == setting.children.front().get()) {
        o.keyRange = c->range;
      } else if (c->kind == Kind::Setting) {
        o.isBlock = true;
        o.children.push_back(option(*c));
      } else {
        o.values.push_back(value(*c));
      }
    }
    if (o.values.empty() && o.children.empty())
      o.isBlock = true;
    return o;
  }

  std::vector<ir::Option> options(const Node &parent, const char *where) {
    std::vector<ir::Option> out;
    std::map<std::string, const Node *> seen;
    for (const auto &c : parent.children) {
      if (c->kind != Kind::Setting)
        continue;
      auto [it, fresh] = seen.emplace(c->text, c.get());
      if (!fresh) {
        Diagnostic &d = diags_.report(DiagID::err_duplicate_setting, c->range, {c->text, where});
        diags_.note(d, DiagID::note_previous_setting, it->second->range);
        continue;
      }
      out.push_back(option(*c));
    }
    return out;
  }

  const ir::Value *single(const ir::Option &o, ir::Value::Kind kind, const char *expect) {
    if (o.values.size() != 1 || o.values[0].kind != kind || !o.children.empty()) {
      diags_.report(DiagID::err_setting_value, o.range, {o.key, expect});
      return nullptr;
    }
    return &o.values[0];
  }

  void lowerRecipe(const Node &n, ir::Recipe &r) {
    static const std::set<std::string> dtypes = {"int4",  "int8",       "int16",    "fp16",
                                                 "bf16",  "float",      "fp8_e4m3", "mxfp8",
                                                 "mxfp4", "placeholder"};
    static const std::set<std::string> scopes = {"per_tensor", "per_channel", "per_group",
                                                 "per_block",  "per_token",   "pd_mix",
                                                 "per_head",   "dual_scale"};
    r.range = n.range;
    const char *role = n.text == "weight" ? "weight" : "act";
    for (const auto &item : n.children) {
      const std::string &w = item->text;
      if (!item->children.empty()) {
        r.ext[w] = value(*item->children.front());
        continue;
      }
      auto set = [&](std::optional<std::string> &slot) {
        if (slot)
          diags_.report(DiagID::err_bad_recipe_word, item->range, {w, role, *slot});
        else
          slot = w;
      };
      if (dtypes.count(w)) {
        set(r.dtype);
      } else if (scopes.count(w)) {
        set(r.scope);
      } else if (w == "symmetric" || w == "sym" || w == "asymmetric" || w == "asym") {
        bool sym = w == "symmetric" || w == "sym";
        if (r.symmetric)
          diags_.report(DiagID::err_bad_recipe_word, item->range,
                        {w, role, *r.symmetric ? "symmetric" : "asymmetric"});
        else
          r.symmetric = sym;
      } else {
        set(r.method);
      }
    }
  }

  void lowerSettings(const Node &body, ir::Settings &s) {
    const Node *tierSeen = nullptr, *weightSeen = nullptr, *actSeen = nullptr;
    for (const auto &c : body.children) {
      switch (c->kind) {
      case Kind::TierStmt:
        if (!duplicate("'tier'", *c, tierSeen))
          break;
        if (auto t = tier(*c->children.front())) {
          s.tier = t;
          s.tierRange = c->range;
          tierUses_.push_back({*t, c->children.front()->range});
        }
        break;
      case Kind::Recipe:
        if (c->text == "weight") {
          if (duplicate("'weight'", *c, weightSeen))
            lowerRecipe(*c, s.weight);
        } else {
          if (duplicate("'act'", *c, actSeen))
            lowerRecipe(*c, s.act);
        }
        break;
      case Kind::TargetOptions: {
        ir::Option o;
        o.key = c->text;
        o.range = c->range;
        o.isBlock = true;
        o.children = options(*c, "a target block");
        checkRuleBlock(o);
        s.targetOptions.push_back(std::move(o));
        break;
      }
      default:
        break;
      }
    }
  }

  // A rule's `KIND { ... }` block: KIND must be a backend and every key one it reads for a rule.
  void checkRuleBlock(const ir::Option &block) {
    const ir::TargetInfo *info = ir::findTarget(block.key);
    if (!info) {
      diags_.report(
          DiagID::err_unknown_setting, block.keyRange.valid() ? block.keyRange : block.range,
          {block.key,
           "a rule (a block there is named after a target: " + ir::knownTargetList() + ")"});
      return;
    }
    const std::vector<std::string> &keys = info->ruleOptionKeys;
    for (const ir::Option &o : block.children) {
      if (std::find(keys.begin(), keys.end(), o.key) != keys.end())
        continue;
      std::string known;
      for (const std::string &k : keys)
        known += (known.empty() ? "" : ", ") + k;
      diags_.report(
          DiagID::err_unknown_setting, o.keyRange.valid() ? o.keyRange : o.range,
          {o.key, "a rule's " + block.key + " block (" +
                      (known.empty() ? "target " + block.key + " reads no per-rule settings"
                                     : "known: " + known) +
                      ")"});
    }
  }

  // `onnx "model.onnx"` / `onnx_map "map.json"`: the exported graph of two graphs.
  void lowerGraphFile(const ir::Option &o) {
    const ir::Value *v = single(o, ir::Value::String, "a file name in quotes");
    if (!v)
      return;
    bool isMap = o.key == "onnx_map";
    (isMap ? spec_.onnx.mapPath : spec_.onnx.path) = resolvePath(path_, v->text);
    (isMap ? spec_.onnx.mapRange : spec_.onnx.range) = v->range;
  }

  void lowerModel(const Node &n) {
    if (!duplicate("'model'", n, modelNode_))
      return;
    spec_.modelRange = n.range;
    if (const Node *name = n.first(Kind::String))
      spec_.modelName = name->text;
    spec_.modelOptions = options(n, "the model block");
    for (const ir::Option &o : spec_.modelOptions) {
      if (o.key == "inventory") {
        if (auto *v = single(o, ir::Value::String, "a file name in quotes")) {
          spec_.inventory.path = resolvePath(path_, v->text);
          spec_.inventoryRange = v->range;
        }
      } else if (o.key == "blocks") {
        if (auto *v =
                single(o, ir::Value::String, "a pattern in quotes, such as \"model.layers.{i}\"")) {
          std::string err;
          spec_.blockPattern = Pattern::compile(v->text, err);
          spec_.blockPatternText = v->text;
          if (!spec_.blockPattern)
            diags_.report(DiagID::err_bad_pattern, v->range, {v->text, err});
          else if (spec_.blockPattern->variables().size() != 1)
            diags_.report(DiagID::err_bad_pattern, v->range,
                          {v->text, "a block pattern needs exactly one variable such as {i}"});
        }
      } else if (o.key == "scores") {
        if (auto *v = single(o, ir::Value::String, "a file name in quotes")) {
          spec_.scores.path = resolvePath(path_, v->text);
          spec_.scoresRange = v->range;
        }
      } else if (o.key == "onnx" || o.key == "onnx_map") {
        lowerGraphFile(o);
      } else if (o.key == "config") {
        if (auto *v = single(o, ir::Value::String, "a file name in quotes")) {
          spec_.modelConfig.path = resolvePath(path_, v->text);
          spec_.modelConfig.range = v->range;
        }
      } else {
        diags_.report(
            DiagID::err_unknown_setting, o.keyRange.valid() ? o.keyRange : o.range,
            {o.key, "the model block (known: inventory, config, onnx, onnx_map, blocks, scores)"});
      }
    }
  }

  void lowerTiers(const Node &n) {
    if (!duplicate("'tiers'", n, tiersNode_))
      return;
    spec_.ladder.clear();
    spec_.ladderRange = n.range;
    for (const auto &c : n.children) {
      auto t = tier(*c);
      if (!t)
        continue;
      if (std::find(spec_.ladder.begin(), spec_.ladder.end(), *t) != spec_.ladder.end()) {
        diags_.report(DiagID::err_ladder_duplicate, c->range, {c->text});
        continue;
      }
      if (!spec_.ladder.empty() && *t < spec_.ladder.back()) {
        diags_.report(DiagID::err_ladder_order, c->range,
                      {c->text, ir::tierName(spec_.ladder.back())});
        continue;
      }
      spec_.ladder.push_back(*t);
    }
  }

  void lowerGroup(const Node &n) {
    ir::GroupDecl g;
    g.range = n.range;
    if (n.kind == Kind::SameScoreGroup) {
      g.kind = ir::GroupDecl::SameScore;
      g.name = "same_score";
      if (const Node *f = n.first(Kind::String))
        g.scoresPath = resolvePath(path_, f->text);
    } else {
      g.kind = ir::GroupDecl::Declared;
      g.name = n.kind == Kind::NamedGroup ? n.text
                                          : "group@" + std::to_string(n.range.begin.line) + ":" +
                                                std::to_string(n.range.begin.col);
      for (const auto &c : n.children)
        if (auto s = selector(*c))
          g.members.push_back(std::move(*s));
      for (const ir::GroupDecl &other : spec_.groups)
        if (other.kind == ir::GroupDecl::Declared && other.name == g.name) {
          Diagnostic &d =
              diags_.report(DiagID::err_duplicate_decl, n.range, {"group '" + g.name + "'"});
          diags_.note(d, DiagID::note_previous_decl, other.range);
        }
    }
    spec_.groups.push_back(std::move(g));
  }

  void lowerOverride(const Node &n) {
    ir::Override o;
    o.range = n.range;
    o.level = n.text == "type" ? ir::Override::Type : ir::Override::Name;
    for (const auto &c : n.children) {
      if (c->kind == Kind::TypeSubject) {
        o.subjectRange = c->range;
        if (auto s = selector(*c))
          o.selectors.push_back(std::move(*s));
      } else if (c->kind == Kind::NameSubject) {
        o.subjectRange = c->range;
        for (const auto &sel : c->children)
          if (auto s = selector(*sel))
            o.selectors.push_back(std::move(*s));
      } else if (c->kind == Kind::Priority) {
        o.hasPriority = true;
        o.priority =
            static_cast<int>(std::min<long>(std::strtol(c->text.c_str(), nullptr, 10), 1000000));
      }
    }
    lowerSettings(n, o.settings);
    spec_.overrides.push_back(std::move(o));
  }

  void lowerTarget(const Node &n) {
    ir::Target t;
    t.range = n.range;
    const Node *kindNode = n.children.at(0).get();
    t.kind = kindNode->text;
    const ir::TargetInfo *info = ir::findTarget(t.kind);
    if (!info) {
      diags_.report(DiagID::err_unknown_target, kindNode->range, {t.kind, ir::knownTargetList()});
      return;
    }
    if (n.children.size() > 1 && n.children[1]->kind == Kind::Ident) {
      const Node *var = n.children[1].get();
      if (std::find(info->variants.begin(), info->variants.end(), var->text) ==
          info->variants.end()) {
        std::string known;
        for (const auto &v : info->variants)
          known += std::string(known.empty() ? "" : ", ") + v;
        diags_.report(DiagID::err_setting_value, var->range,
                      {"target " + t.kind, known.empty() ? "no variant" : "one of " + known});
      }
      t.variant = var->text;
    } else {
      t.variant = info->defaultVariant;
    }
    for (const ir::Target &other : spec_.targets)
      if (other.kind == t.kind) {
        Diagnostic &d = diags_.report(DiagID::err_duplicate_target, kindNode->range, {t.kind});
        diags_.note(d, DiagID::note_previous_decl, other.range);
      }
    t.options = options(n, ("target " + t.kind).c_str());
    if (!info->optionKeys.empty())
      for (const ir::Option &o : t.options)
        if (std::find(info->optionKeys.begin(), info->optionKeys.end(), o.key) ==
            info->optionKeys.end()) {
          std::string known;
          for (const auto &k : info->optionKeys)
            known += std::string(known.empty() ? "" : ", ") + k;
          diags_.report(DiagID::err_unknown_setting, o.keyRange.valid() ? o.keyRange : o.range,
                        {o.key, "target " + t.kind + " (known: " + known + ")"});
        }
    spec_.targets.push_back(std::move(t));
  }

  void lowerMetric(const Node &c, ir::Tune &t) {
    ir::MetricGoal g;
    g.name = c.children.at(0)->text;
    g.op = c.text;
    g.threshold = std::strtod(c.children.at(1)->text.c_str(), nullptr);
    g.range = c.range;
    if (!std::isfinite(g.threshold))
      diags_.report(DiagID::err_bad_metric, c.children.at(1)->range);
    if (c.children.size() == 4) {
      g.relative = true;
      if (c.children[2]->text != "of" || c.children[3]->text != "float")
        diags_.report(DiagID::err_tune_relative_metric, c.children[2]->range,
                      {c.children[2]->text + " " + c.children[3]->text});
      else if (!(g.threshold > 0 && g.threshold <= 1000))
        diags_.report(DiagID::err_tune_relative_metric, c.children.at(1)->range,
                      {"a percentage of " + c.children[1]->text});
    }
    for (const ir::MetricGoal &other : t.metrics)
      if (other.name == g.name) {
        Diagnostic &d = diags_.report(DiagID::err_tune_duplicate_metric, c.range, {g.name});
        diags_.note(d, DiagID::note_previous_decl, other.range);
        return;
      }
    if (t.metrics.empty()) {
      t.metric = g.name;
      t.metricOp = g.op;
      t.threshold = g.threshold;
      t.metricRange = g.range;
    }
    t.metrics.push_back(std::move(g));
  }

  void lowerTune(const Node &n) {
    if (!duplicate("'tune'", n, tuneNode_))
      return;
    ir::Tune &t = spec_.tune;
    t.present = true;
    t.range = n.range;
    t.strategy = "group-bisect";
    std::vector<ir::Option> rest;
    for (const auto &c : n.children) {
      switch (c->kind) {
      case Kind::Metric:
        lowerMetric(*c, t);
        break;
      case Kind::Levels:
        for (const auto &lv : c->children) {
          ir::Level level;
          level.range = lv->range;
          level.text = lv->text;
          for (const auto &term : lv->children) {
            ir::LevelTerm lt;
            lt.range = term->range;
            const Node *arg = term->children.at(0).get();
            if (term->text == "pattern") {
              lt.kind = ir::LevelTerm::Pattern;
              lt.pattern = arg->text;
              std::string err;
              if (!Pattern::compile(arg->text, err))
                diags_.report(DiagID::err_bad_pattern, arg->range, {arg->text, err});
            } else {
              std::string which = term->text;
              lt.percent = !which.empty() && which.back() == '%';
              if (lt.percent)
                which.pop_back();
              lt.kind = which == "first"  ? ir::LevelTerm::First
                        : which == "last" ? ir::LevelTerm::Last
                                          : ir::LevelTerm::Top;
              unsigned long v = std::strtoul(arg->text.c_str(), nullptr, 10);
              if (lt.percent && (v == 0 || v > 100 || arg->text.size() > 3))
                diags_.report(DiagID::err_bad_level, arg->range,
                              {"a percentage between 1 and 100"});
              else if (v == 0 || v > 1000000 || arg->text.size() > 7)
                diags_.report(DiagID::err_bad_level, arg->range, {"a count between 1 and 1000000"});
              lt.count = static_cast<uint32_t>(std::min<unsigned long>(v, 1000000));
            }
            level.terms.push_back(std::move(lt));
          }
          t.levels.push_back(std::move(level));
        }
        break;
      case Kind::TuneExclude:
        t.stateStatements.push_back(c->statement);
        for (const auto &s : c->children)
          if (auto sel = selector(*s))
            t.excludes.push_back(std::move(*sel));
        break;
      case Kind::TuneRaise: {
        ir::TuningRaise r;
        r.range = c->range;
        t.stateStatements.push_back(c->statement);
        for (const auto &s : c->children)
          if (s->kind == Kind::NameSelector)
            if (auto sel = selector(*s))
              r.selectors.push_back(std::move(*sel));
        if (auto tr = tier(*c->children.back())) {
          r.tier = *tr;
          tierUses_.push_back({*tr, c->children.back()->range});
        }
        t.raises.push_back(std::move(r));
        break;
      }
      default:
        break;
      }
    }
    for (ir::Option &o : options(n, "the tune block")) {
      if (o.key == "scores") {
        if (auto *v = single(o, ir::Value::String, "a file name in quotes")) {
          t.scoresPath = resolvePath(path_, v->text);
          t.scoresRange = v->range;
        }
      } else if (o.key == "strategy") {
        if (auto *v = single(o, ir::Value::Ident, "a strategy name")) {
          t.strategy = canonicalStrategy(v->text);
          t.strategyRange = v->range;
          if (t.strategy.empty())
            diags_.report(DiagID::err_unknown_strategy, v->range, {v->text, knownStrategyList()});
        }
      } else if (o.key == "anti_outlier") {
        for (const auto &c : n.children)
          if (c->kind == Kind::Setting && c->text == "anti_outlier")
            t.antiOutlierStatement = c->statement;
        for (const ir::Value &v : o.values)
          t.antiOutlier.push_back(v.text);
      } else if (o.key == "raise_to") {
        if (auto *v = single(o, ir::Value::Ident, "a tier")) {
          t.raiseTo = ir::parseTier(v->text);
          if (!t.raiseTo)
            diags_.report(DiagID::err_unknown_tier, v->range, {v->text, ir::knownTierList()});
          else
            tierUses_.push_back({*t.raiseTo, v->range});
        }
      } else if (o.key == "max_rounds") {
        if (auto *v = single(o, ir::Value::Number, "a whole number of rounds")) {
          if (!v->isInteger || v->number < 1 || v->number > 100000)
            diags_.report(DiagID::err_setting_value, v->range,
                          {o.key, "a whole number from 1 to 100000"});
          else
            t.maxRounds = static_cast<int>(v->number);
        }
      } else if (o.key == "max_time") {
        if (auto *v = single(o, ir::Value::Number, "a number of seconds")) {
          if (!(v->number > 0) || !std::isfinite(v->number))
            diags_.report(DiagID::err_setting_value, v->range,
                          {o.key, "a positive number of seconds"});
          else
            t.maxSeconds = v->number;
        }
      } else if (o.key == "thresholds" || o.key == "tolerance" || o.key == "confirm") {
        t.options.push_back(o);
      } else {
        diags_.report(
            DiagID::err_unknown_setting, o.keyRange.valid() ? o.keyRange : o.range,
            {o.key, "the tune block (known: scores, strategy, anti_outlier, raise_to, max_rounds, "
                    "max_time, thresholds, tolerance, confirm, metric, levels, exclude, raise)"});
      }
    }
  }

  void lowerItem(const Node &n) {
    switch (n.kind) {
    case Kind::Version:
      if (n.text != "1")
        diags_.report(DiagID::err_bad_version, n.range, {n.text});
      break;
    case Kind::Model:
      lowerModel(n);
      break;
    case Kind::Defaults:
      if (!duplicate("'defaults'", n, defaultsNode_))
        break;
      spec_.defaultsRange = n.range;
      lowerSettings(n, spec_.defaults);
      break;
    case Kind::Tiers:
      lowerTiers(n);
      break;
    case Kind::Protect:
      for (const auto &c : n.children)
        if (auto s = selector(*c))
          spec_.protects.push_back({std::move(*s), n.range});
      break;
    case Kind::SameScoreGroup:
    case Kind::NamedGroup:
    case Kind::WithGroup:
      lowerGroup(n);
      break;
    case Kind::Override:
      lowerOverride(n);
      break;
    case Kind::Target:
      lowerTarget(n);
      break;
    case Kind::Tune:
      lowerTune(n);
      break;
    case Kind::Allow:
      lowerAllow(n);
      break;
    default:
      break;
    }
  }

  // allow NAME because "REASON": silences the warning group (or warning ID) NAME in this spec
  // from here on; the reason is required so a reviewer sees why.
  void lowerAllow(const Node &n) {
    const Node *name = n.first(Kind::Ident);
    const Node *reason = n.first(Kind::String);
    if (!name || !reason)
      return;
    bool known = !diagGroupMembers(name->text).empty();
    if (!known) {
      Diagnostic &d = diags_.report(DiagID::err_allow_unknown, name->range, {name->text});
      std::string best = closestWarningGroup(name->text);
      if (!best.empty())
        diags_.note(d, DiagID::note_did_you_mean, name->range, {best});
      return;
    }
    if (reason->text.find_first_not_of(" \t") == std::string::npos) {
      diags_.report(DiagID::err_allow_needs_reason, reason->range, {name->text});
      return;
    }
    diags_.setGroupEnabled(name->text, false);
    spec_.allows.push_back({name->text, reason->text, n.range});
  }

  void checkLadder() {
    if (spec_.ladder.empty())
      for (int i = 0; i < ir::kNumTiers; ++i)
        spec_.ladder.push_back(static_cast<ir::Tier>(i));
    for (auto &[t, r] : tierUses_)
      if (!spec_.inLadder(t)) {
        Diagnostic &d = diags_.report(DiagID::err_tier_not_in_ladder, r, {ir::tierName(t)});
        if (spec_.ladderRange.valid())
          diags_.note(d, DiagID::note_ladder_here, spec_.ladderRange);
      }
  }
};

// The one scores file qcc reads: --scores, else the tune block's, else the model block's, else
// the first same-score group's. Every other file the spec names is checked too, so a mistyped
// name is never silently ignored: one that cannot be opened is an error (with the OS reason),
// one that differs from the file read is a warning.
bool chooseScores(const ir::Spec &spec, const FrontendOptions &opts, DiagnosticEngine &diags,
                  std::string &path, SourceRange &at) {
  std::vector<std::pair<std::string, SourceRange>> named;
  if (!opts.scoresOverride.empty())
    named.emplace_back(opts.scoresOverride, SourceRange{});
  if (!spec.tune.scoresPath.empty())
    named.emplace_back(spec.tune.scoresPath, spec.tune.scoresRange);
  if (!spec.scores.path.empty())
    named.emplace_back(spec.scores.path, spec.scoresRange);
  for (const ir::GroupDecl &g : spec.groups)
    if (g.kind == ir::GroupDecl::SameScore && !g.scoresPath.empty())
      named.emplace_back(g.scoresPath, g.range);
  if (named.empty())
    return true;
  path = named.front().first;
  at = named.front().second;
  for (size_t i = 1; i < named.size(); ++i) {
    const auto &[other, range] = named[i];
    if (other == path)
      continue;
    std::string why;
    if (!checkRegularFile(other, why)) {
      diags.report(DiagID::err_cannot_open_file, range, {other, why});
      continue;
    }
    Diagnostic &d = diags.report(DiagID::warn_scores_file_unused, range, {other, path});
    if (at.valid())
      diags.note(d, DiagID::note_scores_file_read, at, {path});
  }
  return !diags.hasErrors();
}

// Two graphs: the exported ONNX and each module's nodes in it (docs/inputs.md).
bool readGraph(ir::Spec &spec, DiagnosticEngine &diags, const FrontendOptions &opts) {
  if (!spec.onnx.present()) {
    if (!spec.onnx.mapPath.empty())
      diags.report(DiagID::err_unknown_setting, spec.onnx.mapRange,
                   {"onnx_map", "the model block: onnx_map needs an onnx graph next to it"});
    return !diags.hasErrors();
  }
  if (!spec.inventory.present()) {
    diags.report(DiagID::err_onnx_needs_inventory, spec.onnx.range);
    return false;
  }
  return readers::readOnnxGraph(spec.inventory, spec.onnx, diags, opts.readerLimits);
}

// With a project root: every input file the spec names is inside it (before any is opened).
bool confineInputs(const ir::Spec &spec, const FrontendOptions &opts, DiagnosticEngine &diags) {
  if (opts.root.empty())
    return true;
  std::vector<std::pair<std::string, SourceRange>> named;
  if (opts.inventoryOverride.empty())
    named.emplace_back(spec.inventory.path, spec.inventoryRange);
  named.emplace_back(spec.onnx.path, spec.onnx.range);
  named.emplace_back(spec.onnx.mapPath, spec.onnx.mapRange);
  named.emplace_back(spec.modelConfig.path, spec.modelConfig.range);
  if (opts.scoresOverride.empty()) {
    named.emplace_back(spec.tune.scoresPath, spec.tune.scoresRange);
    named.emplace_back(spec.scores.path, spec.scoresRange);
    for (const ir::GroupDecl &g : spec.groups)
      if (g.kind == ir::GroupDecl::SameScore)
        named.emplace_back(g.scoresPath, g.range);
  }
  bool ok = true;
  for (const auto &[path, at] : named)
    if (!path.empty() && !insideRoot(opts.root, path)) {
      diags.report(DiagID::err_path_outside_root, at, {path, opts.root});
      ok = false;
    }
  return ok;
}

} // namespace

bool buildSpec(const ast::Node &root, const std::string &specPath, ir::Spec &spec,
               DiagnosticEngine &diags, const FrontendOptions &opts) {
  SpecBuilder b(spec, diags, opts, specPath);
  if (!b.build(root))
    return false;
  if (!opts.loadInputs)
    return true;
  if (!confineInputs(spec, opts, diags))
    return false;

  // Inventory: the command line wins over the spec.
  if (!opts.inventoryOverride.empty()) {
    spec.inventory.path = opts.inventoryOverride;
    spec.inventoryRange = SourceRange{};
  }
  if (spec.inventory.present()) {
    std::string path = spec.inventory.path;
    if (!(opts.inputReader ? opts.inputReader->readInventory(path, spec.inventory, diags,
                                                             spec.inventoryRange, opts.readerLimits)
                           : readers::readInventory(path, spec.inventory, diags,
                                                    spec.inventoryRange, opts.readerLimits)))
      return false;
    spec.inventory.path = path;
    if (spec.blockPattern)
      readers::assignBlocks(spec.inventory, *spec.blockPattern);
  }
  if (!readers::readConfigAndTypes(spec.inventory, spec.modelConfig, diags, spec.inventoryRange,
                                   opts.readerLimits))
    return false;
  if (!readGraph(spec, diags, opts))
    return false;
  std::string scoresPath;
  SourceRange scoresAt;
  if (!chooseScores(spec, opts, diags, scoresPath, scoresAt))
    return false;
  spec.scores.path.clear();
  if (!scoresPath.empty()) {
    if (!(opts.inputReader
              ? opts.inputReader->readScores(scoresPath, spec.scores, diags, scoresAt,
                                             opts.readerLimits)
              : readers::readScores(scoresPath, spec.scores, diags, scoresAt, opts.readerLimits)))
      return false;
    spec.scores.path = scoresPath;
    readers::scoresOnModules(spec.inventory, spec.onnx, spec.scores, diags, scoresAt);
  }
  for (const ir::GroupDecl &g : spec.groups)
    if (g.kind == ir::GroupDecl::SameScore && !spec.scores.present())
      diags.report(DiagID::err_same_score_needs_scores, g.range);
  return !diags.hasErrors();
}

bool loadSpec(const std::string &path, ir::Spec &spec, DiagnosticEngine &diags,
              const FrontendOptions &opts) {
  auto root = parseFile(path, diags, opts);
  if (!root)
    return false;
  return buildSpec(*root, path, spec, diags, opts);
}

} // namespace qspec::frontend
