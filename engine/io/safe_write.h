// Writing a file the user named (or one in a folder the user named) without following what an
// attacker may have left there: the bytes go to a new temporary file beside it, which is then
// renamed over the name. A symlink already sitting at the name is replaced, never written through
// (`run --out DIR` used to overwrite the link's target: issue #25).
#pragma once

#include <filesystem>
#include <string_view>

namespace tfjsi::io {

// Replaces `file` with `bytes`. Throws std::runtime_error naming the file on any failure, and
// leaves no temporary behind.
void write_file_replacing(const std::filesystem::path& file, std::string_view bytes);

}  // namespace tfjsi::io
