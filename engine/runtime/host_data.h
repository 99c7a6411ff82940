// Tensor data held in host memory, the form the cpu and xnnpack backends share: a byte buffer (or
// a string list) that tensors and kernels use in place.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/host_tensor.h"
#include "runtime/backend.h"

namespace tfjsi::runtime {

class HostData : public BackendData {
 public:
  HostData(std::shared_ptr<Buffer> buffer, std::shared_ptr<std::vector<std::string>> strings)
      : buffer_(std::move(buffer)), strings_(std::move(strings)) {}
  std::size_t bytes() const override;
  const std::shared_ptr<Buffer>& buffer() const { return buffer_; }
  const std::shared_ptr<std::vector<std::string>>& strings() const { return strings_; }
  // This data under `view`'s dtype and shape, sharing the storage (no copy).
  HostTensor as_host(const TensorView& view) const;

 protected:
  std::shared_ptr<Buffer> buffer_;
  std::shared_ptr<std::vector<std::string>> strings_;
};

}  // namespace tfjsi::runtime
