// Fuzz targets: one inventory reader each. The reader is chosen by file name (the target's file
// name in Targets.cpp: *.safetensors, *.index.json, *.onnx, or a manifest), so the input is written
// to a temporary file of that name and read through readInventory(), the same entry point qcc and
// qlint use. A block pattern is then assigned, as the frontend does.
#include "FuzzSupport.h"
#include "Targets.h"

#include "frontend/readers/Readers.h"

#include <cstdlib>

using namespace qspec;

void fuzz::runInventory(const uint8_t *data, size_t size, const char *fileName) {
  std::string path = fuzz::TempDir::get().write(fileName, data, size);
  if (path.empty())
    return;
  SourceManager sm;
  DiagnosticEngine diags(sm);
  ir::Inventory inv;
  readers::ReaderLimits limits;
  limits.maxFileBytes = 4u << 20;
  limits.maxModules = 100000;
  limits.maxSafetensorsHeader = 4u << 20;
  limits.maxOnnxBytes = 4u << 20;
  bool ok = readers::readInventory(path, inv, diags, SourceRange{}, limits);
  if (ok) {
    if (diags.hasErrors())
      std::abort(); // success with errors reported is a contract violation
    if (inv.modules.size() > limits.maxModules)
      std::abort();
    std::string err;
    static const std::optional<Pattern> blocks = Pattern::compile("model.layers.{i}", err);
    readers::assignBlocks(inv, *blocks);
    for (const ir::Module &m : inv.modules)
      if (inv.find(m.name) != &m)
        std::abort(); // the index must agree with the module list (no duplicates)
  } else if (!diags.hasErrors()) {
    std::abort(); // failure must be explained
  }
  fuzz::renderAll(diags);
}
