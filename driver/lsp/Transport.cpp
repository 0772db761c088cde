#include "driver/lsp/Transport.h"

#include <istream>
#include <ostream>

namespace qspec::lsp {

namespace {
constexpr size_t kMaxMessageBytes = 64u << 20; // a .qspec is at most 16 MiB, JSON-escaped
}

bool readMessage(std::istream &in, std::string &body) {
  size_t length = 0;
  bool haveLength = false;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    if (line.empty()) {
      if (!haveLength)
        return false;
      break;
    }
    const std::string key = "Content-Length:";
    if (line.compare(0, key.size(), key) == 0) {
      size_t i = key.size();
      while (i < line.size() && line[i] == ' ')
        ++i;
      if (i == line.size())
        return false;
      length = 0;
      for (; i < line.size(); ++i) {
        if (line[i] < '0' || line[i] > '9' || length > kMaxMessageBytes)
          return false;
        length = length * 10 + static_cast<size_t>(line[i] - '0');
      }
      haveLength = length <= kMaxMessageBytes;
      if (!haveLength)
        return false;
    }
  }
  if (!haveLength)
    return false;
  body.assign(length, '\0');
  return length == 0 || static_cast<bool>(in.read(&body[0], static_cast<std::streamsize>(length)));
}

void writeMessage(std::ostream &out, const std::string &body) {
  out << "Content-Length: " << body.size() << "\r\n\r\n" << body;
  out.flush();
}

} // namespace qspec::lsp
