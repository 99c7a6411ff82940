// Where a model input's values come from in the GUI: the deterministic generator, zeros, a .npy
// file, or an image file resized to the input's height and width and scaled as the user picks.
#pragma once

#include <QString>
#include <vector>

#include "core/host_tensor.h"
#include "graph/ir.h"
#include "runtime/executor.h"

namespace tfjsi::ui {

enum class InputKind { Generator, Zeros, Npy, Image };
// How image bytes 0..255 become values: [0,1], [-1,1], or 0..255 unchanged.
enum class ImageScale { Unit, Signed, Bytes };

struct InputSpec {
  std::string input;  // the endpoint's name
  InputKind kind = InputKind::Generator;
  QString path;  // Npy and Image
  ImageScale scale = ImageScale::Unit;
};

// The tensor for `endpoint`. Throws ModelError naming the input (and the file) when the file cannot
// be read, or its shape or dtype does not fit the input, or an image input is not [N,H,W,C] or
// [H,W,C] with C 1, 3 or 4.
HostTensor make_input(const graph::Endpoint& endpoint, const InputSpec& spec);

// A tensor for every input of `graph`: the spec named after it, else the generator's.
runtime::NamedTensors make_inputs(const graph::Graph& graph, const std::vector<InputSpec>& specs);

// Whether `shape` fits `declared` (same rank, equal where the declared dim is known).
bool shape_fits(const PartialShape& declared, const Shape& shape);

}  // namespace tfjsi::ui
