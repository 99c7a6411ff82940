// Executor::feeds_from: the model's inputs checked against the graph's signature (names, dtypes,
// shapes, data that fills them, NaN unless `prod`) and made into the run's feeds.
#include <cmath>

#include "core/error.h"
#include "runtime/executor.h"

namespace tfjsi::runtime {

namespace {

std::string describe(std::optional<DType> dtype, const PartialShape& shape) {
  return std::string(dtype ? to_string(*dtype) : "any") + " " + shape.to_string();
}

}  // namespace

std::vector<Value> Executor::feeds_from(const NamedTensors& inputs) {
  const bool prod = engine_.flags().get_bool("prod");
  std::vector<const HostTensor*> by_input(graph_.inputs.size(), nullptr);
  for (const auto& [name, tensor] : inputs) {
    int k = -1;
    for (std::size_t j = 0; j < graph_.inputs.size() && k < 0; ++j)
      if (graph_.inputs[j].name == name) k = static_cast<int>(j);
    for (std::size_t j = 0; j < graph_.inputs.size() && k < 0; ++j) {
      const int n = graph_.inputs[j].ref.node;
      if (n >= 0 && graph_.nodes[n].name == name) k = static_cast<int>(j);
    }
    if (k < 0) {
      std::string known;
      for (const auto& in : graph_.inputs) known += (known.empty() ? "'" : ", '") + in.name + "'";
      throw ModelError("unknown input '" + name + "'; the model's inputs are " +
                       (known.empty() ? std::string("none") : known));
    }
    if (by_input[k]) throw ModelError("input '" + graph_.inputs[k].name + "' is given twice");
    by_input[k] = &tensor;
  }
  for (std::size_t k = 0; k < graph_.inputs.size(); ++k) {
    const graph::Endpoint& ep = graph_.inputs[k];
    const std::string expected = describe(ep.dtype, ep.shape);
    const HostTensor* t = by_input[k];
    // A PlaceholderWithDefault left unfed takes its default, as in TF.js.
    if (!t && ep.ref.node >= 0 && graph_.nodes[ep.ref.node].op == "PlaceholderWithDefault")
      continue;
    if (!t) throw ModelError("missing input '" + ep.name + "' (expected " + expected + ")");
    const std::string got = std::string(to_string(t->dtype)) + " " + shape_to_string(t->shape);
    if (ep.dtype && *ep.dtype != t->dtype)
      throw ModelError("input '" + ep.name + "': expected " + expected + ", got " + got +
                       " (wrong dtype)");
    bool shape_ok = !ep.shape.rank_known || ep.shape.dims.size() == t->shape.size();
    for (std::size_t d = 0; shape_ok && ep.shape.rank_known && d < t->shape.size(); ++d)
      shape_ok = ep.shape.dims[d] < 0 || ep.shape.dims[d] == t->shape[d];
    if (!shape_ok)
      throw ModelError("input '" + ep.name + "': expected " + expected + ", got " + got +
                       " (wrong shape)");
    const auto n = checked_num_elements(t->shape);
    if (!n ||
        (t->dtype != DType::String &&
         (!t->buffer || t->buffer->size() < static_cast<std::size_t>(*n) * element_size(t->dtype))))
      throw ModelError("input '" + ep.name + "': its data does not fill shape " +
                       shape_to_string(t->shape));
    if (!prod && (t->dtype == DType::Float32 || t->dtype == DType::Complex64)) {
      // complex64: its real and imaginary parts in turn.
      const std::size_t parts = element_size(t->dtype) / 4;
      const std::span<const float> values(reinterpret_cast<const float*>(t->buffer->data()),
                                          static_cast<std::size_t>(*n) * parts);
      for (std::size_t j = 0; j < values.size(); ++j)
        if (std::isnan(values[j]))
          throw ModelError("input '" + ep.name + "' holds NaN (element " +
                           std::to_string(j / parts) + ")");
    }
  }
  std::vector<Value> feeds;
  for (std::size_t k = 0; k < graph_.inputs.size(); ++k)
    feeds.push_back(by_input[k]
                        ? Value{engine_.make_tensor(*by_input[k], graph_.inputs[k].name), {}, {}}
                        : Value{});  // an unfed PlaceholderWithDefault: no handle
  return feeds;
}

}  // namespace tfjsi::runtime
