// qspec-lsp: the Language Server Protocol server for .qspec files, over standard input/output.
//
//   qspec-lsp [--stdio] [--inventory FILE] [--scores FILE]
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
      std::cout << "usage: qspec-lsp [--stdio] [--inventory FILE] [--scores FILE]\n"
                   "  a language server for .qspec files on standard input and output\n";
      return 0;
    }
    if (a == "--version") {
      std::cout << "qspec-lsp (qspec) 0.1.0\n";
      return 0;
    }
    if (a == "--stdio")
      continue;
    if ((a == "--inventory" || a == "--scores") && i + 1 < argc) {
      (a == "--inventory" ? opts.inventory : opts.scores) = argv[++i];
      continue;
    }
    std::cerr << "qspec-lsp: error: unknown argument '" << sanitizeForTerminal(a) << "'\n";
    return 2;
  }
  emit::registerAllEmitters();
  std::ios::sync_with_stdio(false);
  return lsp::serve(std::cin, std::cout, opts);
}
