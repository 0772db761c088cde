// Counting what YAML aliases expand to, before a reader builds or walks a tree (an alias bomb:
// 288 bytes of nested anchors stand for 9^7 nodes).
#include "frontend/readers/Readers.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include <map>
#include <sstream>

namespace qspec::readers {

namespace {

struct LimitReached {
  YAML::Mark mark;
};

// Each node counts 1; an alias counts every node of what it names (aliases inside included).
class AliasCounter : public YAML::EventHandler {
public:
  explicit AliasCounter(size_t limit) : limit_(limit) {}

  void OnDocumentStart(const YAML::Mark &) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark &, YAML::anchor_t anchor) override { leaf(anchor); }
  void OnScalar(const YAML::Mark &, const std::string &, YAML::anchor_t anchor,
                const std::string &) override {
    leaf(anchor);
  }
  void OnAlias(const YAML::Mark &mark, YAML::anchor_t anchor) override {
    auto it = sizes_.find(anchor);
    size_t n = it == sizes_.end() ? 1 : it->second;
    expanded_ += n;
    if (expanded_ > limit_)
      throw LimitReached{mark};
    nodes_ += n;
  }
  void OnSequenceStart(const YAML::Mark &, const std::string &, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open_.push_back({anchor, nodes_});
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark &, const std::string &, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open_.push_back({anchor, nodes_});
  }
  void OnMapEnd() override { close(); }

private:
  void leaf(YAML::anchor_t anchor) {
    nodes_ += 1;
    if (anchor)
      sizes_[anchor] = 1;
  }
  void close() {
    auto [anchor, start] = open_.back();
    open_.pop_back();
    nodes_ += 1; // the collection itself; its children are counted already
    if (anchor)
      sizes_[anchor] = nodes_ - start;
  }

  size_t limit_;
  size_t nodes_ = 0, expanded_ = 0;
  std::vector<std::pair<YAML::anchor_t, size_t>> open_;
  std::map<YAML::anchor_t, size_t> sizes_;
};

} // namespace

bool checkYamlAliases(const std::string &text, size_t limit, uint32_t &line, uint32_t &col) {
  if (text.find('&') == std::string::npos)
    return true; // no anchor, so no alias can name one
  std::istringstream in(text);
  AliasCounter counter(limit);
  try {
    YAML::Parser parser(in);
    // yaml-cpp 0.7 reports a document without consuming anything for some malformed input (a
    // leading ',' at block level), so "until the last document" never ends. Every real document
    // takes at least one byte, which bounds the loop.
    for (size_t docs = 0; docs <= text.size() && parser.HandleNextDocument(counter); ++docs) {
    }
  } catch (const LimitReached &l) {
    line = l.mark.line >= 0 ? static_cast<uint32_t>(l.mark.line) + 1 : 1;
    col = l.mark.column >= 0 ? static_cast<uint32_t>(l.mark.column) + 1 : 1;
    return false;
  } catch (const std::exception &) {
    // A syntax error: the reader's own parse reports it.
  }
  return true;
}

} // namespace qspec::readers
