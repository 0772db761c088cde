// qspec-lsp: the Language Server Protocol server for .qspec files, over standard input/output.
//
//   qspec-lsp [--stdio] [--inventory FILE] [--scores FILE] [--debounce-ms=N] [--root=DIR]
//
// Diagnostics are qlint's (parse, every pass, every rule); hover, definition, completion,
// formatting (qcc fmt), document symbols and quick fixes: docs/editors.md.
#include "driver/lsp/Server.h"
#include "emitters/Emitter.h"

#include <iostream>
#include <string>

using namespace qspec;

int main(int argc, char **argv) {
  lsp::ServerOptions opts;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::cout << "usage: qspec-lsp [--stdio] [--inventory FILE] [--scores FILE] "
                   "[--debounce-ms=N] [--root=DIR]\n"
                   "  a language server for .qspec files on standard input and output\n";
      return 0;
    }
    if (a == "--version") {
      std::cout << "qspec-lsp (qspec) 0.1.0\n";
      return 0;
    }
    if (a == "--stdio")
      continue;
    if (a.rfind("--debounce-ms=", 0) == 0) {
      // How long edits must pause before they are checked (docs/editors.md); tests set it.
      std::string v = a.substr(14);
      if (v.empty() || v.size() > 6 || v.find_first_not_of("0123456789") != std::string::npos) {
        std::cerr << "qspec-lsp: error: --debounce-ms wants milliseconds, not '"
                  << sanitizeForTerminal(v) << "'\n";
        return 2;
      }
      opts.debounceMs = std::stoi(v);
      continue;
    }
    if (a.rfind("--root=", 0) == 0) {
      opts.root = a.substr(7);
      continue;
    }
    if ((a == "--inventory" || a == "--scores") && i + 1 < argc) {
      (a == "--inventory" ? opts.inventory : opts.scores) = argv[++i];
      continue;
    }
    std::cerr << "qspec-lsp: error: unknown argument '" << sanitizeForTerminal(a) << "'\n";
    return 2;
  }
  emit::registerAllEmitters();
  std::ios::sync_with_stdio(false);
  opts.inputFd = 0;
  return lsp::serve(std::cin, std::cout, opts);
}
