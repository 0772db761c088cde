// A small `$var$` substitution printer for generated Python (after protoc's io::Printer):
// templates are fixed text; variables are either identifiers the emitter chose or literals
// produced by horizon::pythonStringLiteral / pythonFloat. Indentation is applied at line starts.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace qspec::horizon {

class PyPrinter {
public:
  using Vars = std::map<std::string, std::string, std::less<>>;
  // Appends `tmpl` with every `$name$` replaced by vars[name]; `$$` is a literal '$'. A name
  // missing from `vars` is a programming error (asserted).
  void print(std::string_view tmpl, const Vars &vars = {});
  // Appends `text` as it is (no `$var$`), indented at line starts like print.
  void write(std::string_view text);
  void indent() { indent_ += 4; }
  void outdent() { indent_ = indent_ >= 4 ? indent_ - 4 : 0; }
  const std::string &str() const { return out_; }

private:
  std::string out_;
  size_t indent_ = 0;
  bool atLineStart_ = true;
};

} // namespace qspec::horizon
