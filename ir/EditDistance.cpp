#include "ir/EditDistance.h"

#include <algorithm>
#include <vector>

namespace qspec {

size_t editDistanceAtMost(std::string_view a, std::string_view b, size_t limit) {
  size_t over = limit + 1;
  if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) > limit)
    return over;
  std::vector<size_t> prev(b.size() + 1, over), cur(b.size() + 1, over);
  for (size_t j = 0; j <= std::min(b.size(), limit); ++j)
    prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t lo = i > limit ? i - limit : 1, hi = std::min(b.size(), i + limit);
    std::fill(cur.begin(), cur.end(), over);
    cur[0] = i <= limit ? i : over;
    size_t rowMin = cur[0];
    for (size_t j = lo; j <= hi; ++j) {
      size_t v =
          std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      cur[j] = std::min(v, over);
      rowMin = std::min(rowMin, cur[j]);
    }
    if (rowMin > limit)
      return over;
    std::swap(prev, cur);
  }
  return std::min(prev[b.size()], over);
}

} // namespace qspec
