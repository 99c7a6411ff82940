// How far a tensor is from a reference one: the error measures the fp16 check and the backend
// comparison report per node.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "core/host_tensor.h"

namespace tfjsi::analysis {

struct TensorError {
  bool shape_mismatch = false;  // shapes or dtypes differ: nothing else is meaningful
  double max_abs_error = 0;     // over elements finite in both (complex64: over their parts)
  double ref_max_abs = 0;       // largest finite |reference|
  // Elements finite in the reference but not in the tensor (a new inf or NaN), and the other way
  // round. Matching infinities (same sign) and NaN against NaN are not errors.
  std::int64_t new_nonfinite = 0, lost_nonfinite = 0;
  std::int64_t nan = 0, inf = 0;  // in the tensor
  std::int64_t mismatched = 0;    // int and bool tensors: elements that differ
  std::int64_t count = 0;

  // max_abs_error / ref_max_abs (absolute when the reference is all zeros); infinite for a shape
  // mismatch or a new non-finite value. Int and bool: the share of differing elements.
  double relative() const;
  // max_abs_error / max(1, ref_max_abs), DESIGN.md's tolerance measure; infinite as above.
  double normalized() const;
  void merge(const TensorError& other);
};

TensorError tensor_error(const HostTensor& reference, const HostTensor& test);

// A double for JSON: non-finite values become null (JSON has no inf).
nlohmann::json json_number(double v);
nlohmann::json to_json(const TensorError& e);

}  // namespace tfjsi::analysis
