// The vendor-file sides of `qcc diff`: a vendor file (msModelSlim practice, AMCT .cfg, HMCT
// quant_config, Horizon QconfigSetter) read through its vendor's reading (vendors/Reading.h) on a
// spec's inventory, and a spec seen through the reading of the file it emits, so that a spec and
// a vendor file, or two vendor files of one kind, are compared module by module.
#pragma once

#include "driver/diff/Compare.h"
#include "ir/Diagnostics.h"

#include <string>

namespace qspec::driver::diff {

// Whether `path` names a spec (`.qspec`) rather than a vendor file.
bool isSpecPath(const std::string &path);

// The target kind of the vendor file `path` with text `text` (msmodelslim, amct, hmct, horizon),
// detected as qlint and `qcc import` detect it; "" when it is none of them.
std::string vendorKind(const std::string &path, const std::string &text);

// The spec text a vendor file of `kind` is read on when no spec is given: the target with the
// fewest settings it needs (the inventory comes from --model).
std::string minimalSpecText(const std::string &kind);

// Side `side` (spec, sm and label set) as its target of `kind` reads: the file it emits for that
// target, read through the vendor's reading into `reading`, rules from the spec. False after an
// error (reported).
bool specThroughReading(Side &side, const std::string &kind, vendors::VendorReading &reading,
                        DiagnosticEngine &diags);

// Side `side` (spec, sm set: the spec that gives the inventory and the target) as the vendor file
// `path` of `kind` (bytes `bytes`) reads, rules at the file's entries. False after an error.
bool vendorFileSide(Side &side, const std::string &path, const std::string &kind,
                    const std::string &bytes, vendors::VendorReading &reading,
                    DiagnosticEngine &diags);

} // namespace qspec::driver::diff
