#include "BenchNames.h"

#include <random>

namespace qspec::bench {

namespace {
void add(ir::Inventory &inv, std::string name, const char *type) {
  inv.modules.push_back({std::move(name), type, -1, 0});
}
} // namespace

ir::Inventory deepseekV3Inventory() {
  ir::Inventory inv;
  inv.path = "deepseek-v3 (in memory)";
  inv.format = "manifest";
  add(inv, "model.embed_tokens", "Embedding");
  static const char *const kMlp[] = {"gate_proj", "up_proj", "down_proj"};
  for (int n = 0; n < 61; ++n) {
    std::string p = "model.layers." + std::to_string(n);
    add(inv, p + ".input_layernorm", "RMSNorm");
    for (const char *a : {"q_a_proj", "q_a_layernorm", "q_b_proj", "kv_a_proj_with_mqa",
                          "kv_a_layernorm", "kv_b_proj", "o_proj"})
      add(inv, p + ".self_attn." + a,
          std::string(a).find("norm") != std::string::npos ? "RMSNorm" : "Linear");
    add(inv, p + ".post_attention_layernorm", "RMSNorm");
    if (n < 3) {
      for (const char *m : kMlp)
        add(inv, p + ".mlp." + m, "Linear");
      continue;
    }
    add(inv, p + ".mlp.gate", "MoEGate");
    for (const char *m : kMlp)
      add(inv, p + ".mlp.shared_experts." + m, "Linear");
    for (int e = 0; e < 256; ++e)
      for (const char *m : kMlp)
        add(inv, p + ".mlp.experts." + std::to_string(e) + "." + m, "Linear");
  }
  add(inv, "model.norm", "RMSNorm");
  add(inv, "lm_head", "Linear");
  inv.rebuildIndex();
  return inv;
}

ir::Inventory stressInventory(size_t modules) {
  ir::Inventory inv;
  inv.path = "stress (in memory)";
  inv.format = "manifest";
  for (int n = 0; inv.modules.size() < modules; ++n) {
    std::string p = "model.layers." + std::to_string(n);
    std::vector<std::string> names;
    for (const char *a : {"q_proj", "k_proj", "v_proj", "o_proj"})
      names.push_back(p + ".self_attn." + a);
    names.push_back(p + ".mlp.gate");
    for (int e = 0; e < 1024; ++e)
      for (const char *m : {"gate_proj", "up_proj", "down_proj"})
        names.push_back(p + ".mlp.experts." + std::to_string(e) + "." + m);
    for (std::string &s : names) {
      if (inv.modules.size() == modules)
        break;
      add(inv, std::move(s), "Linear");
    }
  }
  inv.rebuildIndex();
  return inv;
}

std::vector<std::string> deepseekPatterns(size_t count) {
  std::mt19937 rng(42);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  static const char *const kMlp[] = {"gate_proj", "up_proj", "down_proj"};
  static const char *const kAttn[] = {"q_a_proj", "q_b_proj", "kv_a_proj_with_mqa", "kv_b_proj",
                                      "o_proj"};
  std::vector<std::string> out = {"lm_head", "model.embed_tokens", "model.layers.*.mlp.gate",
                                  "model.layers.{0..2}.mlp.down_proj"};
  for (size_t k = 0; out.size() < count; ++k) {
    int layer = pick(0, 60), moe = pick(3, 60), e = pick(0, 239);
    std::string L = std::to_string(layer), M = std::to_string(moe), E = std::to_string(e);
    switch (k % 10) {
    case 0:
      out.push_back("model.layers.{" + L + ".." + std::to_string(layer + 3) + "}.self_attn.*");
      break;
    case 1:
      out.push_back("model.layers." + M + ".mlp.experts.{" + E + ".." + std::to_string(e + 9) +
                    "}.down_proj");
      break;
    case 2:
      out.push_back("model.layers." + M + ".mlp.experts." + E + "." + kMlp[k % 3]);
      break;
    case 3:
      out.push_back("*.experts." + E + ".up_proj");
      break;
    case 4:
      out.push_back("model.layers.{" + M + "," + std::to_string(moe / 2 + 3) +
                    "}.mlp.shared_experts.*");
      break;
    case 5:
      out.push_back("model.layers." + std::to_string(pick(1, 5)) + "?.self_attn.o_proj");
      break;
    case 6:
      out.push_back("model.layers.*.mlp.experts." + std::to_string(pick(1, 9)) + "[0-4].down_proj");
      break;
    case 7:
      out.push_back("model.layers." + L + ".self_attn." + kAttn[k % 5]);
      break;
    case 8:
      out.push_back("model.layers." + M + ".mlp.experts.*");
      break;
    default:
      out.push_back(std::string("*.") + kMlp[k % 3]);
      break;
    }
  }
  out.resize(count);
  return out;
}

} // namespace qspec::bench
