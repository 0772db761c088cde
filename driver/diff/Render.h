// The three renderings of a DiffResult (`qcc diff --format=text|json|markdown`); see docs/cli.md.
#pragma once

#include "driver/diff/Compare.h"

#include <iosfwd>

namespace qspec::driver::diff {

struct RenderOptions {
  bool color = false;     // text: ANSI colours
  size_t maxPatterns = 8; // text and Markdown: patterns shown per group (JSON: all)
};

void renderText(const DiffResult &d, const RenderOptions &o, std::ostream &os);
void renderJSON(const DiffResult &d, std::ostream &os);
void renderMarkdown(const DiffResult &d, const RenderOptions &o, std::ostream &os);

// The difference in one Markdown table cell (a row of `qtune report`), in renderMarkdown's words:
// the summary line, then a line per group of at most `maxGroups` groups ("and N more groups"
// after them), joined by "<br>": "`PATTERNS` (N modules): FIELD `BEFORE` → `AFTER`, ..." for a
// change, "`PATTERNS` (N modules): appear, TIER" / "disappear, TIER" for presence.
std::string renderMarkdownCell(const DiffResult &d, const RenderOptions &o, size_t maxGroups);

// "3 modules change (tier 2, act.method 1), 0 appear, 0 disappear; 2 of 4 target files change"
std::string summaryLine(const DiffResult &d);

} // namespace qspec::driver::diff
