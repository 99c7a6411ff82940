// Node attributes as text a person reads: decoded types, shapes, tensors, lists.
#pragma once

#include <string>

#include "graph/ir.h"

namespace tfjsi::ui {

std::string format_attr(const graph::AttrValue& value);
// "[1,224,224,3] float32", "<unknown> ?" for what inference did not reach.
std::string format_tensor_info(const graph::TensorInfo& info);
// A few leading values of a tensor: "{1, 2, 3, ...}".
std::string preview_values(const HostTensor& t, int max_values = 8);

}  // namespace tfjsi::ui
