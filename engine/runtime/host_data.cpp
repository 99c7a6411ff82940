#include "runtime/host_data.h"

namespace tfjsi::runtime {

std::size_t HostData::bytes() const {
  std::size_t n = buffer_ ? buffer_->size() : 0;
  if (strings_)
    for (const auto& s : *strings_) n += s.size();
  return n;
}

HostTensor HostData::as_host(const TensorView& view) const {
  HostTensor t;
  t.dtype = view.dtype;
  t.shape = view.shape;
  t.buffer = buffer_;
  t.strings = strings_;
  return t;
}

}  // namespace tfjsi::runtime
