// ONNX inventories: the nodes of the model's main graph (name, op_type), in graph order.
#include "frontend/readers/ReaderSupport.h"

#include <onnx/onnx_pb.h> // defines ONNX_API, then includes onnx-ml.pb.h (ONNX_ML=1)

#include <cerrno>
#include <climits>
#include <filesystem>
#include <fstream>

namespace qspec::readers::detail {

bool readOnnx(const std::string &path, ir::Inventory &out, DiagnosticEngine &diags, SourceRange requestedAt,
              const ReaderLimits &limits) {
  SourceManager &sm = diags.sourceManager();
  out.format = "onnx";
  std::error_code ec;
  uint64_t size = std::filesystem::file_size(path, ec);
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (ec || !in) {
    diags.report(DiagID::err_cannot_open_file, requestedAt, {path, ec ? ec.message() : openFailureReason()});
    return false;
  }
  FileID file = sm.addPathOnly(path);
  SourceRange fileOnly{file, {}, {}};
  auto bad = [&](const std::string &why) {
    diags.report(DiagID::err_onnx_malformed, fileOnly, {path, why});
    return false;
  };
  uint64_t limit = std::min<uint64_t>(limits.maxOnnxBytes, INT_MAX);
  if (size > limit)
    return bad("the file is " + std::to_string(size) + " bytes, over the limit of " + std::to_string(limit) +
               " bytes (keep weights as external data)");
  if (size == 0)
    return bad("the file is empty");
  std::string bytes(static_cast<size_t>(size), '\0');
  if (!in.read(&bytes[0], static_cast<std::streamsize>(size)))
    return bad("cannot read the file");
  onnx::ModelProto model;
  if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    return bad("not a serialized ModelProto");
  bytes.clear();
  bytes.shrink_to_fit();
  if (model.ir_version() <= 0)
    return bad("no ir_version");
  if (!model.has_graph())
    return bad("no graph");
  InventoryBuilder builder(out, diags, file, limits);
  const onnx::GraphProto &g = model.graph();
  for (int i = 0; i < g.node_size(); ++i) {
    const onnx::NodeProto &n = g.node(i);
    if (n.op_type().empty()) {
      if (!builder.finish()) // a duplicate in an earlier node is the first error
        return false;
      return bad("node " + std::to_string(i) + " has no op_type");
    }
    // A Constant node computes nothing and no vendor quantizes it: HMCT folds it into an
    // initializer of its optimized model, so a name such a node gets here would match nothing.
    if (n.op_type() == "Constant")
      continue;
    std::string name = n.name().empty() ? n.op_type() + "_" + std::to_string(i) : n.name();
    if (!builder.add(name, n.op_type(), 0, 0))
      return false;
    // Gemm's C and Conv/ConvTranspose's B (the third input, when given) are the bias.
    ir::Module &added = out.modules.back();
    added.biasKnown = true;
    added.hasBias = (n.op_type() == "Gemm" || n.op_type() == "Conv" || n.op_type() == "ConvTranspose") &&
                    n.input_size() >= 3 && !n.input(2).empty();
  }
  return builder.finish();
}

} // namespace qspec::readers::detail
