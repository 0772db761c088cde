// `qcc import`: the subcommand that turns the vendor files a team already has (msModelSlim
// practices, AMCT .cfg) into one .qspec (driver/qcc/import/ holds the importers).
#pragma once

namespace qspec::driver {

// Runs `qcc import ARGS...`; argv[0] is "import". Returns the process exit code.
int runImport(int argc, char **argv);

} // namespace qspec::driver
