// Edit distance for "did you mean" suggestions (module names, keywords).
#pragma once

#include <cstddef>
#include <string_view>

namespace qspec {

// Levenshtein distance if it is at most `limit`, else limit + 1. Only the band of width
// 2 * limit + 1 around the diagonal can stay within the limit, so the work is
// O(length * limit), and it stops as soon as a whole row exceeds the limit.
size_t editDistanceAtMost(std::string_view a, std::string_view b, size_t limit);

} // namespace qspec
