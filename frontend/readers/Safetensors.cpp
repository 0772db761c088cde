// Hugging Face inventories: `model.safetensors.index.json` (names only; types from names) and a
// `.safetensors` file (its JSON header only; types and a 2-D weight's input features from tensor
// shapes).
#include "frontend/readers/ReaderSupport.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <filesystem>

namespace qspec::readers::detail {

using ojson = nlohmann::ordered_json;

static const char kWeight[] = ".weight";
static const char kBias[] = ".bias";

// Collects `NAME` of a `NAME.bias` tensor (into `biases`, to mark once every module is read).
static void noteBias(std::string_view tensor, std::vector<std::string> &biases) {
  if (endsWith(tensor, kBias) && tensor.size() > sizeof(kBias) - 1)
    biases.emplace_back(tensor.substr(0, tensor.size() - (sizeof(kBias) - 1)));
}

// Every module's bias is known from the tensor names: it has one when `NAME.bias` is listed.
static bool markBiases(bool finished, ir::Inventory &out, const std::vector<std::string> &biases) {
  if (!finished)
    return false;
  for (ir::Module &m : out.modules)
    m.biasKnown = true;
  for (const std::string &b : biases) {
    auto it = out.index.find(b);
    if (it != out.index.end())
      out.modules[it->second].hasBias = true;
  }
  return true;
}

bool readSafetensorsIndex(FileID file, ir::Inventory &out, DiagnosticEngine &diags,
                          const ReaderLimits &limits) {
  SourceManager &sm = diags.sourceManager();
  const std::string &text = sm.text(file);
  out.format = "safetensors-index";
  auto at = [&](uint32_t o, uint32_t len = 1) { return sm.range(file, o, o + len); };
  uint32_t off = 0;
  std::string why;
  if (!checkJson(text, off, why)) {
    diags.report(DiagID::err_inventory_malformed, at(off), {why});
    return false;
  }
  uint32_t rootStart = locateJson(text, {}).value_or(0);
  std::vector<JsonMember> top = jsonObjectMembers(text, rootStart);
  const JsonMember *wmMember = nullptr;
  for (const JsonMember &m : top)
    if (m.key == "weight_map")
      wmMember = &m;
  if (!wmMember) {
    diags.report(
        DiagID::err_inventory_malformed, at(rootStart),
        {"a Hugging Face index is an object with a \"weight_map\" of tensor name -> shard file"});
    return false;
  }
  uint32_t wmKey = wmMember->keyOffset;
  if (wmMember->valueText.empty() || wmMember->valueText.front() != '{') {
    diags.report(DiagID::err_inventory_malformed, at(wmKey, 12),
                 {"\"weight_map\" must be an object"});
    return false;
  }
  InventoryBuilder builder(out, diags, file, limits);
  std::vector<JsonMember> tensors = jsonObjectMembers(text, wmMember->valueOffset);
  builder.reserve(tensors.size());
  std::vector<std::string> biases;
  for (const JsonMember &m : tensors) {
    uint32_t keyOff = m.keyOffset;
    const std::string &tensor = m.key;
    if (m.valueText.empty() || m.valueText.front() != '"') {
      if (!builder.finish()) // a duplicate earlier in the file is the first error
        return false;
      diags.report(DiagID::err_inventory_malformed,
                   at(keyOff, static_cast<uint32_t>(tensor.size() + 2)),
                   {"the shard of '" + tensor + "' must be a file name string"});
      return false;
    }
    noteBias(tensor, biases);
    if (!endsWith(tensor, kWeight) || tensor.size() == sizeof(kWeight) - 1)
      continue; // biases, scales, offsets, buffers: not modules of their own
    std::string_view name =
        std::string_view(tensor).substr(0, tensor.size() - (sizeof(kWeight) - 1));
    if (!builder.add(name, typeFromName(name), keyOff + 1, static_cast<uint32_t>(tensor.size())))
      return false;
  }
  return markBiases(builder.finish(), out, biases);
}

static std::string typeFromShape(const std::string &name, size_t rank) {
  switch (rank) {
  case 1:
    return "RMSNorm";
  case 2:
    return typeFromName(name) == "Embedding" ? "Embedding" : "Linear";
  case 3:
    return namesExperts(name) ? kFusedExperts : "Conv1d";
  case 4:
    return "Conv2d";
  case 5:
    return "Conv3d";
  default:
    return "";
  }
}

bool readSafetensorsFile(const std::string &path, ir::Inventory &out, DiagnosticEngine &diags,
                         SourceRange requestedAt, const ReaderLimits &limits) {
  SourceManager &sm = diags.sourceManager();
  out.format = "safetensors";
  // The bounded-input layer: a regular file (a FIFO refused without waiting); the weights may
  // be any size, only the header is read, and its length is capped below.
  bounded::BoundedFile in;
  bounded::ReadOptions any;
  any.maxBytes = UINT64_MAX;
  if (bounded::Problem p = in.open(path, any)) {
    diags.report(DiagID::err_cannot_open_file, requestedAt, {path, bounded::reason(p)});
    return false;
  }
  const uint64_t size = in.size();
  FileID whole = sm.addPathOnly(path);
  SourceRange fileOnly{whole, {}, {}};
  auto bad = [&](const std::string &why) {
    diags.report(DiagID::err_safetensors_header, fileOnly, {why});
    return false;
  };
  if (size < 8)
    return bad("the file is " + std::to_string(size) +
               " bytes, too short for the 8-byte header length");
  std::string lenBytes;
  if (in.read(0, 8, lenBytes) || lenBytes.size() != 8)
    return bad("cannot read the header length");
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i)
    n = (n << 8) | static_cast<unsigned char>(lenBytes[i]);
  if (n == 0)
    return bad("the header length is 0");
  if (n > limits.maxSafetensorsHeader)
    return bad("the header length " + std::to_string(n) + " is over the limit of " +
               std::to_string(limits.maxSafetensorsHeader) + " bytes");
  if (n > size - 8)
    return bad("the header length " + std::to_string(n) + " is larger than the rest of the file (" +
               std::to_string(size - 8) + " bytes)");
  std::string header;
  if (in.read(8, static_cast<size_t>(n), header) || header.size() != n)
    return bad("cannot read the " + std::to_string(n) + "-byte header");
  // Diagnostics inside the header quote the JSON text: line 1 column 1 is its first byte.
  FileID file = sm.addFile(path, header);
  QuoteNothingFrom unquoted(sm, file);
  auto at = [&](uint32_t o, uint32_t len = 1) { return sm.range(file, o, o + len); };
  if (header[0] != '{') {
    diags.report(DiagID::err_safetensors_header, at(0), {"the JSON header must start with '{'"});
    return false;
  }
  uint32_t off = 0;
  std::string why;
  if (!checkJson(header, off, why)) {
    diags.report(DiagID::err_safetensors_header, at(off), {why});
    return false;
  }
  InventoryBuilder builder(out, diags, file, limits);
  std::vector<std::string> biases;
  for (const JsonMember &member : jsonObjectMembers(header, 0)) {
    uint32_t keyOff = member.keyOffset;
    const std::string &tensor = member.key;
    uint32_t keyLen = static_cast<uint32_t>(tensor.size() + 2);
    if (tensor == "__metadata__")
      continue;
    const ojson v = ojson::parse(member.valueText, nullptr, false);
    auto badTensor = [&](const std::string &what) {
      if (!builder.finish()) // a duplicate earlier in the header is the first error
        return false;
      diags.report(DiagID::err_safetensors_header, at(keyOff, keyLen),
                   {"tensor '" + tensor + "': " + what});
      return false;
    };
    if (!v.is_object())
      return badTensor("expected an object with \"dtype\", \"shape\" and \"data_offsets\"");
    if (!v.contains("dtype") || !v["dtype"].is_string())
      return badTensor("\"dtype\" must be a string");
    if (!v.contains("shape") || !v["shape"].is_array())
      return badTensor("\"shape\" must be an array");
    for (const ojson &d : v["shape"])
      if (!d.is_number_unsigned())
        return badTensor("\"shape\" must hold non-negative integers");
    // The data is never read, so offsets past the end of the file are fine (a header-only
    // copy of a huge file is a valid inventory), but they must make sense.
    if (!v.contains("data_offsets") || !v["data_offsets"].is_array() ||
        v["data_offsets"].size() != 2 || !v["data_offsets"][0].is_number_unsigned() ||
        !v["data_offsets"][1].is_number_unsigned() ||
        v["data_offsets"][0].get<uint64_t>() > v["data_offsets"][1].get<uint64_t>())
      return badTensor("\"data_offsets\" must be two integers [begin, end] with begin <= end");
    noteBias(tensor, biases);
    if (!endsWith(tensor, kWeight) || tensor.size() == sizeof(kWeight) - 1)
      continue;
    std::string name = tensor.substr(0, tensor.size() - (sizeof(kWeight) - 1));
    std::string type = typeFromShape(name, v["shape"].size());
    if (!builder.add(name, type, keyOff + 1, static_cast<uint32_t>(tensor.size())))
      return false;
    // A 2-D weight is [out_features, in_features] (torch.nn.Linear's layout): keep the input
    // features for the checks that depend on them (group_size); a dimension past 32 bits stays
    // unknown.
    const ojson &shape = v["shape"];
    if (shape.size() == 2 && shape[1].get<uint64_t>() <= UINT32_MAX)
      out.modules.back().inFeatures = static_cast<uint32_t>(shape[1].get<uint64_t>());
  }
  return markBiases(builder.finish(), out, biases);
}

} // namespace qspec::readers::detail
