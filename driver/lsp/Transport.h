// The Language Server Protocol's base layer: messages framed by a `Content-Length` header.
#pragma once

#include <iosfwd>
#include <string>

namespace qspec::lsp {

// Reads one message body. False at the end of the input or on a header without a valid
// Content-Length (the stream is then unusable).
bool readMessage(std::istream &in, std::string &body);
// Writes one message and flushes.
void writeMessage(std::ostream &out, const std::string &body);

} // namespace qspec::lsp
