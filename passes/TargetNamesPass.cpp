// TargetNamesPass: every target is given names in the name space its vendor matches.
//
// 1. Ask each target's TargetInfo which names its vendor matches (TargetInfo::names): PyTorch
//    module names and classes, or ONNX node names and op types. Only the ONNX side is checked
//    here: module names are what every inventory kind can give.
// 2. An ONNX-side target (HMCT, AMCT for ONNX) with a module inventory (a safetensors index or
//    header, a manifest of module classes) and no exported graph in the model block would get
//    names its vendor does not have: an error at the target, with a fix-it adding
//    `onnx "model.onnx"` after the model block's inventory.
// 3. With an ONNX inventory, or two graphs, the names are the graph's and type rules reach its
//    nodes (the select pass and the emitters); nothing more to check.
// 4. Without an inventory the rules are written as they stand: a type selector (op_config,
//    override_layer_types) must be an ONNX op type, else an error naming the rule; a literal name
//    that is an ONNX op type (`protect "Cos"`) is a node name no exporter gives, so a warning.
#include "passes/Pass.h"

#include "ir/OnnxNames.h"
#include "ir/TargetInfo.h"

namespace qspec::passes {
namespace {

class TargetNamesPass : public Pass {
public:
  const char *name() const override { return "target-names"; }

  bool run(PassContext &ctx) override {
    const ir::Spec &spec = ctx.spec;
    std::optional<bool> onnxInventory; // asked once, for the first ONNX-side target
    bool ok = true;
    for (const ir::Target &t : spec.targets) {
      if (ir::targetNames(t) != ir::TargetInfo::Names::OnnxGraph)
        continue;
      std::string label = t.kind + (t.variant.empty() ? "" : " " + t.variant);
      if (!spec.inventory.present()) {
        ok = checkRulesAsWritten(ctx, label) && ok;
        continue;
      }
      if (spec.onnx.present())
        continue;
      if (!onnxInventory)
        onnxInventory = ir::inventoryNamesOnnxNodes(spec.inventory);
      if (*onnxInventory)
        continue;
      Diagnostic &d = ctx.diags.report(DiagID::err_target_needs_onnx_graph, t.range,
                                       {label, spec.inventory.path, moduleKind(spec.inventory)});
      addOnnxFixIt(spec, d);
      ok = false;
    }
    return ok;
  }

private:
  // What makes the inventory a module one, in the words of the message.
  static std::string moduleKind(const ir::Inventory &inv) {
    if (inv.format.rfind("safetensors", 0) == 0)
      return "tensor names of a safetensors " +
             std::string(inv.format == "safetensors" ? "header" : "index");
    for (const ir::Module &m : inv.modules)
      if (!ir::isOnnxOpType(m.type))
        return m.type.empty() ? "'" + m.name + "' has no type"
                              : "'" + m.name + "' is a '" + m.type + "', not an ONNX op type";
    return "no entries";
  }

  // `onnx "model.onnx"` on the line after the model block's inventory (none when the inventory
  // came from the command line).
  static void addOnnxFixIt(const ir::Spec &spec, Diagnostic &d) {
    for (const ir::Option &o : spec.modelOptions) {
      if (o.key != "inventory" || !o.range.valid())
        continue;
      FixIt f;
      f.range = o.range;
      f.range.begin = f.range.end;
      f.text = "\n  onnx \"model.onnx\"";
      d.fixits.push_back(std::move(f));
      return;
    }
  }

  // Without an inventory: type selectors are op_config / override_layer_types keys as written.
  static bool checkRulesAsWritten(PassContext &ctx, const std::string &label) {
    const ir::Spec &spec = ctx.spec;
    bool ok = true;
    auto check = [&](const ir::Selector &s) {
      if (s.kind == ir::Selector::Type) {
        if (ir::isOnnxOpType(s.text))
          return;
        ctx.diags.report(DiagID::err_target_type_not_op_type, s.range, {label, s.text});
        ok = false;
        return;
      }
      std::optional<std::string> name = ir::literalName(s);
      if (name && ir::isOnnxOpType(*name))
        ctx.diags.report(DiagID::warn_target_name_is_op_type, s.range, {*name, label});
    };
    for (const ir::Protect &p : spec.protects)
      check(p.selector);
    for (const ir::Override &o : spec.overrides)
      for (const ir::Selector &s : o.selectors)
        check(s);
    for (const ir::Selector &s : spec.tune.excludes)
      check(s);
    for (const ir::TuningRaise &r : spec.tune.raises)
      for (const ir::Selector &s : r.selectors)
        check(s);
    return ok;
  }
};

} // namespace

std::unique_ptr<Pass> createTargetNamesPass() { return std::make_unique<TargetNamesPass>(); }

} // namespace qspec::passes
