#include "memory_bundle.h"

#include "core/error.h"
#include "model/json_fields.h"
#include "model/json_file.h"
#include "model/manifest.h"
#include "model/model_fields.h"

namespace tfjsi::fuzz {

model::Bundle memory_bundle(std::string_view text) {
  model::Bundle b;
  b.model_json = "fuzz/model.json";
  b.dir = "fuzz";
  model::KeyOrders orders;
  auto root = model::parse_json_text(text, b.model_json, model::ordered_model_paths(), &orders);
  if (!root.is_object()) throw ModelError("fuzz/model.json: expected an object");
  model::read_model_fields(b.model_json, root, b, &orders);
  nlohmann::json manifest;
  if (auto it = root.find("weightsManifest"); it != root.end()) manifest = std::move(*it);
  const auto groups = model::parse_manifest(b.model_json, manifest, b.warnings);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (const auto& spec : groups[g].weights) {
      // The loader would need shard bytes for each element; a fuzz input cannot carry them for
      // large weights, and zeros of a huge shape would only measure malloc.
      if (spec.elements > (std::uint64_t{1} << 20))
        throw ModelError("fuzz/model.json: weight too large for the in-memory fuzz bundle");
      model::Weight w;
      w.name = spec.name;
      w.shape = spec.shape;
      w.dtype = spec.dtype;
      w.quantization = spec.quantization;
      w.scale = spec.scale;
      w.min = spec.min;
      w.group = g;
      w.stored_bytes = spec.fixed_bytes;
      w.value = HostTensor::zeros(spec.dtype, spec.shape);
      b.weights.push_back(std::move(w));
    }
  }
  return b;
}

}  // namespace tfjsi::fuzz
