// Fuzz target: the readers' JSON quick check (frontend/readers/JsonQuickCheck.cpp). It may only
// ever say "certainly valid" for text the JSON library also accepts (well-formed, no key repeated
// in one object); anything else must be left to the library, whose messages are the diagnostics.
#include "Targets.h"

#include "frontend/readers/ReaderSupport.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

using namespace qspec::readers::detail;

void qspec::fuzz::runJsonQuickCheck(const uint8_t *data, size_t size, const char *) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  bool quick = jsonQuickCheck(text);
  uint32_t offset = 0;
  std::string reason;
  bool library = checkJsonWithLibrary(text, offset, reason);
  if (quick && !library)
    std::abort(); // the quick check accepted what the library rejects
  if (!library && reason.empty())
    std::abort(); // a rejection must say why
}
