// Stable printers of a resolved spec: `qcc --emit=ir` (JSON) and `qcc --explain NAME` (text).
#pragma once

#include "ir/IR.h"

#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

namespace qspec::ir {

// One JSON document: the spec's typed settings, then every module with its tier and settings
// and, for each, the rule that decided it ("file:line:col" and the rule kind). Keys in fixed
// order, modules in inventory order.
// Written in chunks of about 1 MB as it is produced.
void printIRJSON(const Spec &spec, const SourceManager &sm, std::ostream &os);
// The same chunks given to `sink` in order; once it returns false the rest is not given to it.
// Returns what the last call returned (true if every chunk was taken).
bool printIRJSON(const Spec &spec, const SourceManager &sm,
                 const std::function<bool(std::string_view)> &sink);
// The same bytes appended to `out` (one copy of the document in memory, for an atomic write).
void printIRJSON(const Spec &spec, const SourceManager &sm, std::string &out);

// For module `index`: every setting and the source location that decided it.
void printExplain(const Spec &spec, uint32_t index, const SourceManager &sm, std::ostream &os);

// For `name`, the tied output head (tiedHeadName), which the inventory does not list: that it
// stays float in every target and its name in each (with two graphs, its ONNX nodes:
// graphHead). False, printing nothing, when `name` is not the tied head.
bool printExplainTiedHead(const Spec &spec, std::string_view name, std::ostream &os);

// "file:line:col" of a range, or "<built-in>".
std::string locationString(const SourceRange &r, const SourceManager &sm);

} // namespace qspec::ir
