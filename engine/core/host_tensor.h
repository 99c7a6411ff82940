// A tensor whose data lives in host memory: weights, cpu-backend values, .npy contents.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/buffer.h"
#include "core/dtype.h"
#include "core/shape.h"

namespace tfjsi {

struct HostTensor {
  DType dtype = DType::Float32;
  Shape shape;
  // Numeric and bool data, row-major, element_size(dtype) bytes an element (bool: one byte, 0/1).
  std::shared_ptr<Buffer> buffer;
  // String tensors only: one entry per element, as raw bytes.
  std::shared_ptr<std::vector<std::string>> strings;

  // A zero-filled tensor (empty strings for String).
  static HostTensor zeros(DType dtype, Shape shape);
  // A tensor whose values are unspecified (empty strings for String): for kernels that write
  // every element, so that they skip the zero fill.
  static HostTensor uninitialized(DType dtype, Shape shape);
  // A tensor over existing storage; checks that `buffer` is large enough.
  static HostTensor wrap(DType dtype, Shape shape, std::shared_ptr<Buffer> buffer);

  std::int64_t num_elements() const { return tfjsi::num_elements(shape); }
  int rank() const { return static_cast<int>(shape.size()); }
  std::size_t byte_size() const;  // data bytes (strings: sum of their lengths)

  // Typed views. T must match the dtype's storage: float (Float32), int32_t (Int32),
  // uint8_t (Bool), std::complex<float> (Complex64).
  template <class T>
  std::span<const T> values() const {
    return {reinterpret_cast<const T*>(buffer->data()), static_cast<std::size_t>(num_elements())};
  }
  template <class T>
  std::span<T> mutable_values() {
    return {reinterpret_cast<T*>(buffer->mutable_data()), static_cast<std::size_t>(num_elements())};
  }
  // The float32 values, for Float32 and Complex64 (its real and imaginary parts in turn, two per
  // element): what statistics and error checks read of either.
  std::span<const float> float_parts() const {
    return {reinterpret_cast<const float*>(buffer->data()),
            static_cast<std::size_t>(num_elements()) * (dtype == DType::Complex64 ? 2 : 1)};
  }
};

}  // namespace tfjsi
