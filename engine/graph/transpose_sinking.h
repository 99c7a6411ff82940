// Transposes moved past the ops that do not care about layout, so that pairs undoing each other
// meet and vanish. Models converted from NCHW frameworks (PyTorch or ONNX through onnx-tf) wrap
// every NHWC convolution in a Transpose each way and run their activations, pads and concats in
// NCHW between them: nanodet has 83 Transposes, each a full pass over its tensor that also splits
// the runs of nodes a backend could take as one unit.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "graph/ir.h"

namespace tfjsi::graph {

struct SinkReport {
  // Transpose nodes a run of the graph's outputs executes, and the elements they move (-1 when a
  // shape is not known before running).
  int transposes_before = 0, transposes_after = 0;
  std::int64_t elements_before = 0, elements_after = 0;
  bool kept = false;  // the moved form is better, and sink_transposes returned it
};

// The name an op runs under once a Transpose moved past it ("<node>/sunk"), and the model's node
// a name of that form came from (`name` itself when it is not of that form): a profile of a run
// names the moved ops, the graph view the model's.
std::string sunk_name(std::string_view node);
std::string_view sunk_origin(std::string_view name);

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
