#include "ops/einsum.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>

#include "core/error.h"
#include "ops/attr.h"

namespace tfjsi::ops {
namespace {

std::string join(std::initializer_list<std::string_view> parts) {
  std::string r;
  for (auto p : parts) r += p;
  return r;
}

}  // namespace

std::optional<EinsumEquation> parse_einsum(std::string_view equation, std::size_t operands,
                                           std::string* why) {
  const auto refuse = [&](std::string reason) -> std::optional<EinsumEquation> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  std::string eq;
  for (char ch : equation)
    if (!std::isspace(static_cast<unsigned char>(ch))) eq.push_back(ch);
  const auto arrow = eq.find("->");
  if (arrow == std::string::npos) return refuse("equations without an arrow are not supported");
  if (eq.find("->", arrow + 2) != std::string::npos)
    return refuse("the equation must contain exactly one arrow (\"->\")");
  const std::string in = eq.substr(0, arrow);
  EinsumEquation r;
  r.output = eq.substr(arrow + 2);
  if (eq.find('.') != std::string::npos)
    return refuse("the ellipsis notation (\"...\") is not supported");
  for (std::size_t start = 0;;) {
    const auto comma = in.find(',', start);
    r.inputs.push_back(in.substr(start, comma == std::string::npos ? comma : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (r.inputs.size() != operands)
    return refuse("expected " + std::to_string(r.inputs.size()) + " input tensors, received " +
                  std::to_string(operands));
  if (r.inputs.size() > 2) return refuse("more than 2 input tensors are not supported");
  for (std::size_t i = 0; i < r.output.size(); ++i) {
    const char label = r.output[i];
    const std::string_view name(&r.output[i], 1);
    if (std::ranges::none_of(r.inputs,
                             [&](const std::string& t) { return t.find(label) != t.npos; }))
      return refuse(join(
          {"output subscripts contain the label ", name, " not present in the input subscripts"}));
    // TF refuses this too; TF.js would quietly return 'ij->ii's input as it is.
    if (r.output.find(label, i + 1) != std::string::npos)
      return refuse(join({"output subscripts repeat the label ", name}));
  }
  for (const std::string& t : r.inputs)
    for (std::size_t i = 0; i < t.size(); ++i)
      if (t.find(t[i], i + 1) != std::string::npos)
        return refuse("found duplicate axes in input component " + t +
                      " (duplicate axes in an input are not supported)");
  return r;
}

EinsumEquation einsum_equation(const graph::Node& node, std::size_t operands) {
  const auto equation = attr<std::string>(node, "equation");
  std::string why;
  auto r = parse_einsum(equation, operands, &why);
  if (!r)
    throw ModelError("node '" + node.name + "' (" + node.op + "): equation '" + equation +
                     "': " + why);
  return std::move(*r);
}

}  // namespace tfjsi::ops
