// The Language Server Protocol's base layer: messages framed by a `Content-Length` header.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>

namespace qspec::lsp {

// A message body is at most this big: a `.qspec` is at most 16 MiB (ParseLimits::maxFileBytes),
// and its JSON string plus the envelope of a didOpen fit in 20 MiB unless the text is mostly
// quotes and backslashes. A bigger message is skipped unread (its bytes are discarded in small
// pieces, never held) and answered with an error, so one message can neither take the memory of
// its size nor stop the server.
constexpr size_t kMaxMessageBytes = size_t(20) << 20;

enum class ReadStatus {
  Message,  // `body` holds the next message
  End,      // the end of the input, or a header without a valid Content-Length (unusable)
  TooLarge, // a message over kMaxMessageBytes was skipped; `length` is its size
};

ReadStatus readMessage(std::istream &in, std::string &body, size_t &length,
                       size_t maxBytes = kMaxMessageBytes);
// True when a whole message may already be waiting: bytes are buffered in `in`, or `fd` (>= 0)
// becomes readable within `timeoutMs` milliseconds. With `fd` < 0 only the buffer counts.
bool inputReady(std::istream &in, int fd, int timeoutMs);
// Writes one message and flushes.
void writeMessage(std::ostream &out, const std::string &body);

} // namespace qspec::lsp
