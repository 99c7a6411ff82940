// The contract of an xnnpack-native op: a node and its inputs (host tensors over this backend's
// buffers) in; its outputs out, or nullopt when this node's shapes, dtypes or attributes are not
// what the XNNPACK operator takes. Then the backend runs the cpu kernel instead, which also gives
// the proper error for bad input, so native ops never have to.
#pragma once

#include <xnnpack.h>

#include <bit>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backends/xnnpack/operator_cache.h"
#include "core/host_tensor.h"
#include "graph/ir.h"
#include "ops/window.h"
#include "runtime/backend.h"

namespace tfjsi::xnnpack {

// Every operator is created with these flags: none, so the pool's workers spin after an operator
// for the next piece of the run. The backend sends them to sleep at the run's end, or after every
// piece on a busy machine (worker_spin.h).
inline constexpr std::uint32_t kOperatorFlags = 0;

struct XnnStats;

class NativeCall {
 public:
  NativeCall(const graph::Node& node, std::span<const runtime::TensorView> views,
             std::vector<HostTensor> inputs, pthreadpool_t pool, OperatorCache& cache,
             XnnStats& stats)
      : node(node),
        pool(pool),
        cache(cache),
        views_(views),
        inputs_(std::move(inputs)),
        stats_(stats) {}

  const graph::Node& node;
  std::size_t num_inputs() const { return inputs_.size(); }
  // Input i as stored (weights are read from here: XNNPACK packs them without over-reading).
  const HostTensor& input(std::size_t i) const { return inputs_[i]; }
  // Input i with XNN_EXTRA_BYTES readable past its end, for XNNPACK to read as an activation.
  const void* activation(std::size_t i);
  // Whether input i exists, is float32 and has the data its shape needs.
  bool is_float(std::size_t i, int rank = -1) const;
  // Input i's values as integers (int32, or integral float32), or nullopt.
  std::optional<std::vector<std::int64_t>> int_values(std::size_t i) const;

  pthreadpool_t pool;
  OperatorCache& cache;

  // Sets up and runs: counts the setup, and throws std::runtime_error naming the node when
  // XNNPACK fails to run (setup failures return false: the cpu kernel takes the node).
  bool setup_ok(xnn_status s);
  void run(xnn_operator_t op);

 private:
  std::span<const runtime::TensorView> views_;
  std::vector<HostTensor> inputs_;
  XnnStats& stats_;
};

using NativeResult = std::optional<std::vector<HostTensor>>;
using NativeFn = NativeResult (*)(NativeCall& call);

struct NativeOp {
  std::string_view op;
  NativeFn run;
  // Whether the node's attributes and statically known dtypes fit the operator (for native()).
  bool (*fits)(const graph::Node& node);
};

// Every native op, from the one list in native_registry.cpp; nullptr when `op` has none.
const NativeOp* find_native(std::string_view op);
// The ops of that list.
std::vector<std::string_view> native_op_names();

// ---- helpers shared by the op files ----

// A fresh float32 (or int32) output with the slack XNNPACK needs, left unwritten: every op here
// writes each element (XNNPACK's operators, the depthwise kernel), and zeroing it first was a
// serial pass over every output that a second thread cannot share.
HostTensor new_output(Shape shape, DType dtype = DType::Float32);
std::vector<HostTensor> one(HostTensor t);

inline std::int64_t float_bits(float f) {
  return std::bit_cast<std::int32_t>(f);
}

// data_format absent or NHWC (attributes are read with ops/attr.h's try_attr: a bad one makes
// the node fit no operator, and the cpu kernel gives the error).
bool nhwc(const graph::Node& node);
// The node's window (ops/window.h) over `input` (and `filter`), or nullopt for bad attributes or
// an empty input or output: the cpu kernel then decides what those mean.
std::optional<ops::Window> window_of(const graph::Node& node, const Shape& input,
                                     const Shape& filter = {});
// The node's first output is float32 as far as shape inference knows (unknown counts as yes).
bool float_output(const graph::Node& node);

}  // namespace tfjsi::xnnpack
