// A YAML reader that keeps locations and duplicate keys: yaml-cpp's event parser drives a small
// tree builder. Aliases are resolved to a copy of the anchored node (marked `alias`).
#include "lint/readers/Located.h"
#include "frontend/readers/Readers.h"
#include "ir/BoundedInput.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include <map>
#include <sstream>

namespace qspec::lint {

const LNode *LNode::get(const std::string &key) const {
  if (kind != Map)
    return nullptr;
  const LNode *found = nullptr;
  for (const auto &kv : map)
    if (kv.first.kind == Scalar && kv.first.value == key)
      found = &kv.second;
  return found;
}

namespace {

class Builder : public YAML::EventHandler {
public:
  Builder(SourceManager &sm, FileID f) : sm_(sm), file_(f) {}

  void OnDocumentStart(const YAML::Mark &) override {}
  void OnDocumentEnd() override { done_ = true; }
  void OnNull(const YAML::Mark &mark, YAML::anchor_t anchor) override {
    LNode n;
    n.kind = LNode::Null;
    n.range = at(mark, 1);
    add(std::move(n), anchor);
  }
  void OnAlias(const YAML::Mark &mark, YAML::anchor_t anchor) override {
    LNode n;
    auto it = anchors_.find(anchor);
    if (it != anchors_.end())
      n = it->second;
    n.alias = true;
    n.range = at(mark, 1);
    add(std::move(n), 0);
  }
  void OnScalar(const YAML::Mark &mark, const std::string &tag, YAML::anchor_t anchor,
                const std::string &value) override {
    LNode n;
    n.kind = LNode::Scalar;
    n.value = value;
    n.quoted = tag == "!";
    n.range = at(mark, static_cast<uint32_t>(value.size() + (n.quoted ? 2 : 0)));
    add(std::move(n), anchor);
  }
  void OnSequenceStart(const YAML::Mark &mark, const std::string &, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(LNode::Seq, mark, anchor);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark &mark, const std::string &, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(LNode::Map, mark, anchor);
  }
  void OnMapEnd() override { close(); }

  LNode root;
  bool done_ = false;

private:
  struct Frame {
    LNode node;
    YAML::anchor_t anchor = 0;
    bool haveKey = false;
    LNode key;
  };

  SourceRange at(const YAML::Mark &m, uint32_t len) {
    uint32_t begin = static_cast<uint32_t>(m.pos < 0 ? 0 : m.pos);
    uint32_t size = static_cast<uint32_t>(sm_.text(file_).size());
    if (begin > size)
      begin = size;
    uint32_t end = begin + (len ? len : 1);
    if (end > size)
      end = size > begin ? size : begin;
    return sm_.range(file_, begin, end);
  }
  void open(LNode::Kind k, const YAML::Mark &mark, YAML::anchor_t anchor) {
    Frame f;
    f.node.kind = k;
    f.node.range = at(mark, 1);
    f.anchor = anchor;
    stack_.push_back(std::move(f));
  }
  void close() {
    Frame f = std::move(stack_.back());
    stack_.pop_back();
    add(std::move(f.node), f.anchor);
  }
  void add(LNode n, YAML::anchor_t anchor) {
    if (anchor)
      anchors_[anchor] = n;
    if (stack_.empty()) {
      if (!haveRoot_) {
        root = std::move(n);
        haveRoot_ = true;
      }
      return;
    }
    Frame &top = stack_.back();
    if (top.node.kind == LNode::Seq) {
      top.node.seq.push_back(std::move(n));
    } else if (!top.haveKey) {
      top.key = std::move(n);
      top.haveKey = true;
    } else {
      top.node.map.emplace_back(std::move(top.key), std::move(n));
      top.haveKey = false;
    }
  }

  SourceManager &sm_;
  FileID file_;
  std::vector<Frame> stack_;
  std::map<YAML::anchor_t, LNode> anchors_;
  bool haveRoot_ = false;
};

} // namespace

bool parseLocatedYaml(SourceManager &sm, FileID file, LNode &root, ParseError &err) {
  // Nesting first, in one linear pass (ir/BoundedInput.h): the parsers below cost time
  // proportional to the depth on every token.
  if (size_t deep = bounded::nestingPastLimit(sm.text(file), bounded::Syntax::Yaml);
      deep != std::string::npos) {
    err.range = sm.range(file, static_cast<uint32_t>(deep), static_cast<uint32_t>(deep + 1));
    err.message = "YAML nested deeper than " + std::to_string(bounded::kMaxNesting) + " levels";
    return false;
  }
  uint32_t line = 0, col = 0;
  if (!readers::checkYamlAliases(sm.text(file), readers::kMaxYamlAliasNodes, line, col)) {
    err.range = sm.lineRange(file, line, col, 1);
    err.message = "YAML aliases expand to more than " +
                  std::to_string(readers::kMaxYamlAliasNodes) + " nodes (an alias bomb?)";
    return false;
  }
  std::istringstream in(sm.text(file));
  Builder b(sm, file);
  try {
    YAML::Parser parser(in);
    parser.HandleNextDocument(b);
  } catch (const YAML::Exception &e) {
    uint32_t line = e.mark.line >= 0 ? static_cast<uint32_t>(e.mark.line) + 1 : 1;
    uint32_t col = e.mark.column >= 0 ? static_cast<uint32_t>(e.mark.column) + 1 : 1;
    err.range = sm.lineRange(file, line, col, 1);
    err.message = e.msg;
    return false;
  } catch (const std::exception &e) {
    err.range = sm.lineRange(file, 1, 1, 1);
    err.message = e.what();
    return false;
  }
  root = std::move(b.root);
  return true;
}

} // namespace qspec::lint
