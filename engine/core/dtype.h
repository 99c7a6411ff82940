// The element types a tensor can hold, as TF.js names them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tfjsi {

// TF.js narrows TF's many types to these (DT_INT64 -> int32, DT_HALF -> float32, DT_COMPLEX128 ->
// complex64, ...); we follow it so outputs compare one to one with TF.js. Complex64 elements are
// (real, imag) float32 pairs, interleaved as numpy's '<c8' and TF's own weights store them
// (TF.js keeps two float32 tensors; only Complex, Real, Imag, ComplexAbs, the FFTs and the
// byte-moving ops take them here: every other kernel refuses them by name).
enum class DType : std::uint8_t { Float32, Int32, Bool, String, Complex64 };

// "float32", "int32", "bool", "string", "complex64".
std::string_view to_string(DType dtype);
// The inverse of to_string; nullopt for anything else.
std::optional<DType> dtype_from_string(std::string_view name);
// A TensorFlow DataType enum name ("DT_FLOAT", "DT_INT64", ...) narrowed the way TF.js does;
// nullopt for types TF.js cannot hold (DT_RESOURCE, DT_VARIANT, ...).
std::optional<DType> dtype_from_tf(std::string_view tf_name);
// The TensorFlow DataType enum name a GraphDef writes for dtype ("DT_FLOAT", "DT_COMPLEX64", ...).
std::string_view tf_name(DType dtype);

// Bytes per element; 0 for String (strings are stored as a list, not a flat buffer).
constexpr std::size_t element_size(DType dtype) {
  switch (dtype) {
    case DType::Float32:
    case DType::Int32:
      return 4;
    case DType::Bool:
      return 1;
    case DType::String:
      return 0;
    case DType::Complex64:
      return 8;
  }
  return 0;
}

}  // namespace tfjsi
