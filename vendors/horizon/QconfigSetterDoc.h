// The document model of a generated QconfigSetter module (what qcc's horizon-py emitter writes):
// a small parser of that Python subset -- `MARCH = "..."`, `set_march(MARCH)` and the
// `QconfigSetter(reference_qconfig=get_qconfig(...), templates=[...], ...)` call with its
// template calls (ModuleNameTemplate, ConvDtypeTemplate, MatmulDtypeTemplate,
// SensitivityTemplate). Expressions are names (dotted), strings (Python escapes decoded),
// numbers, True/False/None, lists, dicts and calls with keyword arguments; every value keeps its
// 1-based line and column. Anything else is a parse error, never guessed at.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace qspec::horizon {

struct PyValue {
  enum Kind { Name, String, Number, Bool, None, List, Dict, Call } kind = None;
  std::string text;           // Name: dotted name; String: decoded; Number: as written; Bool
  std::vector<PyValue> items; // List items; Call: positional arguments
  std::vector<std::pair<PyValue, PyValue>> entries;    // Dict, in file order
  std::vector<std::pair<std::string, PyValue>> kwargs; // Call keyword arguments
  uint32_t line = 0, column = 0;
  const PyValue *kwarg(std::string_view name) const;
  // Dict: the value of the entry whose key is the string `key` (the last one).
  const PyValue *dictGet(std::string_view key) const;
};

struct QconfigSetterDoc {
  std::string march;     // the MARCH string passed to set_march; "" if set_march is not called
  bool marchSet = false; // set_march(MARCH) is called
  // Where set_march's argument is (1-based; 0 if set_march is not called). A string, MARCH
  // (bound to a string or a March constant) or a March constant such as March.NASH_M gives
  // `march`; any other argument is kept as written, so the check names it.
  uint32_t marchLine = 0, marchColumn = 0;
  PyValue setter; // the QconfigSetter(...) call
  // The templates= list's calls, in order (empty if there is none).
  const std::vector<PyValue> &templates() const;
};

// Parses `text`; on failure returns false with a message and the 1-based line and column.
bool parseQconfigSetter(std::string_view text, QconfigSetterDoc &doc, std::string &error,
                        uint32_t &line, uint32_t &column);

} // namespace qspec::horizon
