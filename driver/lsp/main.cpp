// qspec-lsp: the Language Server Protocol server for .qspec files, over standard input/output.
//
//   qspec-lsp [--stdio] [--inventory FILE] [--scores FILE] [--debounce-ms=N] [--root=DIR]
//             [--time-budget-ms=N] [--memory-budget-mb=N] [--max-document-bytes=N]
//
// Diagnostics are qlint's (parse, every pass, every rule); hover, definition, completion,
// formatting (qcc fmt), document symbols and quick fixes: docs/editors.md.
#include "driver/lsp/Server.h"
#include "emitters/Emitter.h"
#include "ir/Cli.h"

#include <iostream>
#include <string>

using namespace qspec;

int main(int argc, char **argv) {
  lsp::ServerOptions opts;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::cout
          << "usage: qspec-lsp [--stdio] [--inventory FILE] [--scores FILE] [--debounce-ms=N]\n"
             "                 [--root=DIR] [--time-budget-ms=N] [--memory-budget-mb=N]\n"
             "                 [--max-document-bytes=N]\n"
             "\n"
             "A language server for .qspec files, speaking the Language Server Protocol on\n"
             "standard input and output: diagnostics from qcc's passes and qlint's rules with\n"
             "quick fixes, hover with --explain, completion of module names, formatting with\n"
             "qcc fmt. Editors start it: the VS Code extension, Neovim's built-in client.\n"
             "\n"
             "options:\n"
             "  --stdio           talk over standard input and output (the only transport)\n"
             "  --inventory FILE  read FILE as every spec's module inventory (as qcc and qlint)\n"
             "  --scores FILE     read FILE as every spec's sensitivity scores (as qcc and qlint)\n"
             "  --debounce-ms=N   check an edited document once no edit has come for N ms\n"
             "                    (default 100): a burst of edits gives one check\n"
             "  --root=DIR        confine includes and input files to DIR (default: the\n"
             "                    workspace root the client names)\n"
             "  --time-budget-ms=N      stop a check or request after N ms and answer with an\n"
             "                          error (default 0: none)\n"
             "  --memory-budget-mb=N    stop a check or request once the server uses more than\n"
             "                          N MiB (default 0: none)\n"
             "  --max-document-bytes=N  do not check a document over N bytes (default 16 MiB)\n"
             "  --version         print the version and exit\n"
             "  -h, --help        print this help and exit\n";
      return 0;
    }
    if (a == "--version") {
      std::cout << versionLine("qspec-lsp") << "\n";
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
    if (a.rfind("--time-budget-ms=", 0) == 0 || a.rfind("--memory-budget-mb=", 0) == 0 ||
        a.rfind("--max-document-bytes=", 0) == 0) {
      // Budgets per check and request (docs/editors.md); 0 = none.
      size_t eq = a.find('=');
      std::string v = a.substr(eq + 1);
      if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos) {
        std::cerr << "qspec-lsp: error: " << a.substr(0, eq) << " wants a number, not '"
                  << sanitizeForTerminal(v) << "'\n";
        return 2;
      }
      int n = std::stoi(v);
      if (a[2] == 't')
        opts.timeBudgetMs = n;
      else if (a[3] == 'e')
        opts.memoryBudgetMb = n;
      else
        opts.maxDocumentBytes = static_cast<size_t>(n);
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
