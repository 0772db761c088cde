// `qcc diff`: what a change to a spec or an inventory does to the model, module by module, and to
// each emitted file (driver/diff/ holds the comparison and its renderings, shared with qtune;
// driver/qcc/diff/ the vendor-file sides).
#pragma once

namespace qspec::driver {

// Runs `qcc diff ARGS...`; argv[0] is "diff". Returns the process exit code: 0 the two sides
// mean the same for every target, 1 they differ, 2 an error.
int runDiff(int argc, char **argv);

} // namespace qspec::driver
