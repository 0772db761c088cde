// libFuzzer's entry points for qspec_fuzz (QSPEC_FUZZ builds; libFuzzer supplies main()).
// libFuzzer ignores arguments that start with "--" and passes them on to the processes it forks,
// so the target is chosen by one:
//
//   qspec_fuzz --target=NAME [libFuzzer flags] [corpus folders]
//   qspec_fuzz --list                  the targets, one per line
#include "Targets.h"

#include <cstdio>
#include <cstdlib>
#include <string_view>

using namespace qspec::fuzz;

namespace {

const Target *selected = nullptr;

[[noreturn]] void usage(const char *why, std::string_view name = "") {
  std::fprintf(stderr, "qspec_fuzz: %s%.*s; run it with --target=NAME, one of:", why,
               static_cast<int>(name.size()), name.data());
  for (const Target &t : targets())
    std::fprintf(stderr, " %s", t.name);
  std::fprintf(stderr, "\n");
  std::exit(2);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  for (int i = 1; i < *argc; ++i) {
    std::string_view arg = (*argv)[i];
    if (arg == "--list") {
      printTargets(stdout);
      std::exit(0);
    }
    if (std::optional<std::string_view> name = targetArgument(arg)) {
      selected = findTarget(*name);
      if (!selected)
        usage("no such target: ", *name);
    }
  }
  if (!selected)
    usage("no target named");
  if (selected->init)
    selected->init();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  selected->run(data, size, selected->fileName);
  return 0;
}
