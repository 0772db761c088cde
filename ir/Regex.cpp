#include "ir/Regex.h"

#include <regex>

namespace qspec::ir {

struct Regex::Impl {
  std::regex re;
};

Regex::Regex(std::string_view pattern)
    : impl_(std::make_shared<const Impl>(Impl{std::regex(pattern.begin(), pattern.end())})) {}

std::optional<Regex> Regex::compile(std::string_view pattern, std::string &error) {
  try {
    return Regex(pattern);
  } catch (const std::regex_error &e) {
    error = e.what();
    return std::nullopt;
  }
}

bool Regex::fullMatch(std::string_view text) const {
  return std::regex_match(text.begin(), text.end(), impl_->re);
}

bool Regex::prefixMatch(std::string_view text) const {
  return std::regex_search(text.begin(), text.end(), impl_->re,
                           std::regex_constants::match_continuous);
}

std::vector<Regex::Match> Regex::findAll(std::string_view text) const {
  std::vector<Match> out;
  using It = std::regex_iterator<std::string_view::const_iterator>;
  for (It it(text.begin(), text.end(), impl_->re), end; it != end; ++it) {
    Match m;
    for (const auto &group : *it) {
      m.groups.push_back(group.str());
      m.matched.push_back(group.matched);
    }
    out.push_back(std::move(m));
  }
  return out;
}

} // namespace qspec::ir
