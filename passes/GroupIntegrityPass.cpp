// GroupIntegrityPass: no tier assignment may split a group.
//
// 1. For each group, take the tier of its first member as the reference.
// 2. The first member whose tier differs splits the group: report it with both modules, the
//    rule that decided each one's tier (notes at their own locations), where the group comes
//    from, and the fix — extend the change to the whole group (the group's members, or a
//    pattern covering them when there are many).
// 3. One diagnostic per group, so a split block of 300 experts is one error, not 300.
#include "passes/Pass.h"

namespace qspec::passes {
namespace {

class GroupIntegrityPass : public Pass {
public:
  const char *name() const override { return "group-integrity"; }

  bool run(PassContext &ctx) override {
    ir::Spec &spec = ctx.spec;
    if (!spec.resolution.done)
      return true;
    const auto &mods = spec.inventory.modules;
    const auto &res = spec.resolution;
    for (const ir::Group &g : res.groups) {
      uint32_t ref = g.members.front();
      ir::Tier refTier = res.modules[ref].tier.value;
      for (uint32_t m : g.members) {
        ir::Tier t = res.modules[m].tier.value;
        if (t == refTier)
          continue;
        // The odd one out is the member decided by the more specific rule (name > type > default).
        uint32_t odd =
            res.modules[m].tier.from.source >= res.modules[ref].tier.from.source ? m : ref;
        uint32_t other = odd == m ? ref : m;
        const ir::ResolvedModule &o = res.modules[odd], &r = res.modules[other];
        Diagnostic &d = ctx.diags.report(
            DiagID::err_group_split, o.tier.from.range().valid() ? o.tier.from.range() : g.range,
            {g.name, mods[odd].name, ir::tierName(o.tier.value), mods[other].name,
             ir::tierName(r.tier.value)});
        if (r.tier.from.range().valid())
          ctx.diags.note(d, DiagID::note_tier_decided_by, r.tier.from.range(),
                         {mods[other].name, ir::tierName(r.tier.value)});
        if (g.range.valid())
          ctx.diags.note(d, DiagID::note_group_declared, g.range);
        std::string members;
        size_t shown = 0;
        for (uint32_t x : g.members) {
          if (shown == 6) {
            members += ", ... (" + std::to_string(g.members.size()) + " modules)";
            break;
          }
          members += std::string(shown ? ", " : "") + "'" + mods[x].name + "'";
          ++shown;
        }
        ctx.diags.note(d, DiagID::note_extend_to_group, o.tier.from.range(), {members});
        break;
      }
    }
    // A split group does not make the target checks meaningless: let them run and report too.
    return true;
  }
};

} // namespace

std::unique_ptr<Pass> createGroupIntegrityPass() { return std::make_unique<GroupIntegrityPass>(); }

} // namespace qspec::passes
