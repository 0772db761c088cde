// AmctIntent.h: the IR's words in AMCT's terms.
#include "vendors/amct/AmctIntent.h"

#include <algorithm>

namespace qspec::amct {

int decisionRank(ir::Decision::Source s) {
  switch (s) {
  case ir::Decision::BuiltIn:
    return 0;
  case ir::Decision::Default:
    return 1;
  case ir::Decision::TypeOverride:
    return 2;
  case ir::Decision::NameOverride:
  case ir::Decision::Group:
    return 3;
  default:
    return 4;
  }
}

std::optional<DataType> intendedType(ir::Tier tier, int tierRank, std::string_view dtype,
                                     int dtypeRank, bool weight) {
  if (dtype.empty() || dtypeRank < tierRank) {
    if (weight)
      return tier == ir::Tier::Int4 ? DataType::Int4 : DataType::Int8;
    return tier == ir::Tier::Int16 ? DataType::Int16 : DataType::Int8;
  }
  if (dtype == "int8")
    return DataType::Int8;
  if (dtype == "int4")
    return DataType::Int4;
  if (dtype == "int16" && !weight)
    return DataType::Int16;
  return std::nullopt;
}

std::optional<DataType> intendedType(const ir::ResolvedModule &rm, bool weight) {
  const ir::ResolvedRecipe &r = weight ? rm.weight : rm.act;
  return intendedType(rm.tier.value, decisionRank(rm.tier.from.source), r.dtype.value.str(),
                      r.dtype.value.empty() ? 0 : decisionRank(r.dtype.from.source), weight);
}

const std::vector<std::string> &algorithms(bool weight, ConfigKind k) {
  static const std::vector<std::string> kLegal[2][2] = {{{"ifmr", "hfmg"}, {"ulq"}},
                                                        {{"arq", "ada"}, {"arq", "ulq"}}};
  return kLegal[weight][k == ConfigKind::QAT];
}

const std::string &algorithmList(bool weight, ConfigKind k) {
  static const std::string kText[2][2] = {{"ifmr or hfmg", "ulq"}, {"arq or ada", "arq or ulq"}};
  return kText[weight][k == ConfigKind::QAT];
}

std::string_view algorithmOf(std::string_view method, bool weight, ConfigKind k) {
  std::string_view m = method;
  if (m == "histogram")
    m = "hfmg";
  else if (m == "adaround")
    m = "ada";
  else if (weight && m == "minmax")
    m = "arq"; // ARQ is AMCT's min-max weight quantizer
  const std::vector<std::string> &legal = algorithms(weight, k);
  auto it = std::find(legal.begin(), legal.end(), m);
  return it == legal.end() ? std::string_view() : std::string_view(*it);
}

std::string chooseAlgorithm(std::string_view method, std::string_view ruleAlgo,
                            std::string_view targetAlgo, bool weight, ConfigKind k) {
  if (!ruleAlgo.empty())
    return std::string(algorithmOf(ruleAlgo, weight, k));
  if (!method.empty()) {
    std::string_view own = algorithmOf(method, weight, k);
    if (!own.empty())
      return std::string(own);
    return targetAlgo.empty() ? std::string() : std::string(algorithmOf(targetAlgo, weight, k));
  }
  if (!targetAlgo.empty())
    return std::string(algorithmOf(targetAlgo, weight, k));
  return algorithms(weight, k).front();
}

static std::string_view firstValue(const ir::Option &o) {
  return o.values.size() == 1 ? std::string_view(o.values[0].text) : std::string_view();
}

const ir::Option *ruleSetting(const std::vector<const ir::Option *> &blocks, std::string_view key) {
  const ir::Option *out = nullptr;
  for (const ir::Option *b : blocks)
    if (b->key == "amct")
      for (const ir::Option &o : b->children)
        if (o.key == key)
          out = &o;
  return out;
}

std::string_view ruleOption(const std::vector<const ir::Option *> &blocks, std::string_view key) {
  const ir::Option *o = ruleSetting(blocks, key);
  return o ? firstValue(*o) : std::string_view();
}

const std::string &methodWord(std::string_view algo) {
  static const std::string kWords[] = {"histogram", "adaround", "minmax", "ifmr", "ulq"};
  if (algo == "hfmg")
    return kWords[0];
  if (algo == "ada")
    return kWords[1];
  if (algo == "arq")
    return kWords[2];
  return algo == "ifmr" ? kWords[3] : kWords[4];
}

MethodChoice methodChoice(const ir::Target &target, const ir::ResolvedModule &rm, bool weight,
                          ConfigKind k) {
  const char *key = weight ? "weight_algo" : "act_algo";
  const std::string &own = (weight ? rm.weight : rm.act).method.value.str();
  const ir::Option *rule = ruleSetting(rm.targetOptions, key);
  const ir::Option *tgt = target.option(key);
  std::string_view ruleAlgo = rule ? firstValue(*rule) : std::string_view();
  std::string_view targetAlgo = tgt ? firstValue(*tgt) : std::string_view();
  if (own.empty() && ruleAlgo.empty() && targetAlgo.empty())
    return {};
  std::string algo = chooseAlgorithm(own, ruleAlgo, targetAlgo, weight, k);
  if (algo.empty())
    return {};
  const ir::Option *by = !ruleAlgo.empty()                                      ? rule
                         : !own.empty() && !algorithmOf(own, weight, k).empty() ? nullptr
                         : !targetAlgo.empty()                                  ? tgt
                                                                                : nullptr;
  return {&methodWord(algo), by};
}

std::string_view targetOption(const ir::Target &target, std::string_view key) {
  const ir::Option *o = target.option(std::string(key));
  return o ? firstValue(*o) : std::string_view();
}

} // namespace qspec::amct
