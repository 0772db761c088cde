// The vendor-file sides of `qcc diff`; see Vendor.h.
#include "driver/qcc/diff/Vendor.h"

#include "vendors/FileKind.h"

#include <filesystem>

namespace qspec::driver::diff {

namespace fs = std::filesystem;

bool isSpecPath(const std::string &path) { return fs::path(path).extension() == ".qspec"; }

std::string vendorKind(const std::string &path, const std::string &text) {
  return vendors::vendorTargetKind(path, text);
}

std::string minimalSpecText(const std::string &kind) {
  std::string block = kind == "msmodelslim"      ? "msmodelslim { apiversion modelslim_v1 }"
                      : kind == "amct"           ? "amct ptq { framework pytorch }"
                      : kind == "llm-compressor" ? "llm-compressor { }"
                                                 : kind + " { march nash-p }";
  return "qspec 1\ntarget " + block + "\n";
}

namespace {

// The spec's target of `kind`; reported when it has none.
const ir::Target *targetOf(const Side &side, const std::string &kind, DiagnosticEngine &diags) {
  const ir::Target *t = side.spec->target(kind);
  if (!t) {
    FileID f = side.sm->find(side.spec->path);
    diags.report(DiagID::err_emit_no_target, f ? SourceRange::point(f, 1, 1) : SourceRange{},
                 {kind});
  }
  return t;
}

bool readThrough(const Side &side, const ir::Target &t, std::string_view bytes,
                 vendors::VendorReading &reading, DiagnosticEngine &diags) {
  vendors::ReadBack read = vendors::findReader(t.kind);
  if (!read) {
    diags.report(DiagID::err_internal, SourceRange{}, {"no reading for target " + t.kind});
    return false;
  }
  if (!read(*side.spec, t, bytes, reading, diags))
    return false;
  if (reading.modules.size() != side.spec->inventory.modules.size()) {
    diags.report(DiagID::err_internal, SourceRange{}, {"a reading without the inventory"});
    return false;
  }
  return true;
}

} // namespace

bool specThroughReading(Side &side, const std::string &kind, vendors::VendorReading &reading,
                        DiagnosticEngine &diags) {
  const ir::Target *t = targetOf(side, kind, diags);
  if (!t)
    return false;
  std::vector<emit::TargetFile> files =
      emit::buildTargets(*side.spec, {t}, diags, fs::path(side.spec->path).stem().string(), "DIR");
  if (files.empty() || diags.hasErrors())
    return false;
  side.files = std::move(files);
  side.reading = &reading;
  return readThrough(side, *t, side.files[0].bytes, reading, diags);
}

bool vendorFileSide(Side &side, const std::string &path, const std::string &kind,
                    const std::string &bytes, vendors::VendorReading &reading,
                    DiagnosticEngine &diags) {
  const ir::Target *t = targetOf(side, kind, diags);
  if (!t)
    return false;
  emit::TargetFile f;
  f.target = t;
  f.name = fs::path(path).filename().string();
  f.bytes = bytes;
  side.files = {std::move(f)};
  side.reading = &reading;
  side.readingFile = path;
  return readThrough(side, *t, bytes, reading, diags);
}

} // namespace qspec::driver::diff
