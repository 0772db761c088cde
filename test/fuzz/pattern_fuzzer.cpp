// Fuzz target: ir/Pattern. The first line of the input is a pattern, every further line a module
// name to match against it. Checks two properties besides memory safety: a compiled pattern's
// literal view agrees with matching, and escapeGlob(name) compiles to a pattern matching exactly
// `name`.
#include "Targets.h"

#include "ir/Pattern.h"

#include <cstdlib>
#include <string>
#include <vector>

using namespace qspec;

void fuzz::runPattern(const uint8_t *data, size_t size, const char *) {
  std::string_view in(reinterpret_cast<const char *>(data), size);
  size_t nl = in.find('\n');
  std::string_view text = in.substr(0, nl);
  std::vector<std::string_view> names;
  while (nl != std::string_view::npos) {
    size_t next = in.find('\n', nl + 1);
    names.push_back(in.substr(nl + 1, next == std::string_view::npos ? next : next - nl - 1));
    nl = next;
  }

  (void)hasGlobSyntax(text);
  std::string error;
  std::optional<Pattern> p = Pattern::compile(text, error);
  if (p) {
    std::vector<std::string_view> caps;
    for (std::string_view n : names) {
      bool m = p->matches(n, &caps);
      if (p->isLiteral() && m != (n == p->literal()))
        std::abort(); // a literal pattern must match exactly its literal
      if (m && n.substr(0, p->literalPrefix().size()) != p->literalPrefix())
        std::abort(); // every match starts with the literal prefix
      if (m && caps.size() != p->variables().size())
        std::abort();
    }
  } else if (error.empty()) {
    std::abort(); // a failed compile must say why
  }

  for (std::string_view n : names) {
    if (n.empty() || n.find('\0') != std::string_view::npos || n.size() > 2000)
      continue; // patterns reject NUL and very long text by design (docs/limits.md)
    std::string escaped = escapeGlob(n);
    std::string err;
    std::optional<Pattern> lit = Pattern::compile(escaped, err);
    if (!lit || !lit->matches(n))
      std::abort(); // escaping must give a pattern that matches the name itself
  }
}
