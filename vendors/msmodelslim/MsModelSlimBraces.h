// msModelSlim's brace semantics for include/exclude entries (reference 5): wcmatch's fnmatch
// with BRACE expands `{a,b}` lists and `{0..9}` / `{a..e}` / `{0..10..2}` ranges into separate
// patterns and refuses an entry that expands to more than 1,000 (PatternLimitException, which
// ends msModelSlim's LinearQuantProcessor). A brace without a comma or range (`{i}`, `{x}`,
// `{}`) is literal text there; qspec reads `{name}` as a variable, so a written entry is turned
// into its vendor meaning before ir::Pattern (which matches braces without expanding) sees it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace qspec::msmodelslim {

// wcmatch's default pattern limit.
constexpr uint64_t kPatternLimit = 1000;

// How many patterns wcmatch expands `entry` into (saturating at UINT64_MAX).
uint64_t braceExpansions(std::string_view entry);
// `entry` as an ir::Pattern text with msModelSlim's meaning: braces wcmatch leaves literal
// (`{i}`) are escaped so they match themselves.
std::string vendorPatternText(std::string_view entry);
// The first `{name}` in `entry` that wcmatch reads as literal text ("" if none).
std::string literalBraceVariable(std::string_view entry);
// Entries that together select what `entry` selects, each expanding to at most `limit`
// patterns: the first brace group with more than one alternative is cut into consecutive
// pieces (sub-ranges, runs of list items), recursively. `entry` itself when it is within.
std::vector<std::string> splitBraces(std::string_view entry, uint64_t limit = kPatternLimit);
// Entries that together select what `entry` selects, each of at most `maxChars` characters where
// brace lists allow: the longest list is cut into runs of consecutive items, recursively (a long
// compressed `model.layers.{2,3,{9..15},...}.self_attn.*` becomes two or more such entries).
// Entries without a list to cut stay as they are.
std::vector<std::string> splitToLength(std::string_view entry, size_t maxChars);

} // namespace qspec::msmodelslim
