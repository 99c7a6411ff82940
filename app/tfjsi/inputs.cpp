#include "inputs.h"

#include <iostream>

#include "core/error.h"
#include "core/memory_limit.h"
#include "core/terminal_text.h"
#include "io/deterministic_input.h"
#include "io/npy.h"

namespace tfjsi::cli {
namespace {

// The endpoint a user means by `name`: its own name or its Placeholder node's name.
const graph::Endpoint* find_input(const graph::Graph& graph, const std::string& name) {
  for (const auto& e : graph.inputs) {
    if (e.name == name) return &e;
    if (e.ref.node >= 0 && graph.nodes[static_cast<std::size_t>(e.ref.node)].name == name)
      return &e;
  }
  return nullptr;
}

std::string input_names(const graph::Graph& graph) {
  std::string s;
  for (const auto& e : graph.inputs) s += (s.empty() ? "" : ", ") + e.name;
  return s.empty() ? "none" : s;
}

}  // namespace

ModelInputs make_inputs(const graph::Graph& graph, const std::vector<std::string>& specs) {
  ModelInputs in;
  for (const auto& spec : specs) {
    std::string name, file;
    const auto eq = spec.find('=');
    if (eq == std::string::npos) {
      if (graph.inputs.size() != 1)
        throw UsageError(
            "--input " + spec + ": the model has " + std::to_string(graph.inputs.size()) +
            " inputs, so say which one: --input NAME=FILE.npy (inputs: " + input_names(graph) +
            ")");
      name = graph.inputs[0].name;
      file = spec;
    } else {
      name = spec.substr(0, eq);
      file = spec.substr(eq + 1);
    }
    const graph::Endpoint* e = find_input(graph, name);
    if (!e)
      throw ModelError("--input " + name + ": the model has no input of that name (inputs: " +
                       input_names(graph) + ")");
    if (in.tensors.count(e->name)) throw UsageError("--input " + e->name + " given twice");
    std::vector<std::string> warnings;
    in.tensors[e->name] = io::read_npy(file, &warnings);
    for (const auto& w : warnings) std::cerr << "tfjsi: warning: " << terminal_safe(w) << '\n';
  }
  for (const auto& e : graph.inputs) {
    if (in.tensors.count(e.name)) continue;
    // Filling the rest in silently would run the model on data the user never chose; as in
    // TF.js, a partial feed is an error. No --input at all means "generate every input".
    if (!specs.empty())
      throw ModelError("input '" + e.name + "' is not given: the model has inputs " +
                       input_names(graph) +
                       "; give each with --input NAME=FILE.npy, or none to generate them all");
    const DType dtype = e.dtype.value_or(DType::Float32);
    if (dtype == DType::String)
      throw ModelError("input '" + e.name + "' holds strings: give it with --input");
    try {
      in.tensors[e.name] = io::deterministic_tensor(dtype, io::default_shape(e.shape));
    } catch (const TooLarge& err) {
      throw ModelError("input '" + e.name + "' (made from the model's signature): " + err.what());
    }
    in.generated.push_back(e.name);
  }
  return in;
}

}  // namespace tfjsi::cli
