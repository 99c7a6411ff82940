#include "graph/input_name.h"

#include <array>
#include <charconv>
#include <utility>

#include "core/error.h"

namespace tfjsi::graph::detail {
namespace {

[[noreturn]] void bad(std::string_view text, std::string_view why) {
  throw ModelError("input '" + std::string(text) + "' " + std::string(why));
}

int parse_index(std::string_view text, std::string_view digits) {
  int v = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || v < 0)
    bad(text, "has an output index that is not a non-negative number");
  // No op has anywhere near this many outputs; a larger index is a corrupt file.
  if (v > 65535) bad(text, "has an output index above 65535");
  return v;
}

// Output argument names of the ops whose outputs are several single tensors (TF's op defs).
struct OutputArgs {
  std::string_view op;
  std::array<std::string_view, 6> args;  // unused slots stay empty
};
constexpr std::array<OutputArgs, 15> kOutputArgs = {{
    {"Switch", {"output_false", "output_true"}},
    {"Merge", {"output", "value_index"}},
    {"TopKV2", {"values", "indices"}},
    {"Unique", {"y", "idx"}},
    {"UniqueV2", {"y", "idx"}},
    {"ListDiff", {"out", "idx"}},
    {"NonMaxSuppressionV4", {"selected_indices", "valid_outputs"}},
    {"NonMaxSuppressionV5", {"selected_indices", "selected_scores", "valid_outputs"}},
    {"TensorArrayV3", {"handle", "flow"}},
    {"StringSplit", {"indices", "values", "shape"}},
    {"StringNGrams", {"ngrams", "ngrams_splits"}},
    {"FusedBatchNorm", {"y", "batch_mean", "batch_variance", "reserve_space_1", "reserve_space_2"}},
    {"FusedBatchNormV2",
     {"y", "batch_mean", "batch_variance", "reserve_space_1", "reserve_space_2"}},
    {"FusedBatchNormV3",
     {"y", "batch_mean", "batch_variance", "reserve_space_1", "reserve_space_2",
      "reserve_space_3"}},
    {"LookupTableFindV2", {"values"}},
}};

}  // namespace

InputName parse_input_name(std::string_view text) {
  InputName in;
  std::string_view rest = text;
  if (rest.starts_with('^')) {
    in.control = true;
    rest.remove_prefix(1);
  }
  const auto first = rest.find(':');
  if (first == std::string_view::npos) {
    in.node = std::string(rest);
  } else {
    if (in.control) bad(text, "is a control input with an output index");
    in.node = std::string(rest.substr(0, first));
    std::string_view tail = rest.substr(first + 1);
    const auto second = tail.find(':');
    if (second == std::string_view::npos) {
      in.output = parse_index(text, tail);
    } else {
      in.output_arg = std::string(tail.substr(0, second));
      if (in.output_arg.empty()) bad(text, "has an empty output argument name");
      in.output = parse_index(text, tail.substr(second + 1));
    }
  }
  if (in.node.empty()) bad(text, "names no node");
  return in;
}

int resolve_output_arg(std::string_view op, std::string_view arg, int idx) {
  for (const auto& entry : kOutputArgs) {
    if (entry.op != op) continue;
    int pos = 0;
    for (auto a : entry.args) {
      if (!a.empty() && a == arg) return pos + idx;
      ++pos;
    }
  }
  return idx;
}

}  // namespace tfjsi::graph::detail
