// qspec-lsp's protocol side: reads JSON-RPC messages, answers them from the Workspace, publishes
// diagnostics after every open, change and save.
#pragma once

#include "driver/lsp/Workspace.h"

#include <iosfwd>

namespace qspec::lsp {

// Serves one client over `in`/`out` until `exit` or the end of the input. Returns the process
// exit code (0 after shutdown + exit, 1 otherwise, as the protocol says).
int serve(std::istream &in, std::ostream &out, const ServerOptions &opts);

// file:///a%20b/c.qspec <-> /a b/c.qspec ("" when the URI is not a file URI).
std::string uriToPath(const std::string &uri);
std::string pathToUri(const std::string &path);

} // namespace qspec::lsp
