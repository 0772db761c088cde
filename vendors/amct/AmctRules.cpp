// AMCT facts and per-value checks; see AmctRules.h. Every quoted message is AMCT's own text
// (amct.md §4), including its spacing and typos. The whole-document checks are
// AmctDocumentChecks.cpp's.
#include "vendors/amct/AmctRules.h"
#include "support/Utf8.h"
#include "vendors/CheckHelpers.h"

#include <cstdio>
#include <set>

namespace qspec::amct {

const char *configKindName(ConfigKind k) {
  switch (k) {
  case ConfigKind::PTQ:
    return "ptq";
  case ConfigKind::QAT:
    return "qat";
  case ConfigKind::KVCache:
    return "kv-cache";
  }
  return "?";
}

const char *rootMessageName(ConfigKind k) {
  switch (k) {
  case ConfigKind::PTQ:
    return "AMCTConfig";
  case ConfigKind::QAT:
    return "AMCTRetrainConfig";
  case ConfigKind::KVCache:
    return "AMCTQuantCaliConfig";
  }
  return "?";
}

std::optional<Version> parseVersion(std::string_view text) {
  if (text == "master")
    return Version{9, 2};
  // MAJOR.MINOR[.PATCH][-suffix]
  int ma = 0, mi = 0;
  size_t i = 0;
  auto number = [&](int &out) {
    size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9' && i - start < 4)
      out = out * 10 + (text[i++] - '0');
    return i > start;
  };
  if (!number(ma) || i >= text.size() || text[i] != '.')
    return std::nullopt;
  ++i;
  if (!number(mi))
    return std::nullopt;
  if (i < text.size() && text[i] == '.') {
    ++i;
    int patch = 0;
    if (!number(patch))
      return std::nullopt;
  }
  if (i < text.size() && text[i] != '-')
    return std::nullopt;
  if (ma != 9 || mi > 2)
    return std::nullopt;
  return Version{ma, mi};
}

std::string knownVersionList() { return "9.0.0, 9.1.0, 9.2.0, master"; }

std::optional<Framework> parseFramework(std::string_view text) {
  std::string low;
  for (char c : text)
    low += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  for (Framework f : {Framework::PyTorch, Framework::TensorFlow, Framework::Onnx, Framework::Caffe})
    if (low == frameworkName(f))
      return f;
  return std::nullopt;
}

const char *frameworkName(Framework f) {
  switch (f) {
  case Framework::Unknown:
    return "unknown";
  case Framework::PyTorch:
    return "pytorch";
  case Framework::TensorFlow:
    return "tensorflow";
  case Framework::Onnx:
    return "onnx";
  case Framework::Caffe:
    return "caffe";
  }
  return "?";
}

std::string knownFrameworkList() { return "pytorch, tensorflow, onnx, caffe"; }

bool usesPyTorchTypes(Framework f) { return f == Framework::PyTorch || f == Framework::Onnx; }

const char *dataTypeName(DataType t) {
  switch (t) {
  case DataType::Int4:
    return "INT4";
  case DataType::Int8:
    return "INT8";
  case DataType::Int16:
    return "INT16";
  }
  return "?";
}

using vendors::isOneOf;

// AMCT for ONNX names layers by ONNX op type; the capacity tables are the PyTorch ones, so an
// op type is looked up as its PyTorch counterpart (amct.md §3: Conv, Gemm, MatMul, ConvTranspose,
// AveragePool; MatMul and Gemm are never channel-wise, like Linear).
std::string_view pytorchEquivalent(std::string_view type) {
  if (type == "Conv")
    return "Conv2d";
  if (type == "Gemm" || type == "MatMul")
    return "Linear";
  if (type == "ConvTranspose")
    return "ConvTranspose2d";
  if (type == "AveragePool")
    return "AvgPool2d";
  return type;
}

bool isPtqType(std::string_view type, Version v) {
  type = pytorchEquivalent(type);
  if (isOneOf(type, {"Conv2d", "Conv3d", "Linear", "ConvTranspose2d", "AvgPool2d"}))
    return true;
  return v.atLeast(9, 1) && isOneOf(type, {"Conv1d", "ConvTranspose1d", "GRU", "LSTM"});
}

bool isQatType(std::string_view type, Version v) {
  type = pytorchEquivalent(type);
  if (!v.atLeast(9, 1))
    return isOneOf(type, {"Conv2d", "Linear", "ConvTranspose2d"});
  return type != "AvgPool2d" && isPtqType(type, v);
}

bool isQuantizableType(std::string_view type, ConfigKind k, Version v) {
  switch (k) {
  case ConfigKind::PTQ:
    return isPtqType(type, v);
  case ConfigKind::QAT:
    return isQatType(type, v);
  case ConfigKind::KVCache:
    return type == "Linear";
  }
  return false;
}

bool isChannelWiseType(std::string_view type) {
  type = pytorchEquivalent(type);
  return isOneOf(
      type, {"Conv2d", "Conv3d", "ConvTranspose2d", "Conv1d", "ConvTranspose1d", "GRU", "LSTM"});
}

bool isInt16Type(std::string_view type, Version v) {
  type = pytorchEquivalent(type);
  if (isOneOf(type, {"Conv2d", "Linear", "ConvTranspose2d"}))
    return true;
  if (v.atLeast(9, 1) && isOneOf(type, {"Conv1d", "ConvTranspose1d"}))
    return true;
  return v.atLeast(9, 2) && isOneOf(type, {"GRU", "LSTM"});
}

bool isAdaType(std::string_view type) {
  type = pytorchEquivalent(type);
  return isOneOf(type, {"Conv2d", "ConvTranspose2d", "Linear"});
}
bool isSixSevenBitType(std::string_view type) {
  type = pytorchEquivalent(type);
  return type == "Conv2d";
}
bool isSymmetricOnlyType(std::string_view type) {
  type = pytorchEquivalent(type);
  return type == "Conv3d";
}
bool isDmqType(std::string_view type) {
  type = pytorchEquivalent(type);
  return !isOneOf(type, {"AvgPool2d", "LSTM", "GRU"});
}
bool isFuseType(std::string_view type) {
  type = pytorchEquivalent(type);
  return isOneOf(type, {"Conv1d", "Conv2d", "Conv3d"});
}
bool isFilterPruneType(std::string_view type) {
  type = pytorchEquivalent(type);
  return isOneOf(type, {"Conv2d", "Linear"});
}
bool isSelectivePruneType(std::string_view type) {
  type = pytorchEquivalent(type);
  return isOneOf(type, {"Conv2d", "Linear", "ConvTranspose2d"});
}

bool isGlobalParameterName(std::string_view name) {
  return isOneOf(name, {"version", "batch_num", "activation_offset", "do_fusion",
                        "fakequant_precision_mode", "skip_fusion_layers", "joint_quant"});
}

bool checkQatPair(DataType act, DataType weight, Version v, std::string &msg) {
  if (act == DataType::Int4 || (weight == DataType::Int4 && !v.atLeast(9, 2))) {
    msg = "Int4 quantization aware training is not supported.";
    return false;
  }
  bool ok = (act == DataType::Int8 && weight == DataType::Int8) ||
            (act == DataType::Int16 && weight == DataType::Int8) ||
            (act == DataType::Int8 && weight == DataType::Int4);
  if (ok)
    return true;
  msg = std::string(
            "Activation and weights data_type are not supported for now. Note, activation is ") +
        dataTypeName(act) + " and weight is " + dataTypeName(weight) + ".";
  return false;
}

bool checkPtqInt16(Version v, std::string &msg) {
  if (v.atLeast(9, 1))
    return true;
  msg = "Unknown enumeration value of \"INT16\" for field \"dst_type\"";
  return false;
}

bool checkInt16Type(std::string_view type, std::string_view name, Version v, std::string &msg) {
  if (isInt16Type(type, v))
    return true;
  msg = name.empty() ? "int16_quantizable not support for " + std::string(type) + " type"
                     : "int16_quantizable not support for " + std::string(name) + " layer";
  return false;
}

bool checkInt16Bias(std::string_view type, bool hasBias, std::string_view name, std::string &msg) {
  if (hasBias || pytorchEquivalent(type) != "Linear")
    return true;
  msg = "int16_quantizable not support for " + std::string(name) + " layer";
  return false;
}

bool checkChannelWise(ConfigKind k, std::string_view type, std::string_view name,
                      std::string &msg) {
  if (type.empty() || isChannelWiseType(type))
    return true;
  if (k == ConfigKind::QAT)
    msg = "' " + std::string(name.empty() ? type : name) + " layer can not be channewised'";
  else if (name.empty())
    msg = "channel_wise can only be False for " + std::string(type) + " type";
  else
    msg = "channel_wise can only be False for " + std::string(name) + " layer.";
  return false;
}

bool checkClip(std::optional<double> clipMax, std::optional<double> clipMin, std::string_view layer,
               std::string &msg) {
  if (!clipMax && !clipMin)
    return true;
  if (!clipMax || !clipMin) {
    msg = "clip_max and clip_min are both required.";
    return false;
  }
  if (!(*clipMax > 0)) {
    msg = "clip max should be larger than 0 for layer " + std::string(layer);
    return false;
  }
  if (!(*clipMin < 0)) {
    msg = "clip min should be less than 0 for layer " + std::string(layer);
    return false;
  }
  return true;
}

bool checkQuantBits(uint32_t bits, std::string_view type, std::string_view name, std::string &msg) {
  if (bits != 4 && bits != 6 && bits != 7 && bits != 8) {
    msg = "weight num_bits is not in [4, 6, 7, 8] in layer " + std::string(name);
    return false;
  }
  if ((bits == 6 || bits == 7) && !type.empty() && !isSixSevenBitType(type)) {
    msg = name.empty() ? "quant_bits " + std::to_string(bits) + " not support for " +
                             std::string(type) + " type"
                       : "quant_bits " + std::to_string(bits) + " not support for " +
                             std::string(name) + " layer";
    return false;
  }
  return true;
}

bool checkBatchNum(ConfigKind k, int64_t n, std::string &msg) {
  if (n > 0 && n <= 0xffffffffLL)
    return true;
  if (k == ConfigKind::QAT)
    msg = "batch_num(" + std::to_string(n) + ") should be greater than zero.";
  else if (k == ConfigKind::KVCache)
    msg = "batch_num(" + std::to_string(n) + ") should be greater than zero";
  else
    msg = "The batch_num must be greater than zero.";
  return false;
}

bool checkNumOfBins(int64_t bins, std::string_view layer, std::string &msg) {
  if (bins == 1024 || bins == 2048 || bins == 4096 || bins == 8192)
    return true;
  msg = "num_of_bins " + std::to_string(bins) + " must be in [1024, 2048, 4096, 8192] in layer " +
        std::string(layer);
  return false;
}

bool checkDmqStrength(double s, std::string_view layer, std::string &msg) {
  if (s >= 0.2 && s <= 0.8)
    return true;
  msg = "The dmq_balancer_param must be in range [0.2, 0.8] in layer " + std::string(layer);
  return false;
}

bool checkIfmrSearch(ConfigKind k, double start, double end, double step, std::string_view layer,
                     std::string &msg) {
  std::string in = " in layer " + std::string(layer);
  msg.clear();
  if (k == ConfigKind::KVCache) {
    if (!(start < end))
      msg = "Search range start must smaller than search range end";
    else if (!(step > 0))
      msg = "Search step must be greater than zero";
    return msg.empty();
  }
  if (!(start > 0))
    msg = "search_range[0] must be greater than zero" + in;
  else if (!(start < end))
    msg = "search_range[0] must be less than search_range[1]" + in;
  else if (!(step > 0))
    msg = "The search_step must be greater than zero";
  else if (step > end - start + 1e-6)
    msg = "The search_step must be less than or equal to (search_range[1] - search_range[0])" + in;
  return msg.empty();
}

bool checkMaxPercentile(double p, std::string_view layer, std::string &msg) {
  if (p > 0.5 && p <= 1.0)
    return true;
  msg = "The max_percentile must be greater than 0.5 and less than or equal to 1.0 in layer " +
        std::string(layer);
  return false;
}

bool checkAda(double betaStart, double betaEnd, double warmStart, double regParam,
              std::string_view layer, std::string &msg) {
  if (!(betaStart > betaEnd))
    msg =
        "beta_range beta_range_start must large than beta_range_end in layer " + std::string(layer);
  else if (!(warmStart > 0 && warmStart < 1))
    msg = "warm_start must be less than 1 and larger than 0";
  else if (!(regParam > 0 && regParam < 1))
    msg = "reg_param must be less than 1 and larger than 0";
  else
    return true;
  return false;
}

bool checkPruneRatio(double r, std::string_view layer, std::string &msg) {
  if (r > 0 && r < 1)
    return true;
  msg = "prune ration should be greater than 0 and less than 1 for layer " + std::string(layer);
  return false;
}

bool checkLayerName(ConfigKind k, std::string_view name, std::string &msg) {
  if (name.empty()) {
    msg = "AMCT layer names are never empty";
    return false;
  }
  if (name.find('\0') != std::string_view::npos) {
    msg = "a NUL byte cannot be part of a PyTorch module name";
    return false;
  }
  if (!support::utf8::isValid(name)) {
    msg = "the name is not valid UTF-8, and protobuf string fields must be";
    return false;
  }
  if (k == ConfigKind::PTQ && isGlobalParameterName(name)) {
    msg = std::string(name) + " is a global parameter, can not be a layer name";
    return false;
  }
  return true;
}

std::string pythonListRepr(const std::vector<std::string> &items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i)
      out += ", ";
    const std::string &s = items[i];
    // Python's repr: single quotes unless the text has a ' and no ".
    char q = (s.find('\'') != std::string::npos && s.find('"') == std::string::npos) ? '"' : '\'';
    out += q;
    for (unsigned char c : s) {
      if (c == '\\')
        out += "\\\\";
      else if (c == static_cast<unsigned char>(q))
        out += std::string("\\") + q;
      else if (c == '\n')
        out += "\\n";
      else if (c == '\r')
        out += "\\r";
      else if (c == '\t')
        out += "\\t";
      else if (c < 0x20 || c == 0x7f) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", c);
        out += buf;
      } else
        out += static_cast<char>(c);
    }
    out += q;
  }
  return out + "]";
}

std::vector<std::string> findDuplicates(const std::vector<std::string> &items) {
  std::set<std::string> seen, reported;
  std::vector<std::string> out;
  for (const std::string &s : items)
    if (!seen.insert(s).second && reported.insert(s).second)
      out.push_back(s);
  return out;
}

std::string repeatedItemsMessage(ConfigKind k, std::string_view field,
                                 const std::vector<std::string> &items) {
  bool qatOverride = k == ConfigKind::QAT &&
                     (field == "retrain_override_layers" || field == "override_layer_types");
  return "Please delete repeated items in " + std::string(field) + (qatOverride ? ",  " : ", ") +
         "repeated items are " + pythonListRepr(items) + " ";
}

} // namespace qspec::amct
