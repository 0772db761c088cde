// msModelSlim's older practice schema, `apiversion: modelslim_v0` (reference 1.3, 2): no
// processor list; `spec.calib_cfg` holds the keyword arguments of the llm_ptq `QuantConfig`
// calibrator (one recipe for every quantized nn.Linear, `disable_names` the exact names left
// float) and `spec.anti_cfg` those of `AntiOutlierConfig`. Each spec key is read with dict.get
// (unknown spec keys are ignored); QuantConfig and AntiOutlierConfig take named parameters only.
//
// The reading (readMsModelSlimV0): every nn.Linear of the inventory is quantized with the one
// recipe of calib_cfg, or the config `spec.calib_params.mix_cfg` picks for it (float; w8a8, w8a16,
// w8a8_dynamic: the recipe with those bits, which Calibrator derives for w_bit 8 only), except
// the names of `disable_names` (exact equality, no patterns) and, while `disable_last_linear` is
// true (its default), the last Linear of the model, which are rolled back to float first.
#pragma once

#include "vendors/Reading.h"
#include "vendors/msmodelslim/MsModelSlimRules.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace qspec::msmodelslim {

// spec.calib_cfg as QuantConfig takes it, with QuantConfig's defaults for what is left out.
struct V0Calib {
  int wBit = 8, aBit = 8;
  int actMethod = 1;              // 1 minmax, 2 histogram, 3 automatic mix of the two
  std::string wMethod = "MinMax"; // MinMax, GPTQ, HQQ
  bool mmTensor = true;           // true: per-tensor weights; false: per-channel
  bool wSym = true, isDynamic = false, pdmix = false, disableLastLinear = true;
  bool coSparse = false, isLowbit = false;     // the sparse scheme (W8A8S)
  std::vector<const YamlValue *> disableNames; // scalar entries
  const YamlValue *at = nullptr;               // calib_cfg itself (null: absent)
};

// The calib_cfg keys the reading uses; QuantConfig has more (use_kvcache_quant, fraction,
// group_size...).
const std::vector<std::string> &v0CalibKeys();
// Reads spec.calib_cfg of a parsed v0 practice (a missing or non-mapping calib_cfg: defaults).
V0Calib readV0Calib(const YamlValue &root);
// The same, of a calib_cfg value (null or not a mapping: defaults).
V0Calib readCalibCfg(const YamlValue *calibCfg);

// The recipe calib_cfg gives every quantized Linear, in qspec's words: the tier (int8 or int4),
// the weight role (dtype, scope, symmetric, method) and the activation role (float for a_bit 16;
// int8 per_tensor asymmetric static, per_token symmetric with is_dynamic, pd_mix asymmetric with
// pdmix). The sparse scheme as QuantConfig applies it: co_sparse (unless is_lowbit, which turns
// it off) replaces w_bit and a_bit by 4 and 8; co_sparse, or is_lowbit with w_bit 4, is W8A8S,
// read as int4 weights and int8 per_tensor activations. False, with the reason in `why`, for a
// recipe qspec has no words for (w_bit 2...) or that QuantConfig refuses or reads otherwise (w4a8
// without the sparse scheme, is_lowbit outside w4a8, the sparse scheme with is_dynamic, pdmix or
// a w_method other than MinMax, w_sym false with a_bit 8).
bool v0Recipe(const V0Calib &c, ir::Tier &tier, vendors::RoleReading &weight,
              vendors::RoleReading &act, std::string &why);

// One entry of spec.calib_params.mix_cfg (Calibrator's per-Linear config choice): a name or
// fnmatch pattern and the config it picks ("float", "w8a8", "w8a16", "w8a8_dynamic",
// "w4a8_dynamic"), in file order.
struct V0Mix {
  std::string pattern, type;
  const YamlValue *at = nullptr; // the entry's value
};
std::vector<V0Mix> readV0MixCfg(const YamlValue &root);
// Python's fnmatch.fnmatchcase: `*`, `?`, `[seq]`, `[!seq]`; everything else literal (no braces,
// no escapes).
bool fnmatchCase(std::string_view name, std::string_view pattern);
// LayerConfigManager.build_layer_config's choice for a Linear named `name`: an entry named exactly
// like it, else the first entry whose pattern matches; null for none (the default config).
const V0Mix *v0MixFor(const std::vector<V0Mix> &mix, std::string_view name);
// The QuantConfig Calibrator gives the Linears a mix_cfg entry of config `type` selects:
// LayerConfigManager.convert_to_w8a8 / convert_to_w816 / convert_to_w8a8_dynamic of calib_cfg
// (w_bit 8, a_bit 8, 16 and 8, is_dynamic false, false and true, every other argument kept), which
// Calibrator derives only when QuantConfig's w_bit is 8 (co_sparse's replacement applied) or the
// recipe is w4a4. False, with the reason in `why`, for float, w4a8_dynamic, an unknown config and
// a calib_cfg Calibrator derives nothing from (it then stops at the entry).
bool v0MixCalib(const V0Calib &c, std::string_view type, V0Calib &derived, std::string &why);

// The keyword arguments of spec.calib_cfg and spec.anti_cfg (mappings) that QuantConfig or
// AntiOutlierConfig refuses when the v0 plugin constructs them, with msModelSlim's message, each
// reported at its line and column: an unknown keyword, a value of the wrong Python type, a
// number out of its range (act_method, fraction, sigma_factor, pr where QuantConfig checks it),
// an anti_method outside m1..m6, w_sym false with a_bit 8.
void checkV0Arguments(const YamlValue &spec,
                      const std::function<void(uint32_t, uint32_t, std::string)> &report);

// anti_cfg.anti_method for a suppression processor qspec writes (`flex_smooth_quant` -> m6,
// `iter_smooth` -> m4, `smooth_quant` -> m1), "" when v0 has none; the processor of an
// anti_method ("" for m2, m3 and m5); and the sentence that lists them, for diagnostics.
std::string v0AntiMethod(std::string_view processor);
std::string v0AntiProcessor(std::string_view antiMethod);
std::string v0AntiMethodList();

} // namespace qspec::msmodelslim

namespace qspec::vendors {

// msModelSlim's reading of a parsed v0 practice on the spec's inventory (nothing without one).
void readMsModelSlimV0(const ir::Spec &spec, const msmodelslim::PracticeDoc &doc,
                       VendorReading &out);

} // namespace qspec::vendors
