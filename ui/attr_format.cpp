#include "attr_format.h"

#include <cmath>
#include <complex>
#include <cstdio>
#include <sstream>
#include <type_traits>

namespace tfjsi::ui {
namespace {

std::string printable(const std::string& raw) {
  // `s` attributes are bytes: show text as text and anything else as hex.
  bool text = true;
  for (unsigned char c : raw)
    if (c < 0x20 || c > 0x7e) text = false;
  if (text) return "\"" + raw + "\"";
  std::string out = "0x";
  char buf[3];
  for (std::size_t i = 0; i < raw.size() && i < 32; ++i) {
    std::snprintf(buf, sizeof buf, "%02x", static_cast<unsigned char>(raw[i]));
    out += buf;
  }
  if (raw.size() > 32) out += "...";
  return out;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

template <class T>
std::string list(const std::vector<T>& v, auto&& one) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out += ", ";
    if (i == 16) {
      out += "... (" + std::to_string(v.size()) + " items)";
      break;
    }
    out += one(v[i]);
  }
  return out + "]";
}

std::string tensor_text(const HostTensor& t) {
  return std::string(to_string(t.dtype)) + " " + shape_to_string(t.shape) + " " + preview_values(t);
}

}  // namespace

std::string preview_values(const HostTensor& t, int max_values) {
  const std::int64_t n = t.num_elements();
  std::string out = "{";
  for (std::int64_t i = 0; i < n && i < max_values; ++i) {
    if (i) out += ", ";
    switch (t.dtype) {
      case DType::Float32:
        out += num(t.values<float>()[static_cast<size_t>(i)]);
        break;
      case DType::Int32:
        out += std::to_string(t.values<std::int32_t>()[static_cast<size_t>(i)]);
        break;
      case DType::Bool:
        out += t.values<std::uint8_t>()[static_cast<size_t>(i)] ? "true" : "false";
        break;
      case DType::String:
        out += t.strings && static_cast<size_t>(i) < t.strings->size()
                   ? printable((*t.strings)[static_cast<size_t>(i)])
                   : "?";
        break;
      case DType::Complex64: {
        const auto c = t.values<std::complex<float>>()[static_cast<size_t>(i)];
        out += num(c.real()) + (std::signbit(c.imag()) ? "-" : "+") + num(std::abs(c.imag())) + "i";
        break;
      }
    }
  }
  if (n > max_values) out += ", ...";
  return out + "}";
}

std::string format_attr(const graph::AttrValue& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::int64_t>)
          return std::to_string(v);
        else if constexpr (std::is_same_v<T, float>)
          return num(v);
        else if constexpr (std::is_same_v<T, bool>)
          return v ? "true" : "false";
        else if constexpr (std::is_same_v<T, std::string>)
          return printable(v);
        else if constexpr (std::is_same_v<T, graph::TypeAttr>) {
          auto d = v.dtype();
          return d ? std::string(to_string(*d)) + " (" + v.tf + ")" : v.tf;
        } else if constexpr (std::is_same_v<T, PartialShape>)
          return v.to_string();
        else if constexpr (std::is_same_v<T, HostTensor>)
          return tensor_text(v);
        else if constexpr (std::is_same_v<T, graph::FuncAttr>)
          return "function " + v.name;
        else if constexpr (std::is_same_v<T, std::vector<std::int64_t>>)
          return list(v, [](std::int64_t x) { return std::to_string(x); });
        else if constexpr (std::is_same_v<T, std::vector<float>>)
          return list(v, [](float x) { return num(x); });
        else if constexpr (std::is_same_v<T, std::vector<bool>>)
          return list(v, [](bool x) { return std::string(x ? "true" : "false"); });
        else if constexpr (std::is_same_v<T, std::vector<std::string>>)
          return list(v, printable);
        else if constexpr (std::is_same_v<T, std::vector<graph::TypeAttr>>)
          return list(v, [](const graph::TypeAttr& x) {
            auto d = x.dtype();
            return d ? std::string(to_string(*d)) : x.tf;
          });
        else if constexpr (std::is_same_v<T, std::vector<PartialShape>>)
          return list(v, [](const PartialShape& x) { return x.to_string(); });
        else if constexpr (std::is_same_v<T, std::vector<HostTensor>>)
          return list(v, tensor_text);
        else if constexpr (std::is_same_v<T, std::vector<graph::FuncAttr>>)
          return list(v, [](const graph::FuncAttr& x) { return x.name; });
        else
          return "?";
      },
      value);
}

std::string format_tensor_info(const graph::TensorInfo& info) {
  return info.shape.to_string() + " " +
         (info.dtype ? std::string(to_string(*info.dtype)) : "(handle)");
}

}  // namespace tfjsi::ui
