// The fuzz targets of this folder. They are linked into one binary, qspec_fuzz, which runs the
// target named by `--target=NAME` (LibFuzzerMain.cpp) or replays every target's corpus
// (ReplayMain.cpp). One binary instead of one per target: the libraries are linked once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string_view>
#include <vector>

namespace qspec::fuzz {

// Runs one input through one target. `fileName` is the name the input is written under, for the
// readers that choose a format by file name; other targets ignore it. A broken invariant aborts.
using RunFn = void (*)(const uint8_t *data, size_t size, const char *fileName);

struct Target {
  const char *name; // also the folder of its seeds: corpus/<name>/
  RunFn run;
  const char *fileName; // "" if the target writes no file
  void (*init)();       // once, before the first input; may be null
};

// Every target, in the order `--list` prints them.
const std::vector<Target> &targets();
// The target called `name`, or null.
const Target *findTarget(std::string_view name);
// NAME, if `arg` is `--target=NAME`; nothing for any other argument.
std::optional<std::string_view> targetArgument(std::string_view arg);
// Every target's name, one per line (`--list`).
void printTargets(std::FILE *out);

void runQspec(const uint8_t *data, size_t size, const char *fileName);
void initQspec();
void runPattern(const uint8_t *data, size_t size, const char *fileName);
void runInventory(const uint8_t *data, size_t size, const char *fileName);
void runScores(const uint8_t *data, size_t size, const char *fileName);
void runJsonQuickCheck(const uint8_t *data, size_t size, const char *fileName);
void runLint(const uint8_t *data, size_t size, const char *fileName);
void runLintYamlReader(const uint8_t *data, size_t size, const char *fileName);
void runLintJsonReader(const uint8_t *data, size_t size, const char *fileName);

} // namespace qspec::fuzz
