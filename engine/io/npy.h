// NumPy .npy files: the format tfjsi reads inputs from and writes outputs to.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "core/host_tensor.h"

namespace tfjsi::io {

// Reads a .npy file (format 1.0, 2.0 or 3.0, C order). Accepted element types: <f4, <f2 and <f8
// (become float32), <i4, and <i8, |u1, |i1, <i2, <u2 (become int32; <i8 values must fit), |b1
// (bool), <c8 and <c16 (become complex64). Throws ModelError naming the file and what is wrong with
// it, and for anything but a regular file (a directory, a FIFO: never waited on). Bytes after the
// data are ignored with a warning added to `warnings` when given.
HostTensor read_npy(const std::filesystem::path& file,
                    std::vector<std::string>* warnings = nullptr);
// The same from an open stream (a file or bytes in memory); `file` names it in errors.
HostTensor read_npy(std::istream& in, const std::filesystem::path& file,
                    std::vector<std::string>* warnings = nullptr);

// Writes `tensor` as NumPy format 1.0: <f4, <i4, |b1 or <c8. Throws std::runtime_error on I/O
// failure and for string tensors.
void write_npy(const std::filesystem::path& file, const HostTensor& tensor);

}  // namespace tfjsi::io
