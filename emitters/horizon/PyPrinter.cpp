#include "emitters/horizon/PyPrinter.h"

#include <cassert>

namespace qspec::horizon {

void PyPrinter::write(std::string_view text) {
  while (!text.empty()) {
    size_t nl = text.find('\n');
    size_t n = nl == std::string_view::npos ? text.size() : nl + 1;
    if (atLineStart_ && text[0] != '\n')
      out_.append(indent_, ' ');
    out_.append(text.substr(0, n));
    atLineStart_ = nl != std::string_view::npos;
    text.remove_prefix(n);
  }
}

void PyPrinter::print(std::string_view tmpl, const Vars &vars) {
  while (!tmpl.empty()) {
    size_t at = tmpl.find('$');
    write(tmpl.substr(0, at));
    if (at == std::string_view::npos)
      return;
    size_t end = tmpl.find('$', at + 1);
    assert(end != std::string_view::npos && "unterminated $var$");
    std::string_view name = tmpl.substr(at + 1, end - at - 1);
    if (name.empty()) {
      write("$");
    } else {
      auto it = vars.find(name);
      assert(it != vars.end() && "unknown $var$");
      if (it != vars.end())
        write(it->second);
    }
    tmpl.remove_prefix(end + 1);
  }
}

} // namespace qspec::horizon
