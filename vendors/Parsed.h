// The emitter's parsed document, handed to the read-back of the same bytes. An emitter that parses
// the file it wrote (AMCT's round trip, the HMCT and Horizon recipe checks) remembers the document
// on this thread; the vendor's reader (emit::emitTargets runs it next, on the same thread) takes
// it instead of parsing the same bytes a second time. One slot per thread for every document type:
// a later remember replaces it, a take empties it (hit or miss), other bytes, another document
// type or another tag miss it (a full byte compare), forgetParsed empties it (emitTargets, after
// each target, so a document the read-back did not take is not held).
#pragma once

#include <any>
#include <string>
#include <string_view>
#include <utility>

namespace qspec::vendors {

namespace detail {
struct ParsedSlot {
  std::string text;
  int tag = 0;
  std::any doc;
};
inline ParsedSlot &parsedSlot() {
  thread_local ParsedSlot slot;
  return slot;
}
} // namespace detail

// `tag` tells apart documents of one type parsed differently (AMCT: the message kind).
template <typename Doc> void rememberParsed(std::string_view text, int tag, Doc doc) {
  detail::ParsedSlot &s = detail::parsedSlot();
  s.text.assign(text.data(), text.size());
  s.tag = tag;
  s.doc = std::move(doc);
}

template <typename Doc> bool takeParsed(std::string_view text, int tag, Doc &doc) {
  detail::ParsedSlot slot = std::move(detail::parsedSlot());
  detail::parsedSlot() = detail::ParsedSlot{};
  Doc *kept = std::any_cast<Doc>(&slot.doc);
  if (!kept || slot.tag != tag || slot.text != text)
    return false;
  doc = std::move(*kept);
  return true;
}

inline void forgetParsed() { detail::parsedSlot() = detail::ParsedSlot{}; }

} // namespace qspec::vendors
