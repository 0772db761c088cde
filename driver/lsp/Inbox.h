// qspec-lsp's incoming messages, read ahead on a thread of their own so that a check in progress
// can see what has arrived since it started: a newer version of its document (the check is
// abandoned), a `$/cancelRequest` for the request it serves (answered with RequestCancelled).
#pragma once

#include <nlohmann/json.hpp>

#include <condition_variable>
#include <deque>
#include <functional>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace qspec::lsp {

struct Incoming {
  enum Kind {
    Message,   // `msg` is a JSON object
    TooLarge,  // a body over kMaxMessageBytes was skipped; `length` is its size
    Malformed, // not a JSON object, or nested too deep; `error` says why
  } kind = Message;
  nlohmann::json msg;
  size_t length = 0;
  std::string error;
};

class Inbox {
public:
  // Starts reading `in` (whose descriptor is `fd`, -1 when it has none: a string stream).
  Inbox(std::istream &in, int fd);
  Inbox(const Inbox &) = delete;
  Inbox &operator=(const Inbox &) = delete;
  // Joins the reader when the input has ended or is a string stream; a reader still blocked on
  // a real descriptor (the client sent `exit` without closing it) is left to the process's end.
  ~Inbox();

  enum class Wait { Got, Timeout, End };
  // The oldest message. Waits at most `timeoutMs` (< 0: until one comes); End once the input
  // ended and every message was taken.
  Wait pop(Incoming &out, int timeoutMs);
  // Whether a message not yet taken satisfies `pred`.
  bool any(const std::function<bool(const nlohmann::json &)> &pred) const;

private:
  struct State {
    mutable std::mutex mutex;
    std::condition_variable ready;
    std::deque<Incoming> queue;
    bool ended = false;
  };
  static void read(std::istream &in, int fd, std::shared_ptr<State> st);

  std::shared_ptr<State> st_;
  std::thread reader_;
  bool detachable_;
};

} // namespace qspec::lsp
