// Writing small bundles for the model tests, and reading shard bytes back independently of the
// loader.
#pragma once

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace tfjsi::test {

// Little-endian encodings of values as TF.js writes them into shards.
std::string f32_bytes(std::initializer_list<float> values);
std::string i32_bytes(std::initializer_list<std::int32_t> values);
std::string u16_bytes(std::initializer_list<std::uint16_t> values);
std::string u8_bytes(std::initializer_list<std::uint8_t> values);
// TF.js string tensor encoding: per element a 4-byte length, then the bytes.
std::string string_bytes(std::initializer_list<std::string_view> values);

void write_file(const std::filesystem::path& path, std::string_view bytes);
void write_json(const std::filesystem::path& path, const nlohmann::json& j);
std::string read_file(const std::filesystem::path& path);
nlohmann::json read_json(const std::filesystem::path& path);

// A minimal graph-model model.json with the given manifest.
nlohmann::json graph_model_json(nlohmann::json manifest);

// A manifest entry {name, shape, dtype}.
nlohmann::json weight_entry(std::string name, nlohmann::json shape, std::string dtype);

}  // namespace tfjsi::test
