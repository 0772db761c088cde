// What qcc and qtune share when they write every target of a spec into one folder: the name of
// each target's file. One rule for both tools, so a configuration qtune hands its evaluator
// carries the names `qcc --emit=all` writes.
#pragma once

#include "emitters/Emitter.h"

#include <string>

namespace qspec::driver {

// The emitter's own file name when it sets one, else SPECSTEM + the target's extension.
std::string outputFileName(const emit::EmitResult &r, const std::string &specStem);

// False for a name that would leave the folder (a '/', '\', ".", "..", NUL, empty).
bool safeFileName(const std::string &name);

} // namespace qspec::driver
