// The fuzz targets: each takes one input and must return normally for any bytes. A bad model
// or bad .npy is expected and ends in ModelError, which the target swallows; any other exception,
// crash or sanitizer report is a finding. The same functions back the libFuzzer binaries (clang,
// tests/fuzz/CMakeLists.txt) and the regression replay suite (tests/fuzz/suites.cmake).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tfjsi::fuzz {

using Target = int (*)(const std::uint8_t* data, std::size_t size);

// model.json text: JSON parse with the depth guard, top-level fields, weights manifest.
int model_json(const std::uint8_t* data, std::size_t size);
// model.json text, a NUL byte, then shard files separated by kShardSeparator; written to a
// temporary folder as model.json, 0.bin, 1.bin, ... and opened with load_bundle.
int bundle(const std::uint8_t* data, std::size_t size);
// A graph model's model.json: GraphDef attribute decoding, import, topological sort, shapes.
int graphdef(const std::uint8_t* data, std::size_t size);
// A layers model's model.json: Keras config reading and lowering, topological sort, shapes.
int keras(const std::uint8_t* data, std::size_t size);
// .npy bytes, read from memory.
int npy(const std::uint8_t* data, std::size_t size);

inline constexpr std::string_view kShardSeparator{"\0SHARD\0", 7};

// The target called `name` ("model_json", "bundle", ...), or nullptr.
Target find_target(std::string_view name);

}  // namespace tfjsi::fuzz
