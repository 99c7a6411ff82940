#include "core/dtype.h"

namespace tfjsi {

std::string_view to_string(DType dtype) {
  switch (dtype) {
    case DType::Float32:
      return "float32";
    case DType::Int32:
      return "int32";
    case DType::Bool:
      return "bool";
    case DType::String:
      return "string";
    case DType::Complex64:
      return "complex64";
  }
  return "?";
}

std::optional<DType> dtype_from_string(std::string_view name) {
  if (name == "float32") return DType::Float32;
  if (name == "int32") return DType::Int32;
  if (name == "bool") return DType::Bool;
  if (name == "string") return DType::String;
  if (name == "complex64") return DType::Complex64;
  return std::nullopt;
}

std::optional<DType> dtype_from_tf(std::string_view t) {
  if (t == "DT_FLOAT" || t == "DT_HALF" || t == "DT_DOUBLE" || t == "DT_BFLOAT16")
    return DType::Float32;
  if (t == "DT_INT32" || t == "DT_INT64" || t == "DT_INT8" || t == "DT_UINT8" || t == "DT_INT16" ||
      t == "DT_UINT16")
    return DType::Int32;
  if (t == "DT_BOOL") return DType::Bool;
  if (t == "DT_STRING") return DType::String;
  if (t == "DT_COMPLEX64" || t == "DT_COMPLEX128") return DType::Complex64;
  return std::nullopt;
}

std::string_view tf_name(DType dtype) {
  switch (dtype) {
    case DType::Float32:
      return "DT_FLOAT";
    case DType::Int32:
      return "DT_INT32";
    case DType::Bool:
      return "DT_BOOL";
    case DType::String:
      return "DT_STRING";
    case DType::Complex64:
      return "DT_COMPLEX64";
  }
  return "DT_INVALID";
}

}  // namespace tfjsi
