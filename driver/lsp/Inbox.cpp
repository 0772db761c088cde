#include "driver/lsp/Inbox.h"

#include "driver/lsp/Transport.h"
#include "ir/BoundedInput.h"

#include <chrono>
#include <istream>
#include <vector>

namespace qspec::lsp {

using json = nlohmann::json;

namespace {

// One body, parsed. The depth is checked before the library builds a tree: 4 MiB of `[` would
// take it seconds and hundreds of MB.
Incoming parseBody(const std::string &body) {
  Incoming m;
  if (bounded::nestingPastLimit(body, bounded::Syntax::Json) != std::string::npos) {
    m.kind = Incoming::Malformed;
    m.error = "parse error: arrays and objects nested deeper than " +
              std::to_string(bounded::kMaxNesting) + " levels";
    return m;
  }
  m.msg = json::parse(body, nullptr, false);
  if (m.msg.is_discarded() || !m.msg.is_object()) {
    m.kind = Incoming::Malformed;
    m.error = "parse error";
    m.msg = json();
  }
  return m;
}

// Messages handed over at once: what has already arrived is read before anything is handed over,
// so a request and the `$/cancelRequest` written right after it are seen together.
constexpr size_t kMaxBatch = 64;

} // namespace

// Untied first: a read through a tied stream flushes the output stream (std::cin is tied to
// std::cout), which the reader thread must never touch while the server writes answers.
Inbox::Inbox(std::istream &in, int fd)
    : st_(std::make_shared<State>()), reader_((in.tie(nullptr), read), std::ref(in), fd, st_),
      detachable_(fd >= 0) {}

Inbox::~Inbox() {
  bool ended;
  {
    std::lock_guard<std::mutex> lock(st_->mutex);
    ended = st_->ended;
  }
  if (ended || !detachable_)
    reader_.join();
  else
    reader_.detach(); // it holds only the shared state and the process's standard input
}

void Inbox::read(std::istream &in, int fd, std::shared_ptr<State> st) {
  std::string body;
  std::vector<Incoming> batch;
  bool end = false;
  while (!end) {
    size_t length = 0;
    ReadStatus rs = readMessage(in, body, length);
    if (rs == ReadStatus::End) {
      end = true;
    } else if (rs == ReadStatus::TooLarge) {
      Incoming m;
      m.kind = Incoming::TooLarge;
      m.length = length;
      batch.push_back(std::move(m));
    } else {
      batch.push_back(parseBody(body));
    }
    if (!end && batch.size() < kMaxBatch && inputReady(in, fd, 0))
      continue;
    std::lock_guard<std::mutex> lock(st->mutex);
    for (Incoming &m : batch)
      st->queue.push_back(std::move(m));
    batch.clear();
    st->ended = end;
    st->ready.notify_all();
  }
}

Inbox::Wait Inbox::pop(Incoming &out, int timeoutMs) {
  std::unique_lock<std::mutex> lock(st_->mutex);
  auto has = [&] { return !st_->queue.empty() || st_->ended; };
  if (timeoutMs < 0)
    st_->ready.wait(lock, has);
  else if (!st_->ready.wait_for(lock, std::chrono::milliseconds(timeoutMs), has))
    return Wait::Timeout;
  if (st_->queue.empty())
    return Wait::End;
  out = std::move(st_->queue.front());
  st_->queue.pop_front();
  return Wait::Got;
}

bool Inbox::any(const std::function<bool(const json &)> &pred) const {
  std::lock_guard<std::mutex> lock(st_->mutex);
  for (const Incoming &m : st_->queue)
    if (m.kind == Incoming::Message && pred(m.msg))
      return true;
  return false;
}

} // namespace qspec::lsp
