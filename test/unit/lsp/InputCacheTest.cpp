// qspec-lsp's inventory/scores cache (driver/lsp/InputCache.h): a file read once is not read
// again while it is unchanged on disk, and a change on disk (content, size or time) is what the
// next check sees.
#include "driver/lsp/InputCache.h"
#include "driver/lsp/Workspace.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/time.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace qspec;

namespace {

std::string cacheTempDir() {
  char tmpl[] = "/tmp/qspec-inputcache-XXXXXX";
  const char *d = mkdtemp(tmpl);
  EXPECT_TRUE(d);
  return d ? d : "/tmp";
}

// Writes `text` to `path` and dates it `secondsAgo` in the past (an old file is kept by the
// cache; one modified within the last second is not).
void writeOld(const std::string &path, const std::string &text, int secondsAgo) {
  std::ofstream(path, std::ios::binary) << text;
  struct timeval now;
  gettimeofday(&now, nullptr);
  struct timeval times[2] = {{now.tv_sec - secondsAgo, 0}, {now.tv_sec - secondsAgo, 0}};
  ASSERT_EQ(utimes(path.c_str(), times), 0);
}

const char *kTwo = "model.layers.0.mlp Linear\nlm_head Linear\n";
const char *kTwoOther = "model.layers.0.mlp Linear\nlm_tail Linear\n"; // same size

std::vector<std::string> names(const ir::Inventory &inv) {
  std::vector<std::string> out;
  for (const ir::Module &m : inv.modules)
    out.push_back(m.name);
  return out;
}

} // namespace

TEST(LspInputCache, KeepsAnUnchangedFileAndRereadsAChangedOne) {
  std::string dir = cacheTempDir(), inv = dir + "/m.manifest";
  writeOld(inv, kTwo, 100);
  lsp::InputCache cache;
  SourceManager sm;
  DiagnosticEngine diags(sm);
  ir::Inventory a, b, c;
  ASSERT_TRUE(cache.readInventory(inv, a, diags, {}, {}));
  ASSERT_TRUE(cache.readInventory(inv, b, diags, {}, {}));
  EXPECT_EQ(cache.reads(), 1u);
  EXPECT_EQ(names(b), names(a));
  EXPECT_NE(b.find("lm_head"), nullptr);

  writeOld(inv, kTwoOther, 50); // same size, other time
  ASSERT_TRUE(cache.readInventory(inv, c, diags, {}, {}));
  EXPECT_EQ(cache.reads(), 2u);
  EXPECT_EQ(c.find("lm_head"), nullptr);
  EXPECT_NE(c.find("lm_tail"), nullptr);
  EXPECT_TRUE(diags.diagnostics().empty());
}

TEST(LspInputCache, DoesNotKeepARecentFileOrAReadWithDiagnostics) {
  std::string dir = cacheTempDir(), inv = dir + "/m.manifest";
  std::ofstream(inv, std::ios::binary) << kTwo; // modified now
  lsp::InputCache cache;
  SourceManager sm;
  DiagnosticEngine diags(sm);
  ir::Inventory a;
  ASSERT_TRUE(cache.readInventory(inv, a, diags, {}, {}));
  ASSERT_TRUE(cache.readInventory(inv, a, diags, {}, {}));
  EXPECT_EQ(cache.reads(), 2u);
  writeOld(inv, std::string("lm_head Linear\n\0\n", 16), 100); // a NUL byte: an error
  size_t before = diags.diagnostics().size();
  cache.readInventory(inv, a, diags, {}, {});
  cache.readInventory(inv, a, diags, {}, {});
  EXPECT_EQ(cache.reads(), 4u);
  EXPECT_GT(diags.diagnostics().size(), before);
}

// Through the server's workspace: a check after the inventory changed on disk resolves against
// the new file (a pattern that selected `lm_head` now selects nothing).
TEST(LspInputCache, TheNextCheckSeesTheChangedInventory) {
  std::string dir = cacheTempDir(), inv = dir + "/m.manifest", spec = dir + "/s.qspec";
  writeOld(inv, kTwo, 100);
  std::string text = "qspec 1\n\nmodel \"m\" {\n  inventory \"m.manifest\"\n}\n\n"
                     "tiers int8 < int16\n\ndefaults { tier int8 }\n\n"
                     "override name \"lm_head\" { tier int16 }\n";
  std::ofstream(spec) << text;
  lsp::Workspace ws({});
  auto lmHeadFindings = [&](lsp::Document &d) {
    size_t n = 0;
    for (const Diagnostic &f : ws.check(d).findings)
      n += f.message.find("lm_head") != std::string::npos;
    return n;
  };
  lsp::Document &d = ws.open("file://" + spec, spec, text, 1);
  EXPECT_EQ(lmHeadFindings(d), 0u);
  EXPECT_NE(ws.model(d).spec.inventory.find("lm_head"), nullptr);
  ws.change(d, text, 2);
  EXPECT_EQ(lmHeadFindings(d), 0u);

  writeOld(inv, kTwoOther, 50);
  ws.change(d, text, 3);
  EXPECT_GT(lmHeadFindings(d), 0u);
  EXPECT_EQ(ws.model(d).spec.inventory.find("lm_head"), nullptr);
  EXPECT_NE(ws.model(d).spec.inventory.find("lm_tail"), nullptr);
}
