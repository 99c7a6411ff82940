#include "io/deterministic_input.h"

#include <complex>
#include <cstdint>
#include <stdexcept>

namespace tfjsi::io {

HostTensor deterministic_tensor(DType dtype, const Shape& shape) {
  HostTensor t = HostTensor::zeros(dtype, shape);
  const auto n = static_cast<std::uint64_t>(t.num_elements());
  // Multiplying in 64 bits and keeping the low 32 is exactly (i * 2654435761) mod 2^32.
  auto hash = [](std::uint64_t i) { return static_cast<std::uint32_t>(i * 2654435761u); };
  switch (dtype) {
    case DType::Float32: {
      auto v = t.mutable_values<float>();
      for (std::uint64_t i = 0; i < n; ++i)
        v[i] = static_cast<float>(static_cast<double>(hash(i)) / 4294967296.0);
      break;
    }
    case DType::Int32: {
      auto v = t.mutable_values<std::int32_t>();
      for (std::uint64_t i = 0; i < n; ++i) v[i] = static_cast<std::int32_t>(hash(i) >> 24);
      break;
    }
    case DType::Bool: {
      auto v = t.mutable_values<std::uint8_t>();
      for (std::uint64_t i = 0; i < n; ++i) v[i] = hash(i) & 1u;
      break;
    }
    case DType::Complex64: {  // the float rule on the real part; the imaginary part stays 0
      auto v = t.mutable_values<std::complex<float>>();
      for (std::uint64_t i = 0; i < n; ++i)
        v[i] = {static_cast<float>(static_cast<double>(hash(i)) / 4294967296.0), 0.0f};
      break;
    }
    case DType::String:
      throw std::invalid_argument("no deterministic generator for string inputs");
  }
  return t;
}

Shape default_shape(const PartialShape& shape) {
  Shape s;
  if (!shape.rank_known) return s;
  for (auto d : shape.dims) s.push_back(d < 0 ? 1 : d);
  return s;
}

}  // namespace tfjsi::io
