// `qcc import`: the subcommand that turns the vendor files a team already has (msModelSlim
// practices, AMCT .cfg) into one .qspec (driver/qcc/import/ holds the importers).
#pragma once

#include "ir/Diagnostics.h"

#include <string>
#include <vector>

namespace qspec::driver {

// What one import reads and how (qcc import's command line).
struct ImportOptions {
  std::vector<std::string> files; // the vendor files, the first one's rules standing
  std::string inventory;          // "" none
  std::string kind;               // msmodelslim | amct | hmct | horizon; "" detected per file
  std::string output;             // the spec's path ("": standard output, named imported.qspec)
  bool roundtrip = false;         // the --roundtrip rows (needs an inventory)
};

// The import itself, printing and writing nothing: returns the spec's text (what `qcc import`
// prints or writes; "" after an error), reports into `diags`, and appends the --roundtrip rows to
// `rows`. The emitters must be registered. qcc import and the Python module's qspec.import_file
// both run this.
std::string importSpec(const ImportOptions &o, DiagnosticEngine &diags, std::string &rows);

// Runs `qcc import ARGS...`; argv[0] is "import". Returns the process exit code.
int runImport(int argc, char **argv);

} // namespace qspec::driver
