#include "core/host_tensor.h"

#include <stdexcept>

namespace tfjsi {

namespace {

HostTensor allocate(DType dtype, Shape shape, bool zero) {
  HostTensor t;
  t.dtype = dtype;
  t.shape = std::move(shape);
  const auto n = checked_num_elements(t.shape);
  if (!n) throw std::invalid_argument("HostTensor: invalid shape " + shape_to_string(t.shape));
  if (dtype == DType::String) {
    t.strings = std::make_shared<std::vector<std::string>>(static_cast<std::size_t>(*n));
    t.buffer = Buffer::allocate(0);
  } else {
    const std::size_t bytes = static_cast<std::size_t>(*n) * element_size(dtype);
    t.buffer = zero ? Buffer::allocate(bytes) : Buffer::allocate_uninitialized(bytes);
  }
  return t;
}

}  // namespace

HostTensor HostTensor::zeros(DType dtype, Shape shape) {
  return allocate(dtype, std::move(shape), true);
}

HostTensor HostTensor::uninitialized(DType dtype, Shape shape) {
  return allocate(dtype, std::move(shape), false);
}

HostTensor HostTensor::wrap(DType dtype, Shape shape, std::shared_ptr<Buffer> buffer) {
  HostTensor t;
  t.dtype = dtype;
  t.shape = std::move(shape);
  const auto n = checked_num_elements(t.shape);
  if (!n) throw std::invalid_argument("HostTensor: invalid shape " + shape_to_string(t.shape));
  if (!buffer || buffer->size() < static_cast<std::size_t>(*n) * element_size(dtype))
    throw std::invalid_argument("HostTensor: buffer too small for shape " +
                                shape_to_string(t.shape));
  t.buffer = std::move(buffer);
  return t;
}

std::size_t HostTensor::byte_size() const {
  if (dtype == DType::String) {
    std::size_t n = 0;
    if (strings)
      for (const auto& s : *strings) n += s.size();
    return n;
  }
  return static_cast<std::size_t>(num_elements()) * element_size(dtype);
}

}  // namespace tfjsi
