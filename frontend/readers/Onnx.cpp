// ONNX inventories: the nodes of the model's main graph (name, op_type), in graph order; and the
// exported ONNX graph of a two-graph model block (nodes with inputs and exporter scopes).
#include "frontend/readers/ReaderSupport.h"

#include "qspec_onnx/onnx.pb.h" // generated from libonnx-dev's onnx.proto (frontend/CMakeLists.txt)
#include <google/protobuf/unknown_field_set.h>

#include <cerrno>
#include <climits>
#include <filesystem>

// ONNX's messages, generated as the package qspec_onnx (frontend/CMakeLists.txt says why).
namespace onnx = ::qspec_onnx;

namespace qspec::readers::detail {

namespace {

// Reads and parses `path` as an ONNX ModelProto with its checks (size, ir_version, graph).
// `file` is the path-only source entry that diagnostics point at.
bool loadModel(const std::string &path, onnx::ModelProto &model, FileID &file,
               DiagnosticEngine &diags, SourceRange requestedAt, const ReaderLimits &limits) {
  SourceManager &sm = diags.sourceManager();
  // The bounded-input layer: a regular file (a FIFO refused without waiting); the size is
  // checked below with the ONNX reader's own message before anything is read.
  bounded::BoundedFile in;
  bounded::ReadOptions any;
  any.maxBytes = UINT64_MAX;
  if (bounded::Problem p = in.open(path, any)) {
    diags.report(DiagID::err_cannot_open_file, requestedAt, {path, bounded::reason(p)});
    return false;
  }
  const uint64_t size = in.size();
  file = sm.addPathOnly(path);
  SourceRange fileOnly{file, {}, {}};
  auto bad = [&](const std::string &why) {
    diags.report(DiagID::err_onnx_malformed, fileOnly, {path, why});
    return false;
  };
  uint64_t limit = std::min<uint64_t>(limits.maxOnnxBytes, INT_MAX);
  if (size > limit)
    return bad("the file is " + std::to_string(size) + " bytes, over the limit of " +
               std::to_string(limit) + " bytes (keep weights as external data)");
  if (size == 0)
    return bad("the file is empty");
  std::string bytes;
  if (in.read(0, static_cast<size_t>(size), bytes) || bytes.size() != size)
    return bad("cannot read the file");
  if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    return bad("not a serialized ModelProto");
  if (model.ir_version() <= 0)
    return bad("no ir_version");
  if (!model.has_graph())
    return bad("no graph");
  return true;
}

std::string nodeName(const onnx::NodeProto &n, int i) {
  return n.name().empty() ? n.op_type() + "_" + std::to_string(i) : n.name();
}

// NodeProto.metadata_props (field 9, ONNX >= 1.16) is newer than Debian's libonnx 1.12, whose
// parser keeps it as an unknown field: each is a length-delimited StringStringEntryProto.
constexpr int kNodeMetadataPropsField = 9;

// The module scope the newer (dynamo) exporter records on a node, "" if none.
std::string metadataScope(const onnx::NodeProto &n) {
  std::string scopes, ns;
  const google::protobuf::UnknownFieldSet &unknown = n.GetReflection()->GetUnknownFields(n);
  for (int i = 0; i < unknown.field_count(); ++i) {
    const google::protobuf::UnknownField &f = unknown.field(i);
    onnx::StringStringEntryProto p;
    if (f.number() != kNodeMetadataPropsField ||
        f.type() != google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED ||
        !p.ParseFromString(f.length_delimited()))
      continue;
    if (p.key() == "pkg.torch.onnx.name_scopes")
      scopes = p.value();
    else if (p.key() == "namespace")
      ns = p.value();
  }
  if (!scopes.empty())
    return scopeFromNameScopes(scopes);
  return ns.empty() ? std::string() : scopeFromNamespace(ns);
}

} // namespace

bool readOnnx(const std::string &path, ir::Inventory &out, DiagnosticEngine &diags,
              SourceRange requestedAt, const ReaderLimits &limits) {
  out.format = "onnx";
  onnx::ModelProto model;
  FileID file;
  if (!loadModel(path, model, file, diags, requestedAt, limits))
    return false;
  SourceRange fileOnly{file, {}, {}};
  auto bad = [&](const std::string &why) {
    diags.report(DiagID::err_onnx_malformed, fileOnly, {path, why});
    return false;
  };
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
    if (!builder.add(nodeName(n, i), n.op_type(), 0, 0))
      return false;
    // Gemm's C and Conv/ConvTranspose's B (the third input, when given) are the bias.
    ir::Module &added = out.modules.back();
    added.biasKnown = true;
    added.hasBias =
        (n.op_type() == "Gemm" || n.op_type() == "Conv" || n.op_type() == "ConvTranspose") &&
        n.input_size() >= 3 && !n.input(2).empty();
  }
  return builder.finish();
}

bool readOnnxGraph(const std::string &path, ir::OnnxGraph &out, DiagnosticEngine &diags,
                   SourceRange requestedAt, const ReaderLimits &limits) {
  onnx::ModelProto model;
  FileID file;
  if (!loadModel(path, model, file, diags, requestedAt, limits))
    return false;
  const onnx::GraphProto &g = model.graph();
  out.nodes.clear();
  out.nodes.reserve(static_cast<size_t>(g.node_size()));
  for (int i = 0; i < g.node_size(); ++i) {
    const onnx::NodeProto &n = g.node(i);
    if (n.op_type().empty()) {
      diags.report(DiagID::err_onnx_malformed, SourceRange{file, {}, {}},
                   {path, "node " + std::to_string(i) + " has no op_type"});
      return false;
    }
    if (n.op_type() == "Constant")
      continue;
    ir::GraphNode node;
    node.name = nodeName(n, i);
    node.unnamed = n.name().empty();
    node.opType = n.op_type();
    node.inputs.assign(n.input().begin(), n.input().end());
    node.scope = metadataScope(n);
    if (node.scope.empty() && !node.unnamed)
      node.scope = scopeFromNodeName(node.name);
    out.nodes.push_back(std::move(node));
  }
  return true;
}

} // namespace qspec::readers::detail
