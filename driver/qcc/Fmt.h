// `qcc fmt`: the subcommand that prints, rewrites or checks the canonical layout of .qspec files
// (frontend/Format.h decides the layout).
#pragma once

namespace qspec::driver {

// Runs `qcc fmt ARGS...`; argv[0] is "fmt". Returns the process exit code.
int runFmt(int argc, char **argv);

} // namespace qspec::driver
