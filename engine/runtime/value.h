// What flows along a graph edge inside the executor: a tensor, or a handle to a TensorArray (TF1,
// shared and mutated in place like a resource) or a TensorList (TF2, a value: ops that change a
// list make a new one that shares the unchanged items).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/host_tensor.h"
#include "runtime/tensor.h"

namespace tfjsi::runtime {

struct TensorArray {
  std::string node;  // the TensorArrayV3 node, for messages
  DType dtype = DType::Float32;
  PartialShape element_shape;
  bool dynamic_size = false;
  bool clear_after_read = true;
  std::vector<std::optional<HostTensor>> items;
  std::vector<bool> cleared;  // read once with clear_after_read
  bool closed = false;
};

struct TensorList {
  DType dtype = DType::Float32;
  PartialShape element_shape;
  std::vector<std::optional<HostTensor>> items;  // nullopt: reserved, not yet set
};

struct Value {
  Tensor tensor;  // a live handle for tensor values, owned by whoever holds the Value
  std::shared_ptr<TensorArray> array;
  std::shared_ptr<const TensorList> list;

  bool is_tensor() const { return !array && !list; }
  // "tensor", "TensorArray", "TensorList"
  const char* kind() const { return array ? "TensorArray" : list ? "TensorList" : "tensor"; }
};

}  // namespace tfjsi::runtime
