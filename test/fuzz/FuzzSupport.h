// Shared helpers for the libFuzzer targets in this folder.
//
// Most readers take a file path (they choose the format by name and content), so a target writes
// each input to one temporary file per process, in a private directory removed at exit, and
// calls the path entry point. That keeps the fuzzers on the same code path as the tools.
#pragma once

#include "ir/Diagnostics.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <streambuf>
#include <string>
#include <sstream>
#include <string_view>
#include <vector>
#include <unistd.h>

namespace qspec::fuzz {

// A private directory under $TMPDIR (or /tmp), created on first use, removed with its files at
// exit.
class TempDir {
public:
  static TempDir &get() {
    static TempDir dir;
    return dir;
  }
  const std::string &path() const { return path_; }

  // Writes `data` to `<dir>/<name>` (replacing it) and returns the full path, "" on failure.
  std::string write(const std::string &name, const uint8_t *data, size_t size) {
    std::string p = path_ + "/" + name;
    FILE *f = std::fopen(p.c_str(), "wb");
    if (!f)
      return "";
    if (size && std::fwrite(data, 1, size, f) != size) {
      std::fclose(f);
      return "";
    }
    std::fclose(f);
    if (std::find(written_.begin(), written_.end(), p) == written_.end())
      written_.push_back(p);
    return p;
  }

  ~TempDir() {
    for (const std::string &p : written_)
      ::unlink(p.c_str());
    if (!path_.empty())
      ::rmdir(path_.c_str());
  }

private:
  TempDir() {
    const char *base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base && *base ? base : "/tmp") + "/qspec-fuzz-XXXXXX";
    if (char *d = ::mkdtemp(&tmpl[0]))
      path_ = d;
    else
      std::abort(); // the fuzzer cannot run without somewhere to write
  }
  std::string path_;
  std::vector<std::string> written_;
};

// An ostream that discards everything (renderers still run in full).
class NullStream : public std::ostream {
public:
  NullStream() : std::ostream(&buf_) {}

private:
  struct Buf : std::streambuf {
    int overflow(int c) override { return c; }
    std::streamsize xsputn(const char *, std::streamsize n) override { return n; }
  } buf_;
};

// Renders every diagnostic both ways, so the renderers see hostile text too, and checks the
// text rendering never lets a raw control byte through (besides newline).
inline void renderAll(DiagnosticEngine &diags) {
  NullStream null;
  diags.printJSON(null);
  for (const Diagnostic &d : diags.diagnostics()) {
    std::ostringstream os;
    renderDiagnosticText(os, diags.sourceManager(), d);
    for (char c : os.str()) {
      unsigned char u = static_cast<unsigned char>(c);
      if ((u < 0x20 && u != '\n') || u == 0x7f)
        std::abort(); // a control byte reached terminal output
    }
  }
}

} // namespace qspec::fuzz
