// The end of every practice writer of this folder (PracticeYaml.h).
#include "emitters/msmodelslim/PracticeYaml.h"

#include <cstdio>
#include <cstdlib>

namespace qspec::emit {

// A number as PyYAML's SafeLoader reads it back: integers without leading zeros (007 would be
// octal), floats always with a '.' and a signed exponent (1e-5 alone loads as a string).
std::string practiceNumber(const ir::Value &v) {
  if (v.isInteger)
    return std::to_string(static_cast<long long>(v.number));
  char buf[40];
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, v.number);
    if (std::strtod(buf, nullptr) == v.number)
      break;
  }
  std::string s = buf;
  size_t e = s.find_first_of("eE");
  std::string mant = e == std::string::npos ? s : s.substr(0, e);
  std::string exp = e == std::string::npos ? "" : s.substr(e);
  if (mant.find('.') == std::string::npos && mant.find("inf") == std::string::npos &&
      mant.find("nan") == std::string::npos)
    mant += ".0";
  return mant + exp;
}

void writePracticeValue(YAML::Emitter &y, const ir::Value &v) {
  if (v.kind == ir::Value::Number)
    y << practiceNumber(v);
  else if (v.kind == ir::Value::Ident && (v.text == "true" || v.text == "false"))
    y << v.text;
  else
    y << YAML::DoubleQuoted << v.text;
}

// A block's settings in the order written: a string list for include/exclude, else the value.
void writeSettings(YAML::Emitter &y, const ir::Option &block) {
  for (const ir::Option &p : block.children) {
    y << YAML::Key << p.key << YAML::Value;
    if (p.key == "include" || p.key == "exclude") {
      y << YAML::Flow << YAML::BeginSeq;
      for (const ir::Value &v : p.values)
        y << YAML::DoubleQuoted << v.text;
      y << YAML::EndSeq;
    } else {
      writePracticeValue(y, p.values[0]);
    }
  }
}

void writeAutoroundHead(YAML::Emitter &y, const PracticeOptions &o) {
  y << YAML::BeginMap << YAML::Key << "type" << YAML::Value << YAML::DoubleQuoted
    << "autoround_quant";
  writeSettings(y, *o.autoround);
  y << YAML::Key << "strategies" << YAML::Value << YAML::BeginSeq;
}

void writeFloatSparse(YAML::Emitter &y, const PracticeOptions &o) {
  if (!o.floatSparse)
    return;
  y << YAML::BeginMap << YAML::Key << "type" << YAML::Value << YAML::DoubleQuoted << "float_sparse";
  writeSettings(y, *o.floatSparse);
  y << YAML::EndMap;
}

bool finishPracticeYaml(YAML::Emitter &y, const ir::Target &target, OutputContext &out,
                        DiagnosticEngine &diags) {
  if (!y.good()) {
    diags.report(DiagID::err_internal, target.range,
                 {std::string("yaml-cpp: ") + y.GetLastError()});
    return false;
  }
  out.buffer() = y.c_str();
  out.buffer() += "\n";
  return true;
}

} // namespace qspec::emit
