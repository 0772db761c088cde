#include "emitters/horizon/PyPrinter.h"

#include <cassert>

namespace qspec::horizon {

void PyPrinter::put(char c) {
  if (atLineStart_ && c != '\n')
    out_.append(indent_, ' ');
  atLineStart_ = c == '\n';
  out_ += c;
}

void PyPrinter::print(std::string_view tmpl, const Vars &vars) {
  for (size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] != '$') {
      put(tmpl[i]);
      continue;
    }
    size_t end = tmpl.find('$', i + 1);
    assert(end != std::string_view::npos && "unterminated $var$");
    std::string_view name = tmpl.substr(i + 1, end - i - 1);
    if (name.empty()) {
      put('$');
    } else {
      auto it = vars.find(name);
      assert(it != vars.end() && "unknown $var$");
      if (it != vars.end())
        for (char c : it->second)
          put(c);
    }
    i = end;
  }
}

} // namespace qspec::horizon
