// printSpec and Comments (ImportedSpec.h).
#include "driver/qcc/import/ImportedSpec.h"

#include "frontend/Parser.h"
#include "ir/Pattern.h"

namespace qspec::import {

namespace {

using frontend::qspecString;

// A comment's text made safe for one `//` line (control bytes become '?').
std::string commentLine(const std::string &text) {
  std::string out;
  for (unsigned char c : text)
    out += (c < 0x20 || c == 0x7f) ? '?' : static_cast<char>(c);
  size_t e = out.find_last_not_of(' ');
  return e == std::string::npos ? std::string() : out.substr(0, e + 1);
}

void comments(const std::vector<std::string> &lines, const std::string &indent, std::string &out) {
  for (const std::string &c : lines)
    out += indent + "//" + (c.empty() || c[0] == ' ' ? "" : " ") + commentLine(c) + "\n";
}

std::string joinQuoted(const std::vector<std::string> &items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i)
    out += (i ? ", " : "") + qspecString(items[i]);
  return out;
}

std::string words(const char *head, const std::vector<std::string> &w) {
  std::string out = head;
  for (const std::string &x : w)
    out += " " + x;
  return out;
}

} // namespace

std::string RuleBody::text() const {
  std::vector<std::string> parts;
  if (!tier.empty())
    parts.push_back("tier " + tier);
  if (!weight.empty())
    parts.push_back(words("weight", weight));
  if (!act.empty())
    parts.push_back(words("act", act));
  for (const std::string &b : targetBlocks)
    parts.push_back(b);
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i)
    out += (i ? "; " : "") + parts[i];
  return out;
}

std::string printSpec(const ImportedSpec &s) {
  std::string out;
  comments(s.header, "", out);
  out += "qspec 1\n\n";
  if (!s.inventory.empty())
    out += "model { inventory " + qspecString(s.inventory) + " }\n\n";
  comments(s.defaultsComments, "", out);
  if (!s.defaults.empty())
    out += "defaults { " + s.defaults.text() + " }\n\n";
  if (!s.protectNames.empty() || !s.protectTypes.empty()) {
    comments(s.protectComments, "", out);
    std::string sel = joinQuoted(s.protectNames);
    for (const std::string &t : s.protectTypes)
      sel += (sel.empty() ? "type " : ", type ") + t;
    out += "protect " + sel + "\n\n";
  }
  for (const Override &o : s.overrides) {
    comments(o.comments, "", out);
    std::string sel;
    if (o.byType)
      for (size_t i = 0; i < o.selectors.size(); ++i)
        sel += (i ? ", " : "") + o.selectors[i];
    else
      sel = joinQuoted(o.selectors);
    out += std::string("override ") + (o.byType ? "type " : "name ") + sel;
    if (o.priority)
      out += " priority " + std::to_string(o.priority);
    out += " { " + o.body.text() + " }\n";
  }
  if (!s.overrides.empty())
    out += "\n";
  for (const TargetBlock &t : s.targets) {
    comments(t.comments, "", out);
    out += "target " + t.kind + (t.variant.empty() ? "" : " " + t.variant) + " {\n";
    for (const std::string &line : t.settings)
      out += "  " + line + "\n";
    out += "}\n";
  }
  if (!s.trailer.empty())
    out += "\n";
  comments(s.trailer, "", out);
  return out;
}

Comments::Comments(std::string_view text, std::string_view marker) {
  uint32_t line = 0;
  std::vector<size_t> pending; // whole-line comments waiting for the next content line
  size_t i = 0;
  while (i <= text.size()) {
    size_t e = text.find('\n', i);
    if (e == std::string_view::npos)
      e = text.size();
    std::string_view l = text.substr(i, e - i);
    ++line;
    char quote = 0;
    size_t hash = std::string_view::npos;
    for (size_t k = 0; k < l.size() && hash == std::string_view::npos; ++k) {
      char c = l[k];
      if (quote) {
        if (c == '\\')
          ++k;
        else if (c == quote)
          quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (l.compare(k, marker.size(), marker) == 0) {
        hash = k;
      }
    }
    size_t first = l.find_first_not_of(" \t\r");
    bool content = first != std::string_view::npos && first != hash;
    if (content && !firstContent_)
      firstContent_ = line;
    if (content)
      for (size_t p : pending)
        all_[p].attach = line;
    if (content)
      pending.clear();
    if (hash != std::string_view::npos) {
      std::string c(l.substr(hash + marker.size()));
      while (!c.empty() && (c.back() == '\r' || c.back() == ' '))
        c.pop_back();
      all_.push_back(C{content ? line : 0, line, c});
      if (!content)
        pending.push_back(all_.size() - 1);
    }
    if (e == text.size())
      break;
    i = e + 1;
  }
}

std::vector<std::string> Comments::take(uint32_t line) {
  std::vector<std::string> out;
  if (!line)
    return out;
  for (C &c : all_)
    if (!c.taken && c.attach == line) {
      c.taken = true;
      out.push_back(c.text);
    }
  return out;
}

std::vector<std::string> Comments::takeLeading() {
  std::vector<std::string> out;
  for (C &c : all_)
    if (!c.taken && (!firstContent_ || c.line < firstContent_)) {
      c.taken = true;
      out.push_back(c.text);
    }
  return out;
}

std::vector<std::string> Comments::rest() {
  std::vector<std::string> out;
  for (C &c : all_)
    if (!c.taken) {
      c.taken = true;
      out.push_back(" line " + std::to_string(c.line) + ":" + c.text);
    }
  return out;
}

std::string exactPattern(const std::string &name) { return escapeGlob(name); }

} // namespace qspec::import
