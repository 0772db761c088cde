// The project configuration file `.qlint.yaml`, found by walking up from each linted file, and
// how it combines with the command line into the rules and severities for one file.
//
//   select: [spec, amct]              # rule IDs, categories or ID prefixes; default: ALL
//   ignore: [spec-group-unused]
//   severity: {spec-override-shadowed: error, hmct-lowercase-op-type: off}
//   werror: false                     # every warning becomes an error
//   amct-hardware: Ascend950PR        # for amct-sparsity-unsupported-soc
//   amct-framework: pytorch           # pytorch | tensorflow | onnx | caffe (--amct-framework)
//   inventory: model/model.safetensors.index.json   # the model of the vendor files (--inventory)
//   per-path:                         # globs relative to the config's folder, `*` crosses '/'
//     - path: "legacy/*"
//       ignore: [spec]
//       inventory: legacy/model.onnx  # the vendor files under legacy/ are for this model
//       severity: {amct-duplicate-skip: error}
//   exclude: ["legacy/*", "vendor"]   # not linted in directory walks (globs as per-path; a glob
//                                     # matching a folder excludes what is under it)
//
// Command line beats the file: --select replaces `select`, --ignore adds to `ignore`.
#pragma once

#include "lint/Lint.h"

#include <string>
#include <vector>

namespace qspec::lint {

struct EffectiveRules {
  std::vector<bool> enabled;      // by RuleID
  std::vector<Severity> severity; // by RuleID: configured (default unless .qlint.yaml says)
  std::vector<bool> configured;   // severity was set by the config
  std::vector<bool> promote;      // -Werror / werror: warnings of this rule become errors
  std::string amctHardware;
  std::string amctFramework; // normalized (amct::frameworkName), "" if not said
  std::string configPath;    // "" if none
  // The model vendor files are checked against: --inventory, else --onnx, else the config's
  // `inventory` (a matching per-path entry's, else the top level's); "" if none.
  std::string vendorInventory;
  std::string root; // --root, else the config's folder when it says `confine: true`
};

// Computes the rules for `path`. Returns false (with `error`) when a config file is invalid.
bool effectiveRules(const std::string &path, const Options &opts, EffectiveRules &out,
                    std::string &error);

// Does the .qlint.yaml that governs `path` exclude it (its `exclude` globs)? An invalid config
// excludes nothing (linting the file then reports the config's error).
bool isExcluded(const std::string &path);

} // namespace qspec::lint
