// Decoding of GraphDef JSON attribute values (protobuf's JSON mapping of AttrValue, TensorProto,
// TensorShapeProto) into the IR's AttrValue. Private to engine/graph.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "graph/ir.h"

namespace tfjsi::graph::detail {

// Standard or URL-safe base64, padding optional. Throws ModelError on a bad character or length.
std::string decode_base64(std::string_view text);

// An int64 written as a JSON number or a decimal string. Throws ModelError otherwise.
std::int64_t json_int64(const nlohmann::json& j);
// A float written as a JSON number or a string ("NaN", "Infinity", "-Infinity", "1.5").
float json_float(const nlohmann::json& j);
// A DataType written as its enum name ("DT_FLOAT") or its number (1); returns the enum name.
std::string json_tf_type(const nlohmann::json& j);

// TensorShapeProto: {dim: [{size}], unknownRank}. A missing size is 0 (protobuf omits zeros).
PartialShape decode_shape(const nlohmann::json& j);
// TensorProto to a host tensor, TF.js dtype narrowing applied. Fewer values than elements repeat
// the last one (TF's rule; none at all means zeros).
HostTensor decode_tensor(const nlohmann::json& j);
// True when the TensorProto carries values of its own (not just dtype and shape, which is what
// the converter leaves in a Const whose data went to the weights manifest).
bool tensor_has_content(const nlohmann::json& j);

// One AttrValue. `name` picks the element type of an empty list ({}), which JSON cannot tell.
// nullopt for forms the IR does not hold (a function-attr placeholder, an empty value).
std::optional<AttrValue> decode_attr(const nlohmann::json& j, std::string_view name);

}  // namespace tfjsi::graph::detail
