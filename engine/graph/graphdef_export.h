// IR back to GraphDef JSON (protobuf's JSON mapping, as tensorflowjs_converter writes it and
// TF.js's loadGraphModel reads it): what `tfjsi reduce` writes for a layers model, whose lowered
// nodes have no model.json text of their own. The inverse of attr_decode.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "graph/ir.h"

namespace tfjsi::graph {

// TensorShapeProto: {"dim": [{"size": "1"}, ...]}, {"unknownRank": true}; -1 for unknown dims.
nlohmann::ordered_json shape_to_json(const PartialShape& shape);

// One AttrValue ({"i": "3"}, {"list": {"s": [...]}}, ...). Tensor values are written with their
// data inline (floatVal, intVal, boolVal, stringVal, scomplexVal).
nlohmann::ordered_json attr_to_json(const AttrValue& value);

// How a GraphDef names output `output` of node `name`: "name" for output 0, else "name:K".
std::string tensor_name(const std::string& name, int output);

}  // namespace tfjsi::graph
