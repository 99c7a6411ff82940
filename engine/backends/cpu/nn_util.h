// Shared checks for the neural-network kernels: every error names the node. Attributes are read
// with ops/attr.h.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backends/cpu/kernel.h"

namespace tfjsi::cpu::nn {

// Throws ModelError "node 'NAME' (OP): WHAT".
[[noreturn]] void fail(const graph::Node& node, std::string_view what);

// Checks that the node got between `min` and `max` inputs.
void expect_inputs(const KernelContext& ctx, std::size_t min, std::size_t max);
// Input `i` as a float32 tensor of rank `rank` (-1: any rank); `what` names it in errors.
const HostTensor& float_input(const KernelContext& ctx, std::size_t i, int rank,
                              std::string_view what);
// Input `i`, an int32 (or integral float) tensor holding a list of sizes, as int64 values.
std::vector<std::int64_t> int_input_values(const KernelContext& ctx, std::size_t i,
                                           std::string_view what);

// Fails unless data_format is absent or NHWC (NCHW kernels are not implemented).
void expect_nhwc(const graph::Node& node);

// A fresh float32 output; fails (instead of allocating without bound) past 2^31 elements.
HostTensor new_output(const graph::Node& node, Shape shape, DType dtype = DType::Float32);
// The same with unspecified values, for kernels that write every element (no zero fill).
HostTensor new_output_uninitialized(const graph::Node& node, Shape shape,
                                    DType dtype = DType::Float32);

// `param` broadcast against `shape`, which it must not enlarge: the values of one period, so that
// element i of the broadcast tensor (row-major) is period[i % period.size()]. Fails naming the
// node and `what` when the shapes do not broadcast that way.
std::vector<float> broadcast_period(const graph::Node& node, const HostTensor& param,
                                    std::span<const std::int64_t> shape, std::string_view what);

}  // namespace tfjsi::cpu::nn
