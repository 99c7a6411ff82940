#include <string_view>

#include "core/error.h"
#include "fuzz_targets.h"
#include "graph/build.h"
#include "memory_bundle.h"

namespace tfjsi::fuzz {
namespace {

// Both graph targets run the whole pipeline; they differ in their seeds and dictionaries, and in
// which kind of model they take (the other kind is left to the other target).
int build(const std::uint8_t* data, std::size_t size, model::ModelKind kind) {
  try {
    const auto b = memory_bundle({reinterpret_cast<const char*>(data), size});
    if (b.kind != kind) return 0;
    const auto g = graph::build_graph(b);
    (void)g.nodes.size();
  } catch (const ModelError&) {
  }
  return 0;
}

}  // namespace

int graphdef(const std::uint8_t* data, std::size_t size) {
  return build(data, size, model::ModelKind::Graph);
}

int keras(const std::uint8_t* data, std::size_t size) {
  return build(data, size, model::ModelKind::Layers);
}

}  // namespace tfjsi::fuzz
