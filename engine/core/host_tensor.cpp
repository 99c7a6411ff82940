#include "core/host_tensor.h"

#include <new>
#include <stdexcept>

#include "core/memory_limit.h"

namespace tfjsi {

namespace {

// The elements of `shape`, or UINT64_MAX when their count overflows (a size check refuses it).
std::uint64_t elements_of(const Shape& shape) {
  std::uint64_t n = 1;
  for (auto d : shape) {
    if (d < 0) throw std::invalid_argument("HostTensor: invalid shape " + shape_to_string(shape));
    n = saturating_bytes(n, static_cast<std::uint64_t>(d));
  }
  return n;
}

HostTensor allocate(DType dtype, Shape shape, bool zero) {
  HostTensor t;
  t.dtype = dtype;
  t.shape = std::move(shape);
  const std::uint64_t n = elements_of(t.shape);
  const std::uint64_t bytes =
      saturating_bytes(n, dtype == DType::String ? sizeof(std::string) : element_size(dtype));
  const auto what = [&] {
    return "a " + std::string(to_string(dtype)) + " tensor of shape " + shape_to_string(t.shape);
  };
  // Checked before trying: the machine could not hold it, whatever the heap says. The message is
  // built only when it is needed (every kernel output passes here).
  if (bytes > memory_limit()) check_allocation(bytes, what());
  try {
    if (dtype == DType::String) {
      t.strings = std::make_shared<std::vector<std::string>>(static_cast<std::size_t>(n));
      t.buffer = Buffer::allocate(0);
    } else {
      t.buffer = zero ? Buffer::allocate(bytes) : Buffer::allocate_uninitialized(bytes);
    }
  } catch (const std::bad_alloc&) {
    throw TooLarge("out of memory: " + what() + " needs " + std::to_string(bytes) + " bytes");
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
