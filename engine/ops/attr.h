// Reading a node's attributes: the one family of readers every backend, the shape rules and the
// runtime use. Each reader accepts the forms model.json gives for its type (read_attr below); they
// differ only in what a missing attribute and one of another form mean:
//
//   attr<T>(node, key)                 required   missing: ModelError   other form: ModelError
//   attr<T>(node, key, fallback)       defaulted  missing: fallback     other form: ModelError
//   optional_attr<T>(node, key)        optional   missing: nullopt      other form: ModelError
//   try_attr<T>(node, key)             checking   missing: nullopt      other form: nullopt
//   try_attr<T>(node, key, fallback)   checking   missing: fallback     other form: nullopt
//
// The checking readers never throw. They are for code that only decides something about a node
// (xnnpack's fits, gl's supports, static shape inference, which never rejects a model): the
// kernel that runs the node reads the attribute with attr<T> and gives the error, which names the
// node, its op and the attribute ("node 'c1' (Conv2D): attribute 'strides' must be a list of
// integers").
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "core/dtype.h"
#include "graph/ir.h"

namespace tfjsi::ops {

using Ints = std::vector<std::int64_t>;
using Strings = std::vector<std::string>;

namespace detail {

template <class T>
struct IsVector : std::false_type {};
template <class E>
struct IsVector<std::vector<E>> : std::true_type {};

// The JSON importer reads an empty list without knowing its element type.
inline bool empty_list(const graph::AttrValue& a) {
  return std::visit(
      [](const auto& v) {
        if constexpr (IsVector<std::decay_t<decltype(v)>>::value)
          return v.empty();
        else
          return false;
      },
      a);
}

}  // namespace detail

// The value of `a` as T, or nullopt when `a` has another form. Besides T itself: an integral float
// for an integer, an integer for a float, any empty list for a list, and for a DType a TypeAttr
// naming a type the engine has (or the string "float32" / "DT_FLOAT").
template <class T>
std::optional<T> read_attr(const graph::AttrValue& a) {
  if constexpr (std::is_same_v<T, DType>) {
    if (const auto* t = std::get_if<graph::TypeAttr>(&a)) return t->dtype();
    if (const auto* s = std::get_if<std::string>(&a)) {
      if (auto d = dtype_from_string(*s)) return d;
      return dtype_from_tf(*s);
    }
    return std::nullopt;
  } else {
    if (const T* v = std::get_if<T>(&a)) return *v;
    if constexpr (std::is_same_v<T, std::int64_t>) {
      if (const auto* f = std::get_if<float>(&a); f && *f == std::floor(*f) && std::fabs(*f) < 2e9f)
        return static_cast<std::int64_t>(*f);
    } else if constexpr (std::is_same_v<T, float>) {
      if (const auto* i = std::get_if<std::int64_t>(&a)) return static_cast<float>(*i);
    } else if constexpr (detail::IsVector<T>::value) {
      if (detail::empty_list(a)) return T{};
    }
    return std::nullopt;
  }
}

// What a T attribute must be, for the error when it is not ("must be an integer").
template <class T>
std::string form_error([[maybe_unused]] const graph::AttrValue& a) {
  if constexpr (std::is_same_v<T, std::int64_t>) {
    return "must be an integer";
  } else if constexpr (std::is_same_v<T, float>) {
    return "must be a number";
  } else if constexpr (std::is_same_v<T, bool>) {
    return "must be a boolean";
  } else if constexpr (std::is_same_v<T, std::string>) {
    return "must be a string";
  } else if constexpr (std::is_same_v<T, Ints>) {
    return "must be a list of integers";
  } else if constexpr (std::is_same_v<T, Strings>) {
    return "must be a list of strings";
  } else if constexpr (std::is_same_v<T, DType>) {
    if (const auto* t = std::get_if<graph::TypeAttr>(&a)) return "has unsupported type " + t->tf;
    return "must be a type";
  } else {
    return "has an unexpected type";
  }
}

template <class T>
T attr(const graph::Node& node, std::string_view key) {
  const graph::AttrValue* a = node.attr(key);
  if (!a) graph::throw_attr_error(node, key, "is missing");
  if (auto v = read_attr<T>(*a)) return std::move(*v);
  graph::throw_attr_error(node, key, form_error<T>(*a));
}

template <class T>
T attr(const graph::Node& node, std::string_view key, std::type_identity_t<T> fallback) {
  const graph::AttrValue* a = node.attr(key);
  if (!a) return fallback;
  if (auto v = read_attr<T>(*a)) return std::move(*v);
  graph::throw_attr_error(node, key, form_error<T>(*a));
}

template <class T>
std::optional<T> optional_attr(const graph::Node& node, std::string_view key) {
  const graph::AttrValue* a = node.attr(key);
  if (!a) return std::nullopt;
  if (auto v = read_attr<T>(*a)) return v;
  graph::throw_attr_error(node, key, form_error<T>(*a));
}

template <class T>
std::optional<T> try_attr(const graph::Node& node, std::string_view key) {
  const graph::AttrValue* a = node.attr(key);
  return a ? read_attr<T>(*a) : std::nullopt;
}

template <class T>
std::optional<T> try_attr(const graph::Node& node, std::string_view key,
                          std::type_identity_t<T> fallback) {
  const graph::AttrValue* a = node.attr(key);
  return a ? read_attr<T>(*a) : std::optional<T>(std::move(fallback));
}

}  // namespace tfjsi::ops
