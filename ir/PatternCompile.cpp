// ir::Pattern's compiler: pattern text to the program the matcher (Pattern.cpp) runs.
#include "ir/Pattern.h"
#include "ir/GlobSyntax.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <limits>

namespace qspec {

namespace {
constexpr size_t kMaxPatternLength = 4096;
constexpr size_t kMaxNesting = 32;
constexpr uint32_t kDfaMinProgram = 48; // shorter programs stay on the VM
// Numeric ranges run on the DFA when a pattern's ranges have at most this many values in all
// (each value becomes an alternative) and none is wider than the VM reads.
constexpr uint64_t kDfaRangeValues = 1024;
using glob::kMaxNumberDigits;
std::atomic<uint64_t> nextPatternId{1};

bool isIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

using glob::hasLeadingZero;
using glob::parseInt;
using glob::splitTopLevel;
} // namespace

class PatternCompiler {
public:
  PatternCompiler(Pattern &p, std::string &err) : p_(p), err_(err) {}

  bool compileSeq(std::string_view t, size_t depth) {
    if (depth > kMaxNesting)
      return fail("braces nested too deeply");
    for (size_t i = 0; i < t.size(); ++i) {
      char c = t[i];
      if (c == '\\') {
        if (i + 1 < t.size())
          ++i;
        emitChar(t[i]);
      } else if (c == '*') {
        // L: Split(L+1, L+3); L+1: Any; L+2: Jmp L; L+3: ...
        while (i + 1 < t.size() && t[i + 1] == '*')
          ++i;
        uint32_t l = size();
        Pattern::Inst split{Pattern::Op::Split};
        split.x = l + 1;
        split.y = l + 3;
        p_.prog_.push_back(split);
        p_.prog_.push_back({Pattern::Op::Any});
        Pattern::Inst jmp{Pattern::Op::Jmp};
        jmp.x = l;
        p_.prog_.push_back(jmp);
        p_.literal_ = false;
      } else if (c == '?') {
        p_.prog_.push_back({Pattern::Op::Any});
        p_.literal_ = false;
      } else if (c == '[') {
        size_t used = compileClass(t, i);
        if (used == 0)
          emitChar('[');
        else
          i += used - 1;
      } else if (c == '{') {
        size_t close = glob::braceClose(t, i);
        if (close == std::string_view::npos) {
          emitChar('{');
          continue;
        }
        if (!compileBrace(t.substr(i + 1, close - i - 1), depth))
          return false;
        i = close;
      } else {
        emitChar(c);
      }
    }
    return true;
  }

  bool finish() {
    p_.prog_.push_back({Pattern::Op::Match});
    // Literal prefix: leading Char instructions before any branch.
    for (const auto &inst : p_.prog_) {
      if (inst.op != Pattern::Op::Char)
        break;
      p_.prefix_ += inst.ch;
    }
    if (p_.literal_)
      p_.literalText_ = p_.prefix_;
    else
      analyze();
    p_.minLength_ = shortestMatch();
    findTailStar();
    if (!p_.literal_)
      findStarRuns();
    if (!p_.literal_ && !p_.simple_ && size() >= kDfaMinProgram)
      prepareDfa();
    if (p_.literal_ || !expandPrefixes(0, std::string()) || p_.prefixes_.empty()) {
      p_.prefixes_.assign(1, p_.prefix_);
    } else {
      std::sort(p_.prefixes_.begin(), p_.prefixes_.end());
      p_.prefixes_.erase(std::unique(p_.prefixes_.begin(), p_.prefixes_.end()), p_.prefixes_.end());
    }
    return true;
  }

private:
  Pattern &p_;
  std::string &err_;

  size_t prefixBudget_ = 0;

  // Walks the program from `pc` with `text` read so far, following Chars, alternations and small
  // numeric ranges, and records the text where anything else starts. False: too many.
  bool expandPrefixes(uint32_t pc, std::string text) {
    const auto &prog = p_.prog_;
    while (true) {
      if (++prefixBudget_ > 4096)
        return false;
      const Pattern::Inst &in = prog[pc];
      if (in.op == Pattern::Op::Char) {
        text += in.ch;
        ++pc;
      } else if (in.op == Pattern::Op::CapStart || in.op == Pattern::Op::CapEnd) {
        ++pc;
      } else if (in.op == Pattern::Op::Jmp && in.x > pc) {
        pc = in.x;
      } else if (in.op == Pattern::Op::Split && pc + 2 < prog.size() &&
                 !(in.x == pc + 1 && in.y == pc + 3 && prog[pc + 2].op == Pattern::Op::Jmp &&
                   prog[pc + 2].x == pc)) {
        return expandPrefixes(in.x, text) && expandPrefixes(in.y, text);
      } else if (in.op == Pattern::Op::NumRange && in.width != UINT32_MAX &&
                 (in.hi - in.lo) / in.step < 32) {
        for (const std::string &digits : rangeTexts(in))
          if (!expandPrefixes(pc + 1, text + digits))
            return false;
        return true;
      } else {
        p_.prefixes_.push_back(std::move(text));
        return p_.prefixes_.size() <= 64;
      }
    }
  }

  // Facts for fast matching and for indexing (ModuleSelector): the literal suffix, the literal
  // runs every match contains, and whether the program is a plain glob (Char, Any, Class, `*`).
  void analyze() {
    const auto &prog = p_.prog_;
    const uint32_t n = size(), matchPc = n - 1;
    // Jump targets: a run of Chars is read without interruption only if nothing jumps inside it.
    std::vector<bool> target(n + 1, false);
    bool simple = p_.vars_.empty();
    for (uint32_t pc = 0; pc < n; ++pc) {
      const Pattern::Inst &in = prog[pc];
      if (in.op == Pattern::Op::Split) {
        target[in.x] = target[in.y] = true;
        // `*` is exactly Split(pc+1, pc+3); Any; Jmp pc.
        bool star = in.x == pc + 1 && in.y == pc + 3 && pc + 2 < n &&
                    prog[pc + 1].op == Pattern::Op::Any && prog[pc + 2].op == Pattern::Op::Jmp &&
                    prog[pc + 2].x == pc;
        if (star)
          pc += 2;
        else
          simple = false;
      } else if (in.op == Pattern::Op::Jmp) {
        target[in.x] = true;
        simple = false;
      } else if (in.op != Pattern::Op::Char && in.op != Pattern::Op::Any &&
                 in.op != Pattern::Op::Class && in.op != Pattern::Op::Match) {
        simple = false;
      }
    }
    // `*` loops jump back to their own Split, never into a run of Chars; recompute targets for
    // the star triples too (skipped above).
    for (uint32_t pc = 0; pc < n; ++pc)
      if (prog[pc].op == Pattern::Op::Jmp)
        target[prog[pc].x] = true;
    p_.simple_ = simple;

    // Suffix: the Chars before Match when nothing jumps into them or onto Match.
    uint32_t a = matchPc;
    while (a > 0 && prog[a - 1].op == Pattern::Op::Char && !target[a])
      --a;
    // Nothing jumps into (a, matchPc]: every match ends with the Chars of [a, matchPc).
    if (a < matchPc && a >= p_.prefix_.size())
      for (uint32_t pc = a; pc < matchPc; ++pc)
        p_.suffix_ += prog[pc].ch;

    // Mandatory instructions: those every path from 0 to Match passes, i.e. Match's dominators.
    std::vector<bool> mandatory = dominatorsOfMatch();
    for (uint32_t pc = 0; pc < matchPc;) {
      if (!mandatory[pc]) {
        ++pc;
        continue;
      }
      std::string run(1, prog[pc].ch);
      uint32_t end = pc + 1;
      while (end < matchPc && prog[end].op == Pattern::Op::Char && !target[end])
        run += prog[end++].ch;
      p_.required_.push_back(std::move(run));
      pc = end;
    }
  }

  // A program of Chars and `*` only (`*a*b.c*`): the literal runs between the prefix and the
  // suffix, in order. Such a pattern matches iff, after the prefix and before the suffix, each
  // run occurs after the one before it, and the leftmost occurrence of each is as good as any.
  void findStarRuns() {
    const auto &prog = p_.prog_;
    const uint32_t matchPc = size() - 1;
    std::vector<std::string> pieces(
        1); // the Chars before the first `*`, between two, after the last
    for (uint32_t pc = 0; pc < matchPc;) {
      const Pattern::Inst &in = prog[pc];
      if (in.op == Pattern::Op::Char) {
        pieces.back() += in.ch;
        ++pc;
      } else if (in.op == Pattern::Op::Split && in.x == pc + 1 && in.y == pc + 3 &&
                 pc + 2 < matchPc && prog[pc + 1].op == Pattern::Op::Any &&
                 prog[pc + 2].op == Pattern::Op::Jmp && prog[pc + 2].x == pc) {
        pieces.emplace_back();
        pc += 3;
      } else {
        return; // `?`, a class, braces, a range or a variable: the general matchers
      }
    }
    // matches() checks the prefix and the suffix first.
    if (pieces.size() < 2 || pieces.front() != p_.prefix_ || pieces.back() != p_.suffix_)
      return;
    for (size_t i = 1; i + 1 < pieces.size(); ++i)
      if (!pieces[i].empty())
        p_.starRuns_.push_back(std::move(pieces[i]));
    p_.starsOnly_ = true;
  }

  // A final `*`: Split(L+1, L+3); L+1: Any; L+2: Jmp L; L+3: Match.
  void findTailStar() {
    const auto &prog = p_.prog_;
    const uint32_t m = size() - 1;
    if (m < 3 || prog[m].op != Pattern::Op::Match)
      return;
    const Pattern::Inst &split = prog[m - 3], &jmp = prog[m - 1];
    if (split.op == Pattern::Op::Split && split.x == m - 2 && split.y == m &&
        prog[m - 2].op == Pattern::Op::Any && jmp.op == Pattern::Op::Jmp && jmp.x == m - 3)
      p_.tailStar_ = m - 3;
  }

  // DFA eligibility (the byte classes are computed when a thread first runs the DFA). Variables
  // bind text: the VM. Numeric ranges of few values run on the DFA as the alternation of their
  // decimal texts (the program the DFA reads, dfaProg_); larger ones keep the pattern on the VM.
  void prepareDfa() {
    uint64_t values = 0;
    for (const Pattern::Inst &in : p_.prog_) {
      if (in.op == Pattern::Op::CapStart || in.op == Pattern::Op::CapEnd ||
          in.op == Pattern::Op::Star)
        return;
      if (in.op == Pattern::Op::NumRange) {
        if (in.width > kMaxNumberDigits || std::to_string(in.hi).size() > kMaxNumberDigits ||
            (in.hi - in.lo) / in.step >= kDfaRangeValues)
          return;
        values += (in.hi - in.lo) / in.step + 1;
        if (values > kDfaRangeValues || rangeTexts(in).empty())
          return;
      }
    }
    if (values)
      expandRanges();
    p_.dfa_ = true;
    p_.id_ = nextPatternId++;
  }

  // dfaProg_: prog_ with every NumRange replaced by Split(t1, next); t1's digits; Jmp end; ...;
  // the last text; end: (the texts numberTextOk accepts: each value zero-padded to the range's
  // width, one text per value, as brace expansion would list them).
  void expandRanges() {
    const auto &prog = p_.prog_;
    auto &out = p_.dfaProg_;
    std::vector<uint32_t> at(prog.size(), 0), copied; // old pc -> new pc; copied instructions
    for (uint32_t pc = 0; pc < prog.size(); ++pc) {
      at[pc] = static_cast<uint32_t>(out.size());
      const Pattern::Inst &in = prog[pc];
      if (in.op != Pattern::Op::NumRange) {
        copied.push_back(static_cast<uint32_t>(out.size()));
        out.push_back(in);
        continue;
      }
      std::vector<std::string> texts = rangeTexts(in);
      std::vector<uint32_t> jumpsToEnd;
      for (size_t k = 0; k < texts.size(); ++k) {
        uint32_t split = static_cast<uint32_t>(out.size());
        bool last = k + 1 == texts.size();
        if (!last)
          out.push_back({Pattern::Op::Split});
        for (char c : texts[k]) {
          Pattern::Inst ch{Pattern::Op::Char};
          ch.ch = c;
          out.push_back(ch);
        }
        if (!last) {
          jumpsToEnd.push_back(static_cast<uint32_t>(out.size()));
          out.push_back({Pattern::Op::Jmp});
          out[split].x = split + 1;
          out[split].y = static_cast<uint32_t>(out.size());
        }
      }
      for (uint32_t j : jumpsToEnd)
        out[j].x = static_cast<uint32_t>(out.size()); // the instruction after the range
    }
    for (uint32_t i : copied) {
      Pattern::Inst &in = out[i];
      if (in.op == Pattern::Op::Split) {
        in.x = at[in.x];
        in.y = at[in.y];
      } else if (in.op == Pattern::Op::Jmp) {
        in.x = at[in.x];
      }
    }
  }

  // The texts of a NumRange's values, ascending.
  static std::vector<std::string> rangeTexts(const Pattern::Inst &in) {
    std::vector<std::string> texts;
    uint64_t first = in.lo + ((in.y % in.step) + in.step - in.lo % in.step) % in.step;
    for (uint64_t v = first; v <= in.hi; v += in.step) {
      texts.push_back(std::to_string(v));
      if (texts.back().size() < in.width)
        texts.back().insert(0, in.width - texts.back().size(), '0');
    }
    return texts;
  }

  // Successors of `pc` in the program's control flow.
  template <class F> void forEachSuccessor(uint32_t pc, F &&f) const {
    const Pattern::Inst &in = p_.prog_[pc];
    switch (in.op) {
    case Pattern::Op::Match:
      break;
    case Pattern::Op::Split:
      f(in.x);
      f(in.y);
      break;
    case Pattern::Op::Jmp:
      f(in.x);
      break;
    default:
      f(pc + 1);
      break;
    }
  }

  // The instructions that dominate Match (every path from 0 to Match passes them), by the
  // iterative algorithm of Cooper, Harvey and Kennedy on a reverse post-order: about linear in
  // the program, so long alternations get their required literals too.
  std::vector<bool> dominatorsOfMatch() const {
    const uint32_t n = size(), none = UINT32_MAX;
    std::vector<uint32_t> order, rank(n, none); // post-order; rank = post-order number
    std::vector<std::pair<uint32_t, uint32_t>> stack{{0, 0}}; // pc, successors visited
    std::vector<bool> seen(n, false);
    seen[0] = true;
    while (!stack.empty()) {
      // Not a structured binding: C++17 lambdas cannot capture one (clang refuses it).
      const uint32_t pc = stack.back().first;
      uint32_t &k = stack.back().second;
      uint32_t next = none, idx = 0;
      forEachSuccessor(pc, [&](uint32_t s) {
        if (idx++ == k && next == none)
          next = s;
      });
      if (next == none && k >= idx) {
        rank[pc] = static_cast<uint32_t>(order.size());
        order.push_back(pc);
        stack.pop_back();
        continue;
      }
      ++k;
      if (next != none && !seen[next]) {
        seen[next] = true;
        stack.push_back({next, 0});
      }
    }
    std::vector<bool> result(n, false);
    const uint32_t matchPc = n - 1;
    if (rank[matchPc] == none)
      return result; // Match unreachable: the pattern matches nothing
    std::vector<uint32_t> predStart(n + 1, 0), preds; // predecessors, by instruction (CSR)
    for (uint32_t pc : order)
      forEachSuccessor(pc, [&](uint32_t s) { ++predStart[s + 1]; });
    for (uint32_t pc = 0; pc < n; ++pc)
      predStart[pc + 1] += predStart[pc];
    preds.resize(predStart[n]);
    std::vector<uint32_t> fill(predStart.begin(), predStart.end() - 1);
    for (uint32_t pc : order)
      forEachSuccessor(pc, [&](uint32_t s) { preds[fill[s]++] = pc; });
    std::vector<uint32_t> idom(n, none);
    idom[0] = 0;
    auto intersect = [&](uint32_t a, uint32_t b) {
      while (a != b) {
        while (rank[a] < rank[b])
          a = idom[a];
        while (rank[b] < rank[a])
          b = idom[b];
      }
      return a;
    };
    for (bool changed = true; changed;) {
      changed = false;
      for (auto it = order.rbegin(); it != order.rend(); ++it) {
        uint32_t pc = *it, d = none;
        if (pc == 0)
          continue;
        for (uint32_t k = predStart[pc]; k < predStart[pc + 1]; ++k)
          if (uint32_t q = preds[k]; idom[q] != none)
            d = d == none ? q : intersect(q, d);
        if (d != idom[pc]) {
          idom[pc] = d;
          changed = true;
        }
      }
    }
    for (uint32_t pc = matchPc;; pc = idom[pc]) {
      result[pc] = p_.prog_[pc].op == Pattern::Op::Char;
      if (pc == 0)
        break;
    }
    return result;
  }

  // The fewest characters any match has (a shortest path to Match, reading costs 1).
  uint32_t shortestMatch() const {
    const uint32_t n = size(), inf = UINT32_MAX;
    std::vector<uint32_t> dist(n, inf);
    std::vector<uint32_t> front{0}, nextFront;
    dist[0] = 0;
    // 0-1 breadth-first: Split, Jmp and captures cost nothing, everything else one character.
    for (uint32_t d = 0; !front.empty(); ++d) {
      for (size_t i = 0; i < front.size(); ++i) {
        uint32_t pc = front[i];
        if (dist[pc] != d)
          continue;
        const Pattern::Inst &in = p_.prog_[pc];
        bool free = in.op == Pattern::Op::Split || in.op == Pattern::Op::Jmp ||
                    in.op == Pattern::Op::CapStart || in.op == Pattern::Op::CapEnd;
        if (in.op == Pattern::Op::Match)
          return d;
        forEachSuccessor(pc, [&](uint32_t s) {
          uint32_t nd = d + (free ? 0 : 1);
          if (nd < dist[s]) {
            dist[s] = nd;
            (free ? front : nextFront).push_back(s);
          }
        });
      }
      front.swap(nextFront);
      nextFront.clear();
    }
    return inf;
  }

  uint32_t size() const { return static_cast<uint32_t>(p_.prog_.size()); }
  bool fail(const char *msg) {
    err_ = msg;
    return false;
  }
  void emitChar(char c) {
    Pattern::Inst in{Pattern::Op::Char};
    in.ch = c;
    p_.prog_.push_back(in);
  }

  // Compiles a bracket expression starting at t[i] == '['; returns characters used (0 = literal).
  size_t compileClass(std::string_view t, size_t i) {
    size_t j = i + 1;
    bool negate = false;
    if (j < t.size() && (t[j] == '!' || t[j] == '^')) {
      negate = true;
      ++j;
    }
    std::vector<bool> set(256, false);
    bool first = true;
    while (j < t.size() && (t[j] != ']' || first)) {
      first = false;
      if (t[j] == '[' && j + 1 < t.size() && t[j + 1] == ':') {
        size_t end = t.find(":]", j + 2);
        if (end != std::string_view::npos) {
          std::string name(t.substr(j + 2, end - j - 2));
          int (*fn)(int) = nullptr;
          if (name == "alnum")
            fn = ::isalnum;
          else if (name == "alpha")
            fn = ::isalpha;
          else if (name == "digit")
            fn = ::isdigit;
          else if (name == "lower")
            fn = ::islower;
          else if (name == "upper")
            fn = ::isupper;
          else if (name == "space")
            fn = ::isspace;
          else if (name == "punct")
            fn = ::ispunct;
          else if (name == "xdigit")
            fn = ::isxdigit;
          else if (name == "alnum")
            fn = ::isalnum;
          if (fn) {
            for (int c = 0; c < 128; ++c)
              if (fn(c))
                set[c] = true;
            j = end + 2;
            continue;
          }
        }
      }
      unsigned char lo = static_cast<unsigned char>(t[j]);
      if (t[j] == '\\' && j + 1 < t.size())
        lo = static_cast<unsigned char>(t[++j]);
      if (j + 2 < t.size() && t[j + 1] == '-' && t[j + 2] != ']') {
        unsigned char hi = static_cast<unsigned char>(t[j + 2]);
        for (unsigned c = lo; c <= hi; ++c)
          set[c] = true;
        j += 3;
      } else {
        set[lo] = true;
        ++j;
      }
    }
    if (j >= t.size())
      return 0; // no closing ']': the '[' is literal
    Pattern::Inst in{Pattern::Op::Class};
    in.negate = negate;
    in.cls = static_cast<uint32_t>(p_.classes_.size());
    p_.classes_.push_back(std::move(set));
    p_.prog_.push_back(in);
    p_.literal_ = false;
    return j - i + 1;
  }

  bool compileBrace(std::string_view body, size_t depth) {
    // {name}: a bound number.
    if (!body.empty() && isIdentStart(body[0])) {
      bool ident = true;
      for (char c : body)
        ident = ident && isIdentChar(c);
      if (ident) {
        uint32_t cap = static_cast<uint32_t>(p_.vars_.size());
        p_.vars_.emplace_back(body);
        Pattern::Inst s{Pattern::Op::CapStart};
        s.cap = cap;
        p_.prog_.push_back(s);
        Pattern::Inst r{Pattern::Op::NumRange};
        r.lo = 0;
        r.hi = std::numeric_limits<uint64_t>::max();
        r.width = UINT32_MAX; // any digit run
        p_.prog_.push_back(r);
        Pattern::Inst e{Pattern::Op::CapEnd};
        e.cap = cap;
        p_.prog_.push_back(e);
        p_.literal_ = false;
        return true;
      }
    }
    // {a..b} or {a..b..step}: numeric or character range.
    size_t dots = body.find("..");
    if (dots != std::string_view::npos && body.find(',') == std::string_view::npos) {
      std::string_view a = body.substr(0, dots), rest = body.substr(dots + 2);
      std::string_view b = rest, stepText;
      size_t dots2 = rest.find("..");
      if (dots2 != std::string_view::npos) {
        b = rest.substr(0, dots2);
        stepText = rest.substr(dots2 + 2);
      }
      int64_t lo, hi, step = 1;
      bool stepOk = stepText.empty() || (parseInt(stepText, step) && step != 0);
      if (parseInt(a, lo) && parseInt(b, hi) && stepOk && lo >= 0 && hi >= 0) {
        Pattern::Inst r{Pattern::Op::NumRange};
        r.lo = static_cast<uint64_t>(std::min(lo, hi));
        r.hi = static_cast<uint64_t>(std::max(lo, hi));
        r.step = static_cast<uint64_t>(step < 0 ? -step : step);
        // Stepping starts at the first endpoint, whichever direction.
        r.x = static_cast<uint32_t>(lo <= hi ? 0 : 1);
        r.y = static_cast<uint32_t>(static_cast<uint64_t>(lo) % r.step);
        if (lo > hi) // descending: values are lo, lo-step, ...; their residue is lo % step
          r.y = static_cast<uint32_t>(static_cast<uint64_t>(lo) % r.step);
        r.width = (hasLeadingZero(a) || hasLeadingZero(b))
                      ? static_cast<uint32_t>(std::max(a.size(), b.size()))
                      : 0;
        p_.prog_.push_back(r);
        p_.literal_ = false;
        return true;
      }
      if (a.size() == 1 && b.size() == 1 && stepOk) {
        Pattern::Inst r{Pattern::Op::CharRange};
        unsigned char ca = static_cast<unsigned char>(a[0]), cb = static_cast<unsigned char>(b[0]);
        r.lo = std::min(ca, cb);
        r.hi = std::max(ca, cb);
        r.step = static_cast<uint64_t>(step < 0 ? -step : step);
        r.y = static_cast<uint32_t>(ca % r.step);
        p_.prog_.push_back(r);
        p_.literal_ = false;
        return true;
      }
    }
    std::vector<std::string_view> alts = splitTopLevel(body);
    if (alts.size() < 2) {
      // `{abc}` without a comma is literal text, as in wcmatch.
      emitChar('{');
      if (!compileSeq(body, depth + 1))
        return false;
      emitChar('}');
      return true;
    }
    // Split(a1, next1); a1; Jmp end; next1: Split(a2, next2); ... last alternative; end:
    std::vector<uint32_t> jumpsToEnd;
    for (size_t k = 0; k < alts.size(); ++k) {
      uint32_t splitAt = 0;
      bool last = k + 1 == alts.size();
      if (!last) {
        splitAt = size();
        Pattern::Inst split{Pattern::Op::Split};
        split.x = splitAt + 1;
        p_.prog_.push_back(split);
      }
      if (!compileSeq(alts[k], depth + 1))
        return false;
      if (!last) {
        jumpsToEnd.push_back(size());
        p_.prog_.push_back({Pattern::Op::Jmp});
        p_.prog_[splitAt].y = size();
      }
    }
    for (uint32_t j : jumpsToEnd)
      p_.prog_[j].x = size();
    p_.literal_ = false;
    return true;
  }
};

std::optional<Pattern> Pattern::compile(std::string_view text, std::string &error) {
  if (text.size() > kMaxPatternLength) {
    error = "longer than " + std::to_string(kMaxPatternLength) + " characters";
    return std::nullopt;
  }
  if (text.find('\0') != std::string_view::npos) {
    error = "contains a NUL character";
    return std::nullopt;
  }
  Pattern p;
  p.text_ = std::string(text);
  p.literal_ = true;
  PatternCompiler c(p, error);
  if (!c.compileSeq(text, 0) || !c.finish())
    return std::nullopt;
  return p;
}

} // namespace qspec
