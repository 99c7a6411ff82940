// Parsing of GraphDef node input strings and of output references. Private to engine/graph.
#pragma once

#include <string>
#include <string_view>

namespace tfjsi::graph::detail {

// "name" (output 0), "name:1", "^name" (control input), and inside library functions
// "name:out_arg:1" (output 1 of the node's output argument out_arg).
struct InputName {
  std::string node;
  int output = 0;
  std::string output_arg;  // empty unless the three-part form was used
  bool control = false;
};

// Throws ModelError("input 'text' ...") for an empty name or an index that is not a number.
InputName parse_input_name(std::string_view text);

// The output index a function-body reference "node:arg:idx" means for `op`: the position of the
// output argument `arg` among the op's outputs plus `idx` for ops whose output arguments are
// single tensors, and `idx` for everything else (as TF.js does).
int resolve_output_arg(std::string_view op, std::string_view arg, int idx);

}  // namespace tfjsi::graph::detail
