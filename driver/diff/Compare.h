// The semantic difference of two compiled specs (`qcc diff`, `qtune report`'s rows): module by
// module, which resolved setting changed and which rule decided it on each side, grouped by
// identical change and named by the msModelSlim emitter's pattern compressor; and per target,
// whether the emitted file changes. Rendering (text, JSON, Markdown) is in Render.cpp.
#pragma once

#include "emitters/TargetStage.h"
#include "ir/IR.h"
#include "vendors/Reading.h"

#include <cstdint>
#include <string>
#include <vector>

namespace qspec::driver::diff {

// One side of the comparison: a spec resolved by the same passes as `qcc`, and the files its
// targets emit (every target of the spec, in the spec's order).
struct Side {
  std::string label; // as shown: the spec's path, or REV:path
  const ir::Spec *spec = nullptr;
  const SourceManager *sm = nullptr; // the spec's sources
  std::vector<emit::TargetFile> files;
  // A spec read at a git revision: the paths whose text came from it, shown as REV:path.
  std::string revision;
  std::vector<std::string> revisionFiles;
  // Compared through a vendor's reading (a vendor file, or a spec against one): the modules'
  // values are the reading's, for the fields it carries. With `readingFile` set the rule of a
  // value is the file's deciding entry; else (a spec's emitted file) the spec's rule.
  const vendors::VendorReading *reading = nullptr;
  std::string readingFile;
};

// The rule that decided a value: its kind (decisionSourceName) and where it is ("" file for a
// built-in value).
struct RuleRef {
  std::string kind, file;
  uint32_t line = 0, col = 0;
};

// One resolved setting whose value differs between the sides.
struct FieldChange {
  std::string field; // tier, weight.dtype, weight.scope, weight.symmetric, weight.method, act.*
  std::string before, after; // "unset" when no rule sets it
  RuleRef ruleBefore, ruleAfter;
};

// Modules with the same changes decided by the same rules on each side.
struct ChangeGroup {
  std::vector<FieldChange> fields;
  size_t count = 0;
  std::vector<std::string> patterns; // msModelSlim patterns selecting exactly these modules
};

// Modules present on one side only, with the tier they have there.
struct PresenceGroup {
  std::string tier;
  size_t count = 0;
  std::vector<std::string> patterns; // on the inventory of the side they are in
};

// One target (by kind) and its emitted file on each side.
struct TargetChange {
  std::string target;                // "msmodelslim", "amct ptq"
  std::string fileBefore, fileAfter; // file names; "" when the side has no such target
  bool changed = false;              // bytes or name differ, or the target is on one side only
  size_t linesAdded = 0, linesRemoved = 0; // lines of one file missing from the other (multiset)
};

struct DiffResult {
  std::string before, after; // the sides' labels
  size_t modulesBefore = 0, modulesAfter = 0, compared = 0, changedModules = 0;
  size_t appearedModules = 0, disappearedModules = 0;
  std::vector<ChangeGroup> changed; // in the order of each group's first module (after side)
  std::vector<PresenceGroup> appeared, disappeared;
  std::vector<std::pair<std::string, size_t>> fieldCounts; // field -> modules, in field order
  std::vector<TargetChange> targets;
  bool same() const;
};

// Compares the resolutions and emitted files of two sides. Modules are matched by name; the
// patterns of a group select exactly its modules in the inventory they are read on (the after
// side's for changed and appeared modules, the before side's for disappeared ones).
DiffResult compareSides(const Side &before, const Side &after);

} // namespace qspec::driver::diff
