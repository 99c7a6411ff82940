// What flows along a graph edge inside the executor: a tensor, or a handle to a TensorArray (TF1,
// shared and mutated in place like a resource), a TensorList (TF2, a value: ops that change a
// list make a new one that shares the unchanged items) or a HashTable (a resource of the model).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
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

// TF.js's HashTable (tfjs-converter executor/hash_table): keys of one dtype to rows of a values
// tensor. InitializeTable and LookupTableImport replace the whole contents; a key looked up and
// not found gives the default value.
struct HashTable {
  std::string node;  // the HashTable node that made it, for messages
  DType key_dtype = DType::Int32;
  DType value_dtype = DType::Float32;
  HostTensor values;  // the imported values (a copy): key k's value is row rows[k] of it
  // Key bytes (hash_table_ops.cpp's key_of: a string's bytes, a number's canonical double) -> row.
  std::unordered_map<std::string, std::int64_t> rows;
};

// The resources of one model, shared by every run of its graph, its function bodies and its
// initializer, as TF.js's ResourceManager is by a GraphModel's executors: hash tables by the name
// of the node that made them. The Executor owns it; it dies with the model.
struct Resources {
  std::map<std::string, std::shared_ptr<HashTable>, std::less<>> tables;
};

struct Value {
  Tensor tensor;  // a live handle for tensor values, owned by whoever holds the Value
  std::shared_ptr<TensorArray> array;
  std::shared_ptr<const TensorList> list;
  std::shared_ptr<HashTable> table = nullptr;

  bool is_tensor() const { return !array && !list && !table; }
  // "tensor", "TensorArray", "TensorList", "HashTable"
  const char* kind() const {
    return array ? "TensorArray" : list ? "TensorList" : table ? "HashTable" : "tensor";
  }
};

}  // namespace tfjsi::runtime
