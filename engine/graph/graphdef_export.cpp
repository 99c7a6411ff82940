#include "graph/graphdef_export.h"

#include <cmath>
#include <complex>
#include <type_traits>

namespace tfjsi::graph {
namespace {

using nlohmann::ordered_json;

std::string base64(std::string_view bytes) {
  static constexpr char kDigits[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) |
                       (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
    for (int k = 3; k >= 0; --k) out += kDigits[(v >> (6 * k)) & 63];
  }
  if (i < bytes.size()) {
    unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += kDigits[(v >> 18) & 63];
    out += kDigits[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? kDigits[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

// Protobuf's JSON writes non-finite floats as strings; attr_decode and TF.js read them back.
ordered_json float_json(float f) {
  if (std::isnan(f)) return "NaN";
  if (std::isinf(f)) return f > 0 ? "Infinity" : "-Infinity";
  return f;
}

ordered_json tensor_to_json(const HostTensor& t) {
  ordered_json j;
  j["dtype"] = tf_name(t.dtype);
  PartialShape shape{true, t.shape};
  j["tensorShape"] = shape_to_json(shape);
  ordered_json vals = ordered_json::array();
  switch (t.dtype) {
    case DType::Float32:
      for (float v : t.values<float>()) vals.push_back(float_json(v));
      j["floatVal"] = vals;
      break;
    case DType::Int32:
      for (std::int32_t v : t.values<std::int32_t>()) vals.push_back(v);
      j["intVal"] = vals;
      break;
    case DType::Bool:
      for (std::uint8_t v : t.values<std::uint8_t>()) vals.push_back(v != 0);
      j["boolVal"] = vals;
      break;
    case DType::String:
      for (const auto& s : *t.strings) vals.push_back(base64(s));
      j["stringVal"] = vals;
      break;
    case DType::Complex64:  // the parts in turn, as attr_decode reads them
      for (const auto& v : t.values<std::complex<float>>()) {
        vals.push_back(float_json(v.real()));
        vals.push_back(float_json(v.imag()));
      }
      j["scomplexVal"] = vals;
      break;
  }
  return j;
}

}  // namespace

nlohmann::ordered_json shape_to_json(const PartialShape& shape) {
  ordered_json j = ordered_json::object();
  if (!shape.rank_known) {
    j["unknownRank"] = true;
    return j;
  }
  ordered_json dims = ordered_json::array();
  for (std::int64_t d : shape.dims) dims.push_back({{"size", std::to_string(d)}});
  if (!dims.empty()) j["dim"] = dims;
  return j;
}

nlohmann::ordered_json attr_to_json(const AttrValue& value) {
  return std::visit(
      [](const auto& v) -> ordered_json {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::int64_t>) {
          return {{"i", std::to_string(v)}};
        } else if constexpr (std::is_same_v<T, float>) {
          return {{"f", float_json(v)}};
        } else if constexpr (std::is_same_v<T, bool>) {
          return {{"b", v}};
        } else if constexpr (std::is_same_v<T, std::string>) {
          return {{"s", base64(v)}};
        } else if constexpr (std::is_same_v<T, TypeAttr>) {
          return {{"type", v.tf}};
        } else if constexpr (std::is_same_v<T, PartialShape>) {
          return {{"shape", shape_to_json(v)}};
        } else if constexpr (std::is_same_v<T, HostTensor>) {
          return {{"tensor", tensor_to_json(v)}};
        } else if constexpr (std::is_same_v<T, FuncAttr>) {
          return {{"func", {{"name", v.name}}}};
        } else {
          // Lists: {"list": {"i": [...]}}; an empty list is {"list": {}}.
          ordered_json items = ordered_json::array();
          std::string key;
          for (const auto& e : v) {
            using E = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<E, std::int64_t>) {
              key = "i";
              items.push_back(std::to_string(e));
            } else if constexpr (std::is_same_v<E, float>) {
              key = "f";
              items.push_back(float_json(e));
            } else if constexpr (std::is_same_v<E, bool>) {
              key = "b";
              items.push_back(static_cast<bool>(e));
            } else if constexpr (std::is_same_v<E, std::string>) {
              key = "s";
              items.push_back(base64(e));
            } else if constexpr (std::is_same_v<E, TypeAttr>) {
              key = "type";
              items.push_back(e.tf);
            } else if constexpr (std::is_same_v<E, PartialShape>) {
              key = "shape";
              items.push_back(shape_to_json(e));
            } else if constexpr (std::is_same_v<E, HostTensor>) {
              key = "tensor";
              items.push_back(tensor_to_json(e));
            } else {
              key = "func";
              items.push_back({{"name", e.name}});
            }
          }
          ordered_json list = ordered_json::object();
          if (!key.empty()) list[key] = items;
          return {{"list", list}};
        }
      },
      value);
}

std::string tensor_name(const std::string& name, int output) {
  return output == 0 ? name : name + ":" + std::to_string(output);
}

}  // namespace tfjsi::graph
