#include "driver/lsp/Transport.h"

#include <istream>
#include <ostream>
#include <poll.h>

namespace qspec::lsp {

namespace {

// Parses the digits of a Content-Length value; false if it is not a number or is absurdly long.
bool parseLength(const std::string &line, size_t i, size_t &length) {
  while (i < line.size() && line[i] == ' ')
    ++i;
  if (i == line.size() || line.size() - i > 18)
    return false;
  length = 0;
  for (; i < line.size(); ++i) {
    if (line[i] < '0' || line[i] > '9')
      return false;
    length = length * 10 + static_cast<size_t>(line[i] - '0');
  }
  return true;
}

// One header line (without the newline), at most 4096 bytes: no header is longer, and a stream
// that sends more without a newline is not speaking LSP. False at the end or past the cap.
bool readHeaderLine(std::istream &in, std::string &line) {
  line.clear();
  std::streambuf *buf = in.rdbuf();
  while (true) {
    int c = buf->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      return false;
    }
    if (c == '\n')
      return true;
    if (line.size() >= 4096)
      return false;
    line += static_cast<char>(c);
  }
}

} // namespace

ReadStatus readMessage(std::istream &in, std::string &body, size_t &length, size_t maxBytes) {
  length = 0;
  bool haveLength = false, blank = false;
  std::string line;
  while (readHeaderLine(in, line)) {
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    if (line.empty()) {
      if (!haveLength)
        return ReadStatus::End;
      blank = true;
      break;
    }
    const std::string key = "Content-Length:";
    if (line.compare(0, key.size(), key) == 0) {
      if (!parseLength(line, key.size(), length))
        return ReadStatus::End;
      haveLength = true;
    }
  }
  if (!blank)
    return ReadStatus::End;
  if (length > maxBytes) {
    body.clear();
    in.ignore(static_cast<std::streamsize>(length));
    return in.gcount() == static_cast<std::streamsize>(length) ? ReadStatus::TooLarge
                                                               : ReadStatus::End;
  }
  body.assign(length, '\0');
  if (length == 0 || in.read(&body[0], static_cast<std::streamsize>(length)))
    return ReadStatus::Message;
  return ReadStatus::End;
}

bool inputReady(std::istream &in, int fd, int timeoutMs) {
  if (in.rdbuf()->in_avail() > 0)
    return true;
  if (fd < 0)
    return false;
  struct pollfd p = {fd, POLLIN, 0};
  return ::poll(&p, 1, timeoutMs) > 0;
}

void writeMessage(std::ostream &out, const std::string &body) {
  out << "Content-Length: " << body.size() << "\r\n\r\n" << body;
  out.flush();
}

} // namespace qspec::lsp
