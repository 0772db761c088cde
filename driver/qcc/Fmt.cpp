// qcc fmt [--check | -i] FILE...
//
//   (default)  print the formatted text of each FILE to standard output ('-' reads stdin)
//   -i         rewrite each FILE in place (atomically, only when it changes)
//   --check    change nothing; exit 1 and name every FILE that is not formatted
//
// Exit codes: 0 success (or already formatted), 1 a file does not parse or is not formatted,
// 2 usage.
#include "driver/qcc/Fmt.h"

#include "emitters/Emitter.h"
#include "frontend/Format.h"

#include <iostream>
#include <iterator>

namespace qspec::driver {
namespace {

const char *kFmtUsage = R"(usage: qcc fmt [--check | -i] FILE...

  (no option)   print the formatted text of each FILE ('-' reads standard input)
  -i            rewrite each FILE in place when its layout changes
  --check       change nothing; exit 1 and name each FILE that is not formatted
)";

struct FmtOptions {
  bool check = false, inPlace = false;
  std::vector<std::string> files;
};

int fmtUsageError(const std::string &msg) {
  std::cerr << "qcc fmt: error: " << msg << "\n" << kFmtUsage;
  return 2;
}

// Loads one file (or stdin for "-") into `sm`; 0 when unreadable (reported).
FileID loadInput(const std::string &path, DiagnosticEngine &diags) {
  SourceManager &sm = diags.sourceManager();
  if (path == "-")
    return sm.addFile("<stdin>", std::string(std::istreambuf_iterator<char>(std::cin), {}));
  std::string err;
  FileID f = sm.loadFile(path, err, frontend::ParseLimits{}.maxFileBytes);
  if (!f)
    diags.report(DiagID::err_cannot_open_file, SourceRange{}, {path, err});
  return f;
}

// Formats one file as the options say; returns false on an error or (with --check) a change.
bool fmtOne(const std::string &path, const FmtOptions &o, DiagnosticEngine &diags) {
  FileID f = loadInput(path, diags);
  std::string out;
  if (!f || !frontend::formatSpec(f, diags, out))
    return false;
  const std::string &before = diags.sourceManager().text(f);
  if (o.check) {
    if (out == before)
      return true;
    diags.report(DiagID::err_not_formatted, SourceRange::point(f, 1, 1), {path});
    return false;
  }
  if (!o.inPlace || path == "-") {
    std::cout << out;
    return true;
  }
  if (out == before)
    return true;
  std::string err;
  if (!emit::writeFileAtomically(path, out, err)) {
    diags.report(DiagID::err_cannot_write_output, SourceRange{}, {path, err});
    return false;
  }
  return true;
}

} // namespace

int runFmt(int argc, char **argv) {
  FmtOptions o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::cout << kFmtUsage;
      return 0;
    }
    if (a == "--check")
      o.check = true;
    else if (a == "-i" || a == "--in-place")
      o.inPlace = true;
    else if (!a.empty() && a[0] == '-' && a != "-")
      return fmtUsageError("unknown option '" + sanitizeForTerminal(a) + "'");
    else
      o.files.push_back(a);
  }
  if (o.files.empty())
    return fmtUsageError("no input file");
  if (o.check && o.inPlace)
    return fmtUsageError("--check and -i exclude each other");
  SourceManager sm;
  DiagnosticEngine diags(sm);
  diags.setErrorLimit(0);
  bool ok = true;
  for (const std::string &path : o.files)
    ok = fmtOne(path, o, diags) && ok;
  diags.printText(std::cerr);
  return ok ? 0 : 1;
}

} // namespace qspec::driver
