// Transposes moved past the ops that do not care about layout, so that pairs undoing each other
// meet and vanish. Models converted from NCHW frameworks (PyTorch or ONNX through onnx-tf) wrap
// every NHWC convolution in a Transpose each way and run their activations, pads and concats in
// NCHW between them: nanodet has 83 Transposes, each a full pass over its tensor that also splits
// the runs of nodes a backend could take as one unit.
#pragma once

#include <cstdint>
#include <optional>

#include "graph/ir.h"

namespace tfjsi::graph {

struct SinkReport {
  // Transpose nodes a run of the graph's outputs executes, and the elements they move (-1 when a
  // shape is not known before running).
  int transposes_before = 0, transposes_after = 0;
  std::int64_t elements_before = 0, elements_after = 0;
};

// A copy of `graph` in which a Transpose feeding an elementwise op (unary, or binary with the
// other operand transposed alike or a constant), Pad, PadV2, MirrorPad or ConcatV2 moves after
// it (the op runs on the untransposed tensor, with its constants, paddings or axis permuted), and
// two Transposes that meet compose (into an Identity when they cancel). Every node keeps its name
// and its value: a node the move passes keeps its name on the Transpose that now makes its
// value, and the op itself becomes "<name>/sunk". Exact: only data movement changes.
// nullopt when the copy would not move fewer elements through Transposes than `graph` (nothing
// to cancel), or when the graph has TF1 control flow.
std::optional<Graph> sink_transposes(const Graph& graph, SinkReport* report = nullptr);

}  // namespace tfjsi::graph
