// The kinds of file qspec's tools read (a .qspec spec or one vendor's config) and how a file's
// kind is told from its name and content: qlint lints by kind, `qcc import` imports by kind.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace qspec::vendors {

// Any: in a table of what applies to which file (qlint's rules), every kind.
// CompressedTensors: an llm-compressor recipe or a compressed-tensors quantization_config.
enum class FileKind : uint8_t { QSpec, MsModelSlim, Amct, Hmct, CompressedTensors, Any, Unknown };

// Detects the kind of `path` from its extension and, for .yaml/.json/.cfg, its content.
FileKind detectFileKind(const std::string &path, std::string_view text);

// The kind of text without a file name (standard input without --stdin-filename), from the
// content checks detectFileKind makes: HMCT keys in a JSON object, a .qspec's first keyword,
// msModelSlim's apiversion, an llm-compressor modifier, an AMCT `field:` or `message {`.
FileKind detectContentKind(std::string_view text);

// The target kind whose reader reads `path` ("msmodelslim", "amct", "hmct", "llm-compressor", or
// "horizon" for a .py QconfigSetter file), from detectFileKind; "" for any other file.
std::string vendorTargetKind(const std::string &path, std::string_view text);

} // namespace qspec::vendors
