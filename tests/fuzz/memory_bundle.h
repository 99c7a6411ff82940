// A Bundle made from model.json text alone, with zero-valued weights in place of shard data, so
// that the graph fuzz targets reach GraphDef import and Keras lowering without touching the disk.
#pragma once

#include <string_view>

#include "model/bundle.h"

namespace tfjsi::fuzz {

// Parses and validates `text` the way load_bundle does, then gives every manifest weight a zero
// tensor of its shape. Throws ModelError for a bad model.
model::Bundle memory_bundle(std::string_view text);

}  // namespace tfjsi::fuzz
