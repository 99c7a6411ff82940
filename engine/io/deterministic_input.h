// The deterministic inputs of DESIGN.md, so that tfjsi, the tests and TF.js feed a model the same
// numbers without shipping input files.
#pragma once

#include "core/host_tensor.h"
#include "graph/ir.h"

namespace tfjsi::io {

// Element i (flat, row-major): float inputs ((i * 2654435761) mod 2^32) / 2^32; int inputs the
// same product >> 24 (0..255); bool inputs its lowest bit of that; complex64 inputs the float
// value as the real part and 0 as the imaginary part.
HostTensor deterministic_tensor(DType dtype, const Shape& shape);

// The concrete shape used for an endpoint when the user gives none: unknown dims become 1, an
// unknown rank becomes a scalar.
Shape default_shape(const PartialShape& shape);

}  // namespace tfjsi::io
