// The ops TF.js 4.22's converter maps (every tfOpName of @tensorflow/tfjs-converter's
// op_list/*.js), known at run time without npm: tests/ops/gen/make-op-list.mjs generates
// converter_ops.inc from node_modules, and the CTest ops.converter_list_current fails when it
// goes stale.
#pragma once

#include <span>
#include <string_view>

namespace tfjsi::ops {

struct ConverterOp {
  std::string_view op;        // as model.json writes it ("Conv2D")
  std::string_view category;  // the converter's ("convolution"), or its file's name (tfdf)
};

// In the converter's order (op_list files by name, entries as written).
std::span<const ConverterOp> converter_ops();
// The @tensorflow/tfjs-converter version the list was read from ("4.22.0").
std::string_view converter_version();

}  // namespace tfjsi::ops
