// A compiled regular expression (ECMAScript syntax, std::regex), for the fixed patterns of the
// readers and checks and for the patterns a vendor file holds. <regex> is the costliest standard
// header to compile (seconds of CPU in every file that instantiates it), so Regex.cpp is the only
// file that includes it.
#ifndef QSPEC_IR_REGEX_H
#define QSPEC_IR_REGEX_H

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace qspec::ir {

class Regex {
public:
  // A pattern of the code: one that does not compile throws std::regex_error, a bug.
  explicit Regex(std::string_view pattern);
  // A pattern from input: nullopt and `error` (std::regex's message) when it does not compile.
  static std::optional<Regex> compile(std::string_view pattern, std::string &error);

  // The whole text matches.
  bool fullMatch(std::string_view text) const;
  // A match starts at the text's first character (Python's re.match).
  bool prefixMatch(std::string_view text) const;

  // One match of findAll: the text of each group (0: the whole match); "" for a group that did
  // not take part, which `matched` tells apart from an empty one.
  struct Match {
    std::vector<std::string> groups;
    std::vector<bool> matched;
  };
  // Every match in the text, left to right, none overlapping.
  std::vector<Match> findAll(std::string_view text) const;

private:
  struct Impl;
  explicit Regex(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

} // namespace qspec::ir

#endif
