// Writing an output file whose bytes are made while they are written (`qcc --emit=ir -o`): the
// same safety as emit::writeFileAtomically (emitters/Emitter.h, docs/limits.md "Output safety").
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace qspec::emit {

// `produce` calls its argument with each chunk in order (the call returns false once a write
// failed; `produce` then stops and returns false, as it does for an error of its own). Only one
// chunk is held at a time. Where `path` is absent or a regular file the chunks go to a temporary
// file that is fsynced and renamed over it, so a failure anywhere leaves nothing behind (the old
// file stays); a device, a FIFO and `-` (stdout) are written directly.
using ChunkSink = std::function<bool(std::string_view)>;

// A regular file's bytes are handed to the disk in stretches of this size while the rest is
// still being made (a hint to the kernel; the fsync at the end still decides), so the final
// fsync waits for the last stretch, not for the whole file.
constexpr size_t kWritebackStretch = size_t(8) << 20;
bool writeFileStreamed(const std::string &path,
                       const std::function<bool(const ChunkSink &)> &produce, std::string &error);

// Writes `data` atomically as `name` (one path component) in the folder open at `dirFd`, never
// through a link: a symbolic link (or anything but a regular file) at `name` is refused, and the
// new file replaces the name itself (renameat, which never follows a link), so a link planted
// between the check and the rename is replaced, not written through. The new file has mode 0644
// less the umask. Used for files in a folder the tool owns (qtune's work directory).
bool writeFileAt(int dirFd, const std::string &name, const std::string &data, std::string &error);

} // namespace qspec::emit
