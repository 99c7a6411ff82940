// A tensor handle: (shape, dtype, id) naming data that one or more backends hold. Copies of a
// handle name the same tensor (like a JS reference in TF.js): dispose() through any of them ends
// it. The data lives while any undisposed tensor refers to it (reshapes and clones share it).
#pragma once

#include <cstdint>

#include "core/host_tensor.h"

namespace tfjsi::runtime {

class Engine;
using TensorId = std::uint64_t;

class Tensor {
 public:
  Tensor() = default;

  TensorId id() const { return id_; }
  // False for a default handle and after dispose().
  bool alive() const;
  const Shape& shape() const;
  DType dtype() const;
  std::int64_t num_elements() const { return tfjsi::num_elements(shape()); }
  // The values on the host (a download when no host copy exists; cpu data is shared, not copied).
  HostTensor read() const;
  // Ends this tensor; its data is freed when no other tensor shares it. Idempotent.
  void dispose() const;

  bool operator==(const Tensor& o) const { return engine_ == o.engine_ && id_ == o.id_; }

 private:
  friend class Engine;
  Tensor(Engine* engine, TensorId id) : engine_(engine), id_(id) {}
  Engine* engine_ = nullptr;
  TensorId id_ = 0;
};

}  // namespace tfjsi::runtime
