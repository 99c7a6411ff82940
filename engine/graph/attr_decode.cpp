#include "graph/attr_decode.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/error.h"
#include "model/json_fields.h"
#include "model/limits.h"

namespace tfjsi::graph::detail {
namespace {

using nlohmann::json;

// TF's DataType numbering (types.proto), for attributes written as numbers.
constexpr std::array<std::string_view, 24> kTfTypeNames = {
    "DT_INVALID",    "DT_FLOAT",  "DT_DOUBLE",    "DT_INT32",   "DT_UINT8",   "DT_INT16",
    "DT_INT8",       "DT_STRING", "DT_COMPLEX64", "DT_INT64",   "DT_BOOL",    "DT_QINT8",
    "DT_QUINT8",     "DT_QINT32", "DT_BFLOAT16",  "DT_QINT16",  "DT_QUINT16", "DT_UINT16",
    "DT_COMPLEX128", "DT_HALF",   "DT_RESOURCE",  "DT_VARIANT", "DT_UINT32",  "DT_UINT64"};

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;
  if (c == '/' || c == '_') return 63;
  return -1;
}

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  std::uint32_t exp = (h >> 10) & 0x1fu;
  std::uint32_t mant = h & 0x3ffu;
  std::uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13);  // inf or NaN
  } else if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {
      // Subnormal half: renormalize into a normal float.
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while ((mant & 0x400u) == 0);
      bits = sign | ((112u - e) << 23) | ((mant & 0x3ffu) << 13);
    }
  } else {
    bits = sign | ((exp + 112u) << 23) | (mant << 13);
  }
  return std::bit_cast<float>(bits);
}

std::int32_t saturate_int32(std::int64_t v) {
  // int64 sentinels (StridedSlice ends of INT64_MAX) must stay "very large", not wrap.
  if (v > std::numeric_limits<std::int32_t>::max()) return std::numeric_limits<std::int32_t>::max();
  if (v < std::numeric_limits<std::int32_t>::min()) return std::numeric_limits<std::int32_t>::min();
  return static_cast<std::int32_t>(v);
}

const json* field(const json& j, std::string_view camel, std::string_view snake) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(camel);
  if (it != j.end()) return &*it;
  it = j.find(snake);
  if (it != j.end()) return &*it;
  return nullptr;
}

std::size_t tf_element_bytes(std::string_view t) {
  if (t == "DT_FLOAT" || t == "DT_INT32" || t == "DT_UINT32") return 4;
  if (t == "DT_DOUBLE" || t == "DT_INT64" || t == "DT_UINT64") return 8;
  if (t == "DT_HALF" || t == "DT_BFLOAT16" || t == "DT_INT16" || t == "DT_UINT16") return 2;
  if (t == "DT_UINT8" || t == "DT_INT8" || t == "DT_BOOL") return 1;
  return 0;
}

template <class T>
T load_le(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;  // the build targets little-endian hosts only, like TF.js's ArrayBuffers
}

// One element of tensorContent as a double (exact for every type TF.js narrows to).
double content_element(std::string_view t, const char* p) {
  if (t == "DT_FLOAT") return load_le<float>(p);
  if (t == "DT_DOUBLE") return load_le<double>(p);
  if (t == "DT_INT32") return load_le<std::int32_t>(p);
  if (t == "DT_UINT32") return load_le<std::uint32_t>(p);
  if (t == "DT_INT64") return static_cast<double>(saturate_int32(load_le<std::int64_t>(p)));
  if (t == "DT_UINT64")
    return static_cast<double>(saturate_int32(
        static_cast<std::int64_t>(std::min<std::uint64_t>(load_le<std::uint64_t>(p), 1ull << 62))));
  if (t == "DT_HALF") return half_to_float(load_le<std::uint16_t>(p));
  if (t == "DT_BFLOAT16")
    return std::bit_cast<float>(static_cast<std::uint32_t>(load_le<std::uint16_t>(p)) << 16);
  if (t == "DT_INT16") return load_le<std::int16_t>(p);
  if (t == "DT_UINT16") return load_le<std::uint16_t>(p);
  if (t == "DT_INT8") return load_le<std::int8_t>(p);
  if (t == "DT_UINT8") return static_cast<std::uint8_t>(*p);
  if (t == "DT_BOOL") return *p != 0 ? 1.0 : 0.0;
  return 0.0;
}

// The typed value list TF uses for each dtype, and how to read one entry of it.
double typed_value(std::string_view t, const json& v) {
  if (t == "DT_FLOAT" || t == "DT_DOUBLE") return json_float(v);
  if (t == "DT_BOOL") {
    if (!v.is_boolean()) throw ModelError("boolVal entry is not a boolean");
    return v.get<bool>() ? 1.0 : 0.0;
  }
  if (t == "DT_HALF") return half_to_float(static_cast<std::uint16_t>(json_int64(v)));
  if (t == "DT_BFLOAT16")
    return std::bit_cast<float>(static_cast<std::uint32_t>(json_int64(v) & 0xffff) << 16);
  return static_cast<double>(saturate_int32(json_int64(v)));
}

std::pair<std::string_view, std::string_view> value_field(std::string_view t) {
  if (t == "DT_FLOAT") return {"floatVal", "float_val"};
  if (t == "DT_DOUBLE") return {"doubleVal", "double_val"};
  if (t == "DT_INT64") return {"int64Val", "int64_val"};
  if (t == "DT_UINT64") return {"uint64Val", "uint64_val"};
  if (t == "DT_UINT32") return {"uint32Val", "uint32_val"};
  if (t == "DT_BOOL") return {"boolVal", "bool_val"};
  if (t == "DT_STRING") return {"stringVal", "string_val"};
  if (t == "DT_HALF" || t == "DT_BFLOAT16") return {"halfVal", "half_val"};
  return {"intVal", "int_val"};
}

// Empty lists ({}) carry no element type; these attribute names are known not to hold ints.
enum class ListKind { Int, Float, Bool, String, Type, Shape, Tensor, Func };
ListKind empty_list_kind(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, ListKind>, 14> kKnown = {{
      {"fused_ops", ListKind::String},
      {"_class", ListKind::String},
      {"T", ListKind::Type},
      {"Tin", ListKind::Type},
      {"Tout", ListKind::Type},
      {"Tcond", ListKind::Type},
      {"output_types", ListKind::Type},
      {"component_types", ListKind::Type},
      {"dtypes", ListKind::Type},
      {"Toutput_types", ListKind::Type},
      {"_output_shapes", ListKind::Shape},
      {"output_shapes", ListKind::Shape},
      {"shapes", ListKind::Shape},
      {"element_shapes", ListKind::Shape},
  }};
  for (const auto& [key, kind] : kKnown)
    if (key == name) return kind;
  return ListKind::Int;
}

AttrValue decode_list(const json& list, std::string_view name) {
  if (!list.is_object()) throw ModelError("list value is not an object");
  const json* found = nullptr;
  std::string_view kind;
  for (std::string_view k : {"i", "f", "b", "s", "type", "shape", "tensor", "func"}) {
    auto it = list.find(k);
    if (it == list.end() || (it->is_array() && it->empty())) continue;
    if (found)
      throw ModelError("list holds both '" + std::string(kind) + "' and '" + std::string(k) +
                       "' values");
    found = &*it;
    kind = k;
  }
  if (!found) {
    switch (empty_list_kind(name)) {
      case ListKind::String:
        return std::vector<std::string>{};
      case ListKind::Type:
        return std::vector<TypeAttr>{};
      case ListKind::Shape:
        return std::vector<PartialShape>{};
      default:
        return std::vector<std::int64_t>{};
    }
  }
  if (!found->is_array()) throw ModelError("list '" + std::string(kind) + "' is not an array");
  const json& a = *found;
  if (kind == "i") {
    std::vector<std::int64_t> out;
    for (const auto& v : a) out.push_back(json_int64(v));
    return out;
  }
  if (kind == "f") {
    std::vector<float> out;
    for (const auto& v : a) out.push_back(json_float(v));
    return out;
  }
  if (kind == "b") {
    std::vector<bool> out;
    for (const auto& v : a) {
      if (!v.is_boolean()) throw ModelError("list 'b' entry is not a boolean");
      out.push_back(v.get<bool>());
    }
    return out;
  }
  if (kind == "s") {
    std::vector<std::string> out;
    for (const auto& v : a) {
      if (!v.is_string()) throw ModelError("list 's' entry is not a base64 string");
      out.push_back(decode_base64(v.get<std::string>()));
    }
    return out;
  }
  if (kind == "type") {
    std::vector<TypeAttr> out;
    for (const auto& v : a) out.push_back(TypeAttr{json_tf_type(v)});
    return out;
  }
  if (kind == "shape") {
    std::vector<PartialShape> out;
    for (const auto& v : a) out.push_back(decode_shape(v));
    return out;
  }
  if (kind == "tensor") {
    std::vector<HostTensor> out;
    for (const auto& v : a) out.push_back(decode_tensor(v));
    return out;
  }
  std::vector<FuncAttr> out;
  for (const auto& v : a) {
    if (!v.is_object() || !v.contains("name") || !v["name"].is_string())
      throw ModelError("list 'func' entry has no name");
    out.push_back(FuncAttr{v["name"].get<std::string>()});
  }
  return out;
}

}  // namespace

std::string decode_base64(std::string_view text) {
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  if (text.size() % 4 == 1) throw ModelError("base64 text has a bad length");
  std::string out;
  out.reserve(text.size() * 3 / 4);
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    const int v = base64_value(c);
    if (v < 0) throw ModelError("base64 text has a bad character");
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xffu));
    }
  }
  return out;
}

std::int64_t json_int64(const json& j) {
  if (j.is_number()) {
    if (const auto v = model::whole_int64(j)) return *v;
    throw ModelError(j.is_number_float() ? "number " + j.dump() + " is not an int64"
                                         : "integer out of int64 range");
  }
  if (j.is_string()) {
    const auto& s = j.get_ref<const std::string&>();
    std::int64_t v = 0;
    const char* begin = s.data();
    if (!s.empty() && s[0] == '+') ++begin;
    auto [end, ec] = std::from_chars(begin, s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || begin == end)
      throw ModelError("'" + s + "' is not an int64");
    return v;
  }
  throw ModelError("expected an int64, found " + j.dump());
}

float json_float(const json& j) {
  if (j.is_number()) return static_cast<float>(j.get<double>());
  if (j.is_string()) {
    const auto& s = j.get_ref<const std::string&>();
    if (s == "NaN") return std::numeric_limits<float>::quiet_NaN();
    if (s == "Infinity") return std::numeric_limits<float>::infinity();
    if (s == "-Infinity") return -std::numeric_limits<float>::infinity();
    double v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty())
      throw ModelError("'" + s + "' is not a float");
    return static_cast<float>(v);
  }
  throw ModelError("expected a float, found " + j.dump());
}

std::string json_tf_type(const json& j) {
  if (j.is_string()) {
    const auto& s = j.get_ref<const std::string&>();
    // Only TF's own names: an unknown one ("DT_WHATEVER") would otherwise pass as some type.
    std::string_view base = s;
    if (base.ends_with("_REF")) base.remove_suffix(4);
    static constexpr std::string_view kNewer[] = {"DT_FLOAT8_E5M2", "DT_FLOAT8_E4M3FN", "DT_INT4",
                                                  "DT_UINT4"};
    if (std::find(kTfTypeNames.begin() + 1, kTfTypeNames.end(), base) != kTfTypeNames.end() ||
        std::find(std::begin(kNewer), std::end(kNewer), base) != std::end(kNewer))
      return s;
    throw ModelError("'" + s + "' is not a TensorFlow DataType name");
  }
  if (j.is_number_integer()) {
    const auto n = j.get<std::int64_t>();
    if (n >= 0 && n < static_cast<std::int64_t>(kTfTypeNames.size()))
      return std::string(kTfTypeNames[static_cast<std::size_t>(n)]);
    if (n > 100 && n - 100 < static_cast<std::int64_t>(kTfTypeNames.size()))  // _REF types
      return std::string(kTfTypeNames[static_cast<std::size_t>(n - 100)]) + "_REF";
    throw ModelError("DataType number " + std::to_string(n) + " is unknown");
  }
  throw ModelError("expected a DataType, found " + j.dump());
}

PartialShape decode_shape(const json& j) {
  if (!j.is_object()) throw ModelError("shape is not an object");
  if (auto it = j.find("unknownRank"); it != j.end() && it->is_boolean() && it->get<bool>())
    return PartialShape::unknown();
  if (auto it = j.find("unknown_rank"); it != j.end() && it->is_boolean() && it->get<bool>())
    return PartialShape::unknown();
  PartialShape shape = PartialShape::of({});
  if (auto it = j.find("dim"); it != j.end()) {
    if (!it->is_array()) throw ModelError("shape 'dim' is not an array");
    for (const auto& d : *it) {
      if (!d.is_object()) throw ModelError("shape dim is not an object");
      auto s = d.find("size");
      const std::int64_t size = s == d.end() ? 0 : json_int64(*s);
      if (size < -1) throw ModelError("shape dim " + std::to_string(size) + " is negative");
      if (shape.dims.size() == model::kMaxRank)
        throw ModelError("shape has more dims than the limit of " +
                         std::to_string(model::kMaxRank) + " (kMaxRank)");
      shape.dims.push_back(size);
    }
  }
  return shape;
}

bool tensor_has_content(const json& j) {
  if (!j.is_object()) return false;
  for (const auto& [key, value] : j.items()) {
    if (key == "dtype" || key == "tensorShape" || key == "tensor_shape" || key == "versionNumber" ||
        key == "version_number")
      continue;
    if (value.is_string() ? !value.get_ref<const std::string&>().empty()
                          : !(value.is_array() && value.empty()))
      return true;
  }
  return false;
}

// A complex64 (or complex128, narrowed) tensor: tensorContent holds (real, imag) pairs of floats
// (doubles), scomplexVal (dcomplexVal) lists the parts in turn; the last pair repeats like the
// last value of other types.
HostTensor decode_complex(const json& j, const std::string& tf, const PartialShape& pshape,
                          std::size_t n, HostTensor t) {
  const bool wide = tf == "DT_COMPLEX128";
  std::vector<double> parts;
  if (const json* content = field(j, "tensorContent", "tensor_content")) {
    if (!content->is_string()) throw ModelError("tensorContent is not a base64 string");
    const std::string bytes = decode_base64(content->get<std::string>());
    const std::size_t esize = wide ? 16 : 8;
    if (bytes.size() != n * esize)
      throw ModelError("tensorContent has " + std::to_string(bytes.size()) + " bytes, " + tf + " " +
                       pshape.to_string() + " needs " + std::to_string(n * esize));
    for (std::size_t i = 0; i < 2 * n; ++i)
      parts.push_back(wide ? load_le<double>(bytes.data() + i * 8)
                           : load_le<float>(bytes.data() + i * 4));
  } else if (const json* vals = wide ? field(j, "dcomplexVal", "dcomplex_val")
                                     : field(j, "scomplexVal", "scomplex_val")) {
    if (!vals->is_array() || vals->size() % 2 != 0)
      throw ModelError(std::string(wide ? "dcomplexVal" : "scomplexVal") +
                       " is not an array of (real, imag) pairs");
    if (vals->size() > 2 * n)
      throw ModelError("tensor has " + std::to_string(vals->size() / 2) + " values for shape " +
                       pshape.to_string());
    for (const auto& v : *vals) parts.push_back(json_float(v));
  }
  if (parts.empty() || n == 0) return t;
  const double re = parts[parts.size() - 2], im = parts.back();
  while (parts.size() < 2 * n) parts.insert(parts.end(), {re, im});
  float* out = reinterpret_cast<float*>(t.buffer->mutable_data());
  for (std::size_t i = 0; i < 2 * n; ++i) out[i] = static_cast<float>(parts[i]);
  return t;
}

HostTensor decode_tensor(const json& j) {
  if (!j.is_object()) throw ModelError("tensor is not an object");
  const json* dt = field(j, "dtype", "dtype");
  const std::string tf = dt ? json_tf_type(*dt) : std::string("DT_INVALID");
  const auto dtype = dtype_from_tf(tf);
  if (!dtype) throw ModelError("tensor dtype " + tf + " is not supported");

  const json* shape_json = field(j, "tensorShape", "tensor_shape");
  const PartialShape pshape = shape_json ? decode_shape(*shape_json) : PartialShape::of({});
  if (!pshape.fully_known())
    throw ModelError("tensor shape " + pshape.to_string() + " is not fully known");
  const auto count = checked_num_elements(pshape.dims);
  if (!count || *count > model::kMaxAttrTensorElements)
    throw ModelError("tensor shape " + pshape.to_string() +
                     " has more elements than the limit of " +
                     std::to_string(model::kMaxAttrTensorElements) + " (kMaxAttrTensorElements)");
  const auto n = static_cast<std::size_t>(*count);

  HostTensor t = HostTensor::zeros(*dtype, pshape.dims);
  if (*dtype == DType::String) {
    const json* vals = field(j, "stringVal", "string_val");
    if (!vals) return t;
    if (!vals->is_array()) throw ModelError("stringVal is not an array");
    if (vals->size() > n)
      throw ModelError("tensor has " + std::to_string(vals->size()) + " values for shape " +
                       pshape.to_string());
    auto& out = *t.strings;
    for (std::size_t i = 0; i < n && !vals->empty(); ++i) {
      const auto& v = (*vals)[std::min(i, vals->size() - 1)];
      if (!v.is_string()) throw ModelError("stringVal entry is not a base64 string");
      out[i] = decode_base64(v.get<std::string>());
    }
    return t;
  }
  if (*dtype == DType::Complex64) return decode_complex(j, tf, pshape, n, std::move(t));

  std::vector<double> values;
  if (const json* content = field(j, "tensorContent", "tensor_content")) {
    if (!content->is_string()) throw ModelError("tensorContent is not a base64 string");
    const std::string bytes = decode_base64(content->get<std::string>());
    const std::size_t esize = tf_element_bytes(tf);
    if (esize == 0 || bytes.size() != n * esize)
      throw ModelError("tensorContent has " + std::to_string(bytes.size()) + " bytes, " + tf + " " +
                       pshape.to_string() + " needs " + std::to_string(n * esize));
    values.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
      values.push_back(content_element(tf, bytes.data() + i * esize));
  } else {
    const auto [camel, snake] = value_field(tf);
    if (const json* vals = field(j, camel, snake)) {
      if (!vals->is_array()) throw ModelError(std::string(camel) + " is not an array");
      if (vals->size() > n)
        throw ModelError("tensor has " + std::to_string(vals->size()) + " values for shape " +
                         pshape.to_string());
      for (const auto& v : *vals) values.push_back(typed_value(tf, v));
    }
  }
  if (values.empty() || n == 0) return t;
  const double last = values.back();
  values.resize(n, last);  // TF: the last value repeats to fill the shape
  switch (*dtype) {
    case DType::Float32: {
      auto out = t.mutable_values<float>();
      for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<float>(values[i]);
      break;
    }
    case DType::Int32: {
      auto out = t.mutable_values<std::int32_t>();
      for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::int32_t>(values[i]);
      break;
    }
    case DType::Bool: {
      auto out = t.mutable_values<std::uint8_t>();
      for (std::size_t i = 0; i < n; ++i) out[i] = values[i] != 0.0 ? 1 : 0;
      break;
    }
    case DType::String:
    case DType::Complex64:
      break;
  }
  return t;
}

std::optional<AttrValue> decode_attr(const json& j, std::string_view name) {
  if (!j.is_object()) throw ModelError("value is not an object");
  if (auto it = j.find("list"); it != j.end()) return decode_list(*it, name);
  if (auto it = j.find("i"); it != j.end()) return AttrValue(json_int64(*it));
  if (auto it = j.find("f"); it != j.end()) return AttrValue(json_float(*it));
  if (auto it = j.find("b"); it != j.end()) {
    if (!it->is_boolean()) throw ModelError("'b' is not a boolean");
    return AttrValue(it->get<bool>());
  }
  if (auto it = j.find("s"); it != j.end()) {
    if (!it->is_string()) throw ModelError("'s' is not a base64 string");
    return AttrValue(decode_base64(it->get<std::string>()));
  }
  if (auto it = j.find("type"); it != j.end()) return AttrValue(TypeAttr{json_tf_type(*it)});
  if (auto it = j.find("shape"); it != j.end()) return AttrValue(decode_shape(*it));
  if (auto it = j.find("tensor"); it != j.end()) return AttrValue(decode_tensor(*it));
  if (auto it = j.find("func"); it != j.end()) {
    if (!it->is_object() || !it->contains("name") || !(*it)["name"].is_string())
      throw ModelError("'func' has no name");
    return AttrValue(FuncAttr{(*it)["name"].get<std::string>()});
  }
  return std::nullopt;
}

}  // namespace tfjsi::graph::detail
