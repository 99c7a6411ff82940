#include "bundle_files.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace tfjsi::test {
namespace {

template <class T>
std::string raw_bytes(std::initializer_list<T> values) {
  std::string out;
  for (T v : values) {
    char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));  // the test host is little-endian, like the shards
    out.append(b, sizeof(T));
  }
  return out;
}

}  // namespace

std::string f32_bytes(std::initializer_list<float> v) {
  return raw_bytes(v);
}
std::string i32_bytes(std::initializer_list<std::int32_t> v) {
  return raw_bytes(v);
}
std::string u16_bytes(std::initializer_list<std::uint16_t> v) {
  return raw_bytes(v);
}
std::string u8_bytes(std::initializer_list<std::uint8_t> v) {
  return raw_bytes(v);
}

std::string string_bytes(std::initializer_list<std::string_view> values) {
  std::string out;
  for (auto s : values) {
    out += raw_bytes({static_cast<std::uint32_t>(s.size())});
    out += s;
  }
  return out;
}

void write_file(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

void write_json(const std::filesystem::path& path, const nlohmann::json& j) {
  write_file(path, j.dump(1));
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

nlohmann::json read_json(const std::filesystem::path& path) {
  return nlohmann::json::parse(read_file(path));
}

nlohmann::json graph_model_json(nlohmann::json manifest) {
  return {{"format", "graph-model"},
          {"generatedBy", "2.9.1"},
          {"convertedBy", "TensorFlow.js Converter v4.22.0"},
          {"modelTopology",
           {{"node", nlohmann::json::array()},
            {"library", nlohmann::json::object()},
            {"versions", {{"producer", 1395}}}}},
          {"weightsManifest", std::move(manifest)}};
}

nlohmann::json weight_entry(std::string name, nlohmann::json shape, std::string dtype) {
  return {{"name", std::move(name)}, {"shape", std::move(shape)}, {"dtype", std::move(dtype)}};
}

}  // namespace tfjsi::test
