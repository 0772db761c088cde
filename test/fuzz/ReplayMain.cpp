// A main() for qspec_fuzz in builds without libFuzzer (the normal and sanitizer builds): replays
// a corpus through the targets, so a fixed crash stays fixed under gcc's ASan/UBSan too.
//
//   qspec_fuzz CORPUS                  every target on every file under CORPUS/<target>/
//   qspec_fuzz --target=NAME PATH...   one target on the files named, and the files under the
//                                      folders named
//   qspec_fuzz --list                  the targets, one per line
//
// ctest runs the first form on test/fuzz/corpus (fuzz-replay). A corpus folder without a target,
// or a target without a corpus folder, is an error: the table and the seeds stay in step.
#include "Targets.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

using namespace qspec::fuzz;
namespace fs = std::filesystem;

namespace {

// The regular files named, and those under the folders named, sorted.
std::vector<std::string> collectFiles(const std::vector<std::string> &paths) {
  std::vector<std::string> files;
  for (const std::string &p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      for (const auto &e : fs::recursive_directory_iterator(p, ec))
        if (e.is_regular_file())
          files.push_back(e.path().string());
    } else {
      files.push_back(p);
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Runs `t` on each file; 0 when every file was read (a crash does not return).
int replay(const Target &t, const std::vector<std::string> &files) {
  if (files.empty()) {
    std::fprintf(stderr, "replay: %s: no input files\n", t.name);
    return 2;
  }
  if (t.init)
    t.init();
  for (const std::string &f : files) {
    std::ifstream in(f, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "replay: %s: cannot read %s\n", t.name, f.c_str());
      return 2;
    }
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    t.run(reinterpret_cast<const uint8_t *>(data.data()), data.size(), t.fileName);
  }
  std::printf("replay: %s: %zu inputs, no crash\n", t.name, files.size());
  return 0;
}

int replayCorpus(const fs::path &root) {
  int rc = 0;
  std::set<std::string> known;
  for (const Target &t : targets()) {
    known.insert(t.name);
    fs::path folder = root / t.name;
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) {
      std::fprintf(stderr, "replay: %s: no corpus folder %s\n", t.name, folder.string().c_str());
      rc = 2;
      continue;
    }
    rc |= replay(t, collectFiles({folder.string()}));
  }
  std::error_code ec;
  for (const auto &e : fs::directory_iterator(root, ec))
    if (e.is_directory() && !known.count(e.path().filename().string())) {
      std::fprintf(stderr, "replay: %s has no target\n", e.path().string().c_str());
      rc = 2;
    }
  if (ec) {
    std::fprintf(stderr, "replay: cannot list %s\n", root.string().c_str());
    rc = 2;
  }
  return rc;
}

} // namespace

int main(int argc, char **argv) {
  std::string_view first = argc > 1 ? argv[1] : "";
  if (first == "--list") {
    printTargets(stdout);
    return 0;
  }
  if (std::optional<std::string_view> name = targetArgument(first)) {
    const Target *t = findTarget(*name);
    if (!t) {
      std::fprintf(stderr, "replay: no such target '%.*s'\n", static_cast<int>(name->size()),
                   name->data());
      return 2;
    }
    return replay(*t, collectFiles(std::vector<std::string>(argv + 2, argv + argc)));
  }
  if (argc != 2) {
    std::fprintf(stderr, "usage: qspec_fuzz CORPUS | --target=NAME PATH... | --list\n");
    return 2;
  }
  return replayCorpus(argv[1]);
}
