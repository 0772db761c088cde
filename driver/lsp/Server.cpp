// The JSON side of qspec-lsp: one handler per method, each converting between LSP's positions
// (0-based lines, UTF-16 columns) and qspec's byte offsets, then calling Workspace / Features.
#include "driver/lsp/Server.h"

#include "driver/lsp/Features.h"
#include "driver/lsp/Inbox.h"
#include "driver/lsp/Transport.h"
#include "frontend/Format.h"
#include "ir/BoundedInput.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <map>
#include <unistd.h>
#include <vector>

namespace qspec::lsp {

using json = nlohmann::json;

// ---- URIs and positions -------------------------------------------------------------------------

std::string uriToPath(const std::string &uri) {
  const std::string scheme = "file://";
  if (uri.compare(0, scheme.size(), scheme) != 0)
    return "";
  std::string out;
  for (size_t i = scheme.size(); i < uri.size(); ++i) {
    auto hex = [](char c) {
      return isdigit(static_cast<unsigned char>(c)) ? c - '0' : (tolower(c) - 'a' + 10) & 15;
    };
    if (uri[i] == '%' && i + 2 < uri.size() && isxdigit(static_cast<unsigned char>(uri[i + 1])) &&
        isxdigit(static_cast<unsigned char>(uri[i + 2]))) {
      out += static_cast<char>(hex(uri[i + 1]) * 16 + hex(uri[i + 2]));
      i += 2;
    } else {
      out += uri[i];
    }
  }
  return out;
}

std::string pathToUri(const std::string &path) {
  std::string out = "file://";
  const char *h = "0123456789ABCDEF";
  for (unsigned char c : path) {
    if (isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~')
      out += static_cast<char>(c);
    else
      out += {'%', h[c >> 4], h[c & 15]};
  }
  return out;
}

namespace {

// UTF-16 code units of the UTF-8 text `s`.
uint32_t utf16Length(std::string_view s) {
  uint32_t n = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if ((c & 0xC0) != 0x80)
      n += c >= 0xF0 ? 2 : 1;
  }
  return n;
}

// The byte offset of LSP position (line, character) in `text` (clamped to the line's end).
uint32_t offsetOf(const std::string &text, int64_t line, int64_t character) {
  size_t pos = 0;
  for (int64_t l = 0; l < line && pos < text.size(); ++l) {
    size_t nl = text.find('\n', pos);
    pos = nl == std::string::npos ? text.size() : nl + 1;
  }
  int64_t units = 0;
  while (pos < text.size() && text[pos] != '\n' && units < character) {
    unsigned char c = static_cast<unsigned char>(text[pos]);
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
    units += len == 4 ? 2 : 1;
    pos += len;
  }
  return static_cast<uint32_t>(std::min(pos, text.size()));
}

json positionOf(const SourceManager &sm, FileID f, const SourceLoc &loc) {
  if (loc.line == 0)
    return {{"line", 0}, {"character", 0}};
  uint32_t ch = loc.col - 1;
  if (sm.hasText(f)) {
    std::string_view line = sm.line(f, loc.line);
    ch = utf16Length(line.substr(0, std::min<size_t>(loc.col - 1, line.size())));
  }
  return {{"line", loc.line - 1}, {"character", ch}};
}

json rangeOf(const SourceManager &sm, const SourceRange &r) {
  return {{"start", positionOf(sm, r.file, r.begin)}, {"end", positionOf(sm, r.file, r.end)}};
}

// The range of a whole text (for a full-document edit).
json wholeRange(const std::string &text) {
  int64_t line = 0;
  size_t lastStart = 0;
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') {
      ++line;
      lastStart = i + 1;
    }
  return {{"start", {{"line", 0}, {"character", 0}}},
          {"end",
           {{"line", line}, {"character", utf16Length(std::string_view(text).substr(lastStart))}}}};
}

int lspSeverity(Severity s) {
  return s == Severity::Error || s == Severity::Fatal ? 1 : s == Severity::Warning ? 2 : 3;
}

json diagnosticOf(const SourceManager &sm, FileID main, const Diagnostic &d) {
  json j = {{"severity", lspSeverity(d.severity)}, {"source", "qspec"}, {"message", d.message}};
  if (!d.code.empty())
    j["code"] = d.code;
  if (d.range.file == main) {
    j["range"] = rangeOf(sm, d.range);
  } else {
    // In an included file or without a place: shown at the top, naming where it is.
    j["range"] = wholeRange("");
    if (d.range.valid())
      j["message"] =
          sm.path(d.range.file) + ":" + std::to_string(d.range.begin.line) + ": " + d.message;
  }
  json related = json::array();
  for (const Diagnostic &n : d.notes)
    if (n.range.valid())
      related.push_back(
          {{"location",
            {{"uri", pathToUri(sm.path(n.range.file))}, {"range", rangeOf(sm, n.range)}}},
           {"message", n.message}});
  if (!related.empty())
    j["relatedInformation"] = related;
  return j;
}

class Server {
public:
  Server(std::ostream &out, const ServerOptions &opts, const Inbox &inbox)
      : out_(out), ws_(opts), inbox_(inbox) {
    ws_.stop = [this] { return stopNow(); };
  }

  // Answers what the inbox could not read as a message (null: nothing left to handle).
  json unwrap(Incoming &m) {
    if (m.kind == Incoming::TooLarge)
      respondError(nullptr, -32600,
                   "message of " + std::to_string(m.length) + " bytes is over the limit of " +
                       std::to_string(kMaxMessageBytes) + " bytes; it was skipped");
    else if (m.kind == Incoming::Malformed)
      respondError(nullptr, -32700, m.error);
    return m.kind == Incoming::Message ? std::move(m.msg) : json();
  }

  static std::string methodOf(const json &msg) {
    return msg.is_object() && msg.contains("method") && msg["method"].is_string()
               ? msg["method"].get<std::string>()
               : std::string();
  }

  // Does `msg` make a check of document `uri` stale: a newer version of it, or its closing?
  static bool edits(const json &msg, const std::string &uri) {
    std::string method = methodOf(msg);
    if ((method != "textDocument/didChange" && method != "textDocument/didClose") ||
        !msg.contains("params") || !msg["params"].is_object())
      return false;
    const json &params = msg["params"];
    if (!params.contains("textDocument") || !params["textDocument"].is_object())
      return false;
    const json &u = params["textDocument"].contains("uri") ? params["textDocument"]["uri"] : json();
    return u.is_string() && u.get<std::string>() == uri;
  }
  // Is `msg` a $/cancelRequest for request `id`?
  static bool cancels(const json &msg, const json &id) {
    return methodOf(msg) == "$/cancelRequest" && msg.contains("params") &&
           msg["params"].is_object() && msg["params"].contains("id") && msg["params"]["id"] == id;
  }

  bool hasPending() const { return !pending_.empty(); }

  // Checks and publishes the oldest document with an edit not yet checked.
  void checkPending() {
    std::string uri = pending_.front();
    pending_.erase(pending_.begin());
    if (Document *d = ws_.find(uri))
      publish(*d, false);
  }
  // Checks and publishes every pending edit now (before a request reads the results, at the
  // end of the input).
  void flushPending() {
    while (!pending_.empty())
      checkPending();
  }

  // Handles one message from the inbox; false once `exit` arrived.
  bool handle(Incoming &in) {
    json msg = unwrap(in);
    if (msg.is_null())
      return true;
    // A request, a save or a close sees the latest text checked.
    if (msg.contains("id") || methodOf(msg) != "textDocument/didChange")
      flushPending();
    json id = msg.contains("id") ? msg["id"] : json();
    // A field of the wrong type makes nlohmann throw; it becomes an error answer, never a crash.
    try {
      std::string method = msg.value("method", "");
      json params =
          msg.contains("params") && msg["params"].is_object() ? msg["params"] : json::object();
      if (!msg.contains("id")) {
        notification(method, params);
        return !exited_;
      }
      if (shutdown_) {
        respondError(id, -32600, "the server is shutting down");
        return true;
      }
      request(id, method, params);
    } catch (const json::exception &e) {
      if (!id.is_null())
        respondError(id, -32602, std::string("invalid params: ") + e.what());
    }
    return true;
  }

  int exitCode() const { return shutdown_ ? 0 : 1; }

private:
  void send(const json &j) {
    writeMessage(out_, j.dump(-1, ' ', false, json::error_handler_t::replace));
  }
  void respond(const json &id, const json &result) {
    send({{"jsonrpc", "2.0"}, {"id", id}, {"result", result}});
  }
  void respondError(const json &id, int code, const std::string &message) {
    send({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
  }
  void notify(const std::string &method, const json &params) {
    send({{"jsonrpc", "2.0"}, {"method", method}, {"params", params}});
  }

  Document *docOf(const json &params) {
    if (!params.contains("textDocument") || !params["textDocument"].is_object())
      return nullptr;
    return ws_.find(params["textDocument"].value("uri", ""));
  }
  uint32_t offsetIn(const Document &d, const json &params) {
    const json &p = params.value("position", json::object());
    return offsetOf(d.text, p.value("line", 0), p.value("character", 0));
  }

  void notification(const std::string &method, const json &params) {
    if (method == "exit") {
      exited_ = true;
    } else if (method == "textDocument/didOpen") {
      const json &td = params.value("textDocument", json::object());
      std::string uri = td.value("uri", "");
      std::string path = uriToPath(uri);
      if (path.empty())
        return;
      publish(ws_.open(uri, path, td.value("text", ""), td.value("version", 0)), true);
    } else if (method == "textDocument/didChange") {
      Document *d = docOf(params);
      const json &changes = params.value("contentChanges", json::array());
      if (!d || !changes.is_array() || changes.empty())
        return;
      ws_.change(*d, changes.back().value("text", ""),
                 params["textDocument"].value("version", d->version + 1));
      // Checked once the edits stop coming (serve): a burst gives one check, of its last version.
      if (std::find(pending_.begin(), pending_.end(), d->uri) == pending_.end())
        pending_.push_back(d->uri);
    } else if (method == "textDocument/didSave") {
      if (Document *d = docOf(params))
        publish(*d, true);
    } else if (method == "textDocument/didClose") {
      if (Document *d = docOf(params)) {
        notify("textDocument/publishDiagnostics",
               {{"uri", d->uri}, {"diagnostics", json::array()}});
        pending_.erase(std::remove(pending_.begin(), pending_.end(), d->uri), pending_.end());
        ws_.close(d->uri);
      }
    }
  }

  // Publishes qlint's findings. With `targets` (on open and save, not on every change: they
  // need the resolved model and every emitter), then runs the declared targets' own checks and,
  // when they add something, publishes again with those added.
  void publish(Document &d, bool targets) {
    begin(d.uri, json());
    json params = diagnosticsParams(d);
    if (stopped_ == Stop::Superseded)
      return; // a newer version is checked next
    notify("textDocument/publishDiagnostics", params);
    // A document over the size budget is not checked at all, its targets included.
    if (!targets || stopped_ != Stop::None || !overSize(d).empty() || ws_.checkTargets(d).empty() ||
        stopped_ != Stop::None) // checkTargets may stop too
      return;
    json &diags = params["diagnostics"];
    const Model &m = ws_.model(d);
    for (const Diagnostic &t : m.targetDiags)
      diags.push_back(diagnosticOf(m.sm, m.file, t));
    notify("textDocument/publishDiagnostics", params);
  }

  // Lints the document's current text: the params of its publishDiagnostics. A check that ran
  // out of its budget, or a document over the size budget, gives one diagnostic saying so.
  json diagnosticsParams(Document &d) {
    json params = {{"uri", d.uri}, {"version", d.version}, {"diagnostics", json::array()}};
    std::string over = overSize(d);
    const lint::FileResult *checked = over.empty() ? &ws_.check(d) : nullptr;
    if (!over.empty() || stopped_ == Stop::Time || stopped_ == Stop::Memory) {
      params["diagnostics"].push_back(
          {{"range", wholeRange("")},
           {"severity", 2},
           {"source", "qspec"},
           {"message", "not checked: " + (over.empty() ? stopMessage() : over)}});
      return params;
    }
    if (stopped_ != Stop::None)
      return params;
    const lint::FileResult &res = *checked;
    json diags = json::array();
    for (const Diagnostic &f : res.findings)
      diags.push_back(diagnosticOf(*res.sm, res.file, f));
    if (!res.internalError.empty())
      diags.push_back({{"range", wholeRange("")},
                       {"severity", 1},
                       {"source", "qspec"},
                       {"message", res.internalError}});
    return {{"uri", d.uri}, {"version", d.version}, {"diagnostics", diags}};
  }

  // What the operation in progress serves: the document a check is for, or the request it
  // answers; and when it started (its time budget).
  enum class Stop { None, Superseded, Cancelled, Time, Memory };
  void begin(const std::string &uri, const json &id) {
    opUri_ = uri;
    opId_ = id;
    opStart_ = std::chrono::steady_clock::now();
    stopped_ = Stop::None;
  }
  // Workspace::stop: asked between the stages of a check or a model build.
  bool stopNow() {
    if (stopped_ != Stop::None)
      return true;
    const ServerOptions &o = ws_.options();
    if (!opUri_.empty() && inbox_.any([&](const json &m) { return edits(m, opUri_); }))
      stopped_ = Stop::Superseded;
    else if (!opId_.is_null() && inbox_.any([&](const json &m) { return cancels(m, opId_); }))
      stopped_ = Stop::Cancelled;
    else if (o.timeBudgetMs > 0 && std::chrono::steady_clock::now() - opStart_ >=
                                       std::chrono::milliseconds(o.timeBudgetMs))
      stopped_ = Stop::Time;
    else if (o.memoryBudgetMb > 0 && residentMiB() > static_cast<uint64_t>(o.memoryBudgetMb))
      stopped_ = Stop::Memory;
    return stopped_ != Stop::None;
  }
  std::string stopMessage() const {
    const ServerOptions &o = ws_.options();
    if (stopped_ == Stop::Time)
      return "stopped after the time budget of " + std::to_string(o.timeBudgetMs) +
             " ms (--time-budget-ms)";
    if (stopped_ == Stop::Memory)
      return "stopped when the server's memory passed the budget of " +
             std::to_string(o.memoryBudgetMb) + " MiB (--memory-budget-mb)";
    return "request cancelled";
  }
  // Why `d` is not checked ("" when it is): over the document size budget.
  std::string overSize(const Document &d) const {
    size_t max = ws_.options().maxDocumentBytes;
    if (max == 0 || d.text.size() <= max)
      return "";
    return "the document is " + std::to_string(d.text.size()) + " bytes, over the budget of " +
           std::to_string(max) + " bytes (--max-document-bytes)";
  }
  // The process's resident memory in MiB (0 when /proc does not say).
  static uint64_t residentMiB() {
    std::string statm;
    if (bounded::readBoundedFile("/proc/self/statm", statm))
      return 0;
    unsigned long long pages = 0, resident = 0;
    if (std::sscanf(statm.c_str(), "%llu %llu", &pages, &resident) != 2)
      return 0;
    return resident * static_cast<uint64_t>(::sysconf(_SC_PAGESIZE)) >> 20;
  }

  void request(const json &id, const std::string &method, const json &params) {
    static const std::map<std::string, json (Server::*)(const json &)> handlers = {
        {"initialize", &Server::initialize},
        {"shutdown", &Server::shutdown},
        {"textDocument/hover", &Server::onHover},
        {"textDocument/definition", &Server::onDefinition},
        {"textDocument/completion", &Server::onCompletion},
        {"textDocument/formatting", &Server::onFormatting},
        {"textDocument/documentSymbol", &Server::onSymbols},
        {"textDocument/codeAction", &Server::onCodeAction},
        {"qspec/explain", &Server::onExplain},
    };
    auto it = handlers.find(method);
    if (it == handlers.end()) {
      respondError(id, -32601, "method not found: " + method);
      return;
    }
    failure_.clear();
    if (Document *d = docOf(params); d && !overSize(*d).empty()) {
      respondError(id, -32803, overSize(*d));
      return;
    }
    // A request whose $/cancelRequest has already arrived is not run; one cancelled or out of
    // budget while it runs stops at the next stage of its model build.
    if (inbox_.any([&](const json &m) { return cancels(m, id); })) {
      respondError(id, -32800, "request cancelled");
      return;
    }
    begin("", id);
    json result = (this->*it->second)(params);
    if (stopped_ == Stop::Cancelled)
      respondError(id, -32800, stopMessage());
    else if (stopped_ != Stop::None)
      respondError(id, -32803, stopMessage());
    else if (!failure_.empty())
      respondError(id, -32803, failure_);
    else
      respond(id, result);
  }

  json initialize(const json &params) {
    // The workspace root confines what an open spec may read (an untrusted repository).
    bool confine = true;
    if (params.contains("initializationOptions") && params["initializationOptions"].is_object())
      confine = params["initializationOptions"].value("confine", true);
    std::string root;
    if (params.contains("rootUri") && params["rootUri"].is_string())
      root = uriToPath(params["rootUri"].get<std::string>());
    else if (params.contains("rootPath") && params["rootPath"].is_string())
      root = params["rootPath"].get<std::string>();
    if (confine && !root.empty())
      ws_.setDefaultRoot(root);
    json caps = {
        {"textDocumentSync",
         {{"openClose", true}, {"change", 1}, {"save", {{"includeText", false}}}}},
        {"hoverProvider", true},
        {"definitionProvider", true},
        {"completionProvider", {{"triggerCharacters", json::array({"\"", "."})}}},
        {"documentFormattingProvider", true},
        {"documentSymbolProvider", true},
        {"codeActionProvider", {{"codeActionKinds", json::array({"quickfix"})}}},
    };
    return {{"capabilities", caps}, {"serverInfo", {{"name", "qspec-lsp"}, {"version", "0.1.0"}}}};
  }

  json shutdown(const json &) {
    shutdown_ = true;
    return nullptr;
  }

  json onHover(const json &params) {
    Document *d = docOf(params);
    if (!d)
      return nullptr;
    const Model &m = ws_.model(*d);
    auto h = hover(m, offsetIn(*d, params), &ws_.savedModel(*d));
    if (!h)
      return nullptr;
    return {{"contents", {{"kind", "markdown"}, {"value", h->markdown}}},
            {"range", rangeOf(m.sm, h->range)}};
  }

  json onDefinition(const json &params) {
    Document *d = docOf(params);
    if (!d)
      return nullptr;
    const Model &m = ws_.model(*d);
    auto t = definition(m, offsetIn(*d, params));
    if (!t)
      return nullptr;
    json range = t->range.valid() ? rangeOf(m.sm, t->range)
                                  : json{{"start", {{"line", t->line - 1}, {"character", 0}}},
                                         {"end", {{"line", t->line - 1}, {"character", 0}}}};
    return {{"uri", pathToUri(t->path)}, {"range", range}};
  }

  // qspec/explain {textDocument, module}: {text} as `qcc SPEC --explain MODULE` prints it.
  json onExplain(const json &params) {
    Document *d = docOf(params);
    if (!d)
      return nullptr;
    auto text = explain(ws_.model(*d), params.value("module", ""));
    if (!text) {
      failure_ = "no module named '" + params.value("module", "") + "' in the resolved spec";
      return nullptr;
    }
    return {{"text", *text}};
  }

  json onCompletion(const json &params);
  json onFormatting(const json &params);
  json onSymbols(const json &params);
  json onCodeAction(const json &params);

  std::ostream &out_;
  Workspace ws_;
  const Inbox &inbox_;
  std::string opUri_;
  json opId_;
  std::chrono::steady_clock::time_point opStart_;
  Stop stopped_ = Stop::None;
  bool shutdown_ = false, exited_ = false;
  std::string failure_; // set by a handler whose request failed
  // Documents edited since their last check, oldest first.
  std::vector<std::string> pending_;
};

int completionKind(CompletionKind k) {
  switch (k) {
  case CompletionKind::Keyword:
    return 14;
  case CompletionKind::Value:
    return 12;
  case CompletionKind::Module:
    return 9;
  case CompletionKind::Setting:
    return 10;
  case CompletionKind::Target:
    return 7;
  }
  return 1;
}

json Server::onCompletion(const json &params) {
  Document *d = docOf(params);
  if (!d)
    return nullptr;
  uint32_t offset = offsetIn(*d, params);
  bool incomplete = false;
  std::vector<CompletionItem> items =
      complete(ws_.modelWithInventory(*d), d->text, offset, 200, incomplete);
  json list = json::array();
  for (const CompletionItem &c : items) {
    json item = {{"label", c.label}, {"kind", completionKind(c.kind)}, {"detail", c.detail}};
    if (c.kind == CompletionKind::Module) {
      // Replace what is typed after the opening quote (module names contain dots).
      size_t quote = d->text.rfind('"', offset - 1);
      SourceManager sm;
      FileID f = sm.addFile(d->path, d->text);
      json range = {{"start", positionOf(sm, f, sm.locate(f, static_cast<uint32_t>(quote + 1)))},
                    {"end", positionOf(sm, f, sm.locate(f, offset))}};
      item["textEdit"] = {{"range", range}, {"newText", c.label}};
      item["filterText"] = c.label;
    }
    list.push_back(std::move(item));
  }
  return {{"isIncomplete", incomplete}, {"items", list}};
}

json Server::onFormatting(const json &params) {
  Document *d = docOf(params);
  if (!d)
    return nullptr;
  SourceManager sm;
  DiagnosticEngine diags(sm);
  FileID f = sm.addFile(d->path, d->text);
  std::string out;
  if (!frontend::formatSpec(f, diags, out)) {
    failure_ = "the spec does not parse; fix the syntax errors first";
    return nullptr;
  }
  if (out == d->text)
    return json::array();
  return json::array({{{"range", wholeRange(d->text)}, {"newText", out}}});
}

json Server::onSymbols(const json &params) {
  Document *d = docOf(params);
  if (!d)
    return nullptr;
  const Model &m = ws_.model(*d);
  static const int kinds[] = {2 /*Module*/,   8 /*Field*/,   10 /*Enum*/,
                              7 /*Property*/, 19 /*Object*/, 12 /*Function*/,
                              5 /*Class*/,    6 /*Method*/,  1 /*File*/};
  json list = json::array();
  for (const Symbol &s : symbols(m)) {
    json j = {{"name", s.name},
              {"kind", kinds[static_cast<int>(s.kind)]},
              {"range", rangeOf(m.sm, s.range)},
              {"selectionRange", rangeOf(m.sm, s.selection)}};
    if (!s.detail.empty())
      j["detail"] = s.detail;
    list.push_back(std::move(j));
  }
  return list;
}

json Server::onCodeAction(const json &params) {
  Document *d = docOf(params);
  if (!d || !d->lastCheck.sm)
    return json::array();
  const lint::FileResult &res = d->lastCheck;
  const json &r = params.value("range", json::object());
  const json &start = r.value("start", json::object()), &end = r.value("end", json::object());
  uint32_t from = offsetOf(d->text, start.value("line", 0), start.value("character", 0));
  uint32_t to = offsetOf(d->text, end.value("line", 0), end.value("character", 0));
  json actions = json::array();
  for (const Diagnostic &f : res.findings) {
    if (f.fixits.empty() || f.range.file != res.file || f.range.end.offset < from ||
        f.range.begin.offset > to)
      continue;
    json edits = json::array();
    for (const FixIt &fix : f.fixits)
      edits.push_back({{"range", rangeOf(*res.sm, fix.range)}, {"newText", fix.text}});
    actions.push_back({{"title", "Fix: " + f.message + " [" + f.code + "]"},
                       {"kind", "quickfix"},
                       {"diagnostics", json::array({diagnosticOf(*res.sm, res.file, f)})},
                       {"isPreferred", true},
                       {"edit", {{"changes", {{d->uri, edits}}}}}});
  }
  return actions;
}

} // namespace

int serve(std::istream &in, std::ostream &out, const ServerOptions &opts) {
  Inbox inbox(in, opts.inputFd);
  Server server(out, opts, inbox);
  Incoming msg;
  while (true) {
    // Edits are checked once no message has come for the debounce delay. A check stops when a
    // newer version of its document arrives meanwhile: that version is checked next instead.
    Inbox::Wait w = inbox.pop(msg, server.hasPending() ? opts.debounceMs : -1);
    if (w == Inbox::Wait::Timeout) {
      server.checkPending();
      continue;
    }
    if (w == Inbox::Wait::End)
      break;
    if (!server.handle(msg))
      return server.exitCode();
  }
  server.flushPending();
  return server.exitCode();
}

} // namespace qspec::lsp
