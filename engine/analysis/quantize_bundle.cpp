#include "analysis/quantize_bundle.h"

#include <fnmatch.h>

#include <cmath>
#include <cstring>

#include "core/error.h"
#include "model/bundle_writer.h"

namespace tfjsi::analysis {
namespace {

std::uint64_t float32_bytes(const model::Weight& w) {
  return static_cast<std::uint64_t>(w.value.num_elements()) * 4;
}

bool is_float32(const model::Weight& w) {
  return w.dtype == DType::Float32;
}

bool all_finite(const HostTensor& t) {
  for (const float v : t.values<float>())
    if (!std::isfinite(v)) return false;
  return true;
}

// The bytes a weight left alone takes: as stored, or as plain float32 when it was quantized in
// the input and is now written float32.
std::uint64_t unquantized_bytes(const model::Weight& w) {
  return is_float32(w) ? float32_bytes(w) : w.stored_bytes;
}

}  // namespace

bool glob_matches(std::string_view pattern, const std::string& name) {
  // FNM_NOESCAPE: Python's fnmatch has no escape character; no FNM_PATHNAME: '*' crosses '/'.
  return ::fnmatch(std::string(pattern).c_str(), name.c_str(), FNM_NOESCAPE) == 0;
}

std::string glob_escape(std::string_view name) {
  std::string out;
  for (const char c : name) {
    if (c == '*' || c == '?' || c == '[') {
      out += '[';
      out += c;
      out += ']';
    } else {
      out += c;
    }
  }
  return out;
}

QuantizedBundle quantize_bundle(const model::Bundle& bundle, model::Quantization dtype,
                                const std::function<bool(const model::Weight&)>& keep_float) {
  QuantizedBundle q;
  q.dtype = dtype;
  q.weights.resize(bundle.weights.size());
  for (std::size_t i = 0; i < bundle.weights.size(); ++i) {
    const model::Weight& w = bundle.weights[i];
    q.float_bytes += unquantized_bytes(w);
    if (!is_float32(w) || (keep_float && keep_float(w))) continue;
    if (dtype != model::Quantization::Float16 && !all_finite(w.value)) {
      q.not_quantizable.push_back(w.name);
      continue;
    }
    q.weights[i] = std::make_shared<const QuantizedWeight>(quantize_weight(w.value, dtype, w.name));
  }
  recount_bytes(bundle, q);
  return q;
}

void recount_bytes(const model::Bundle& bundle, QuantizedBundle& q) {
  q.bytes = 0;
  for (std::size_t i = 0; i < bundle.weights.size(); ++i)
    q.bytes += q.weights[i] ? q.weights[i]->bytes.size() : unquantized_bytes(bundle.weights[i]);
}

model::Bundle dequantized_copy(const model::Bundle& bundle, const QuantizedBundle& q) {
  model::Bundle copy = bundle;
  for (std::size_t i = 0; i < copy.weights.size(); ++i)
    if (q.weights[i]) copy.weights[i].value = q.weights[i]->dequantized;
  return copy;
}

std::uint64_t write_quantized_bundle(const model::Bundle& bundle, const QuantizedBundle& q,
                                     const std::filesystem::path& dir) {
  const nlohmann::ordered_json model_json = model::read_model_json_ordered(bundle);
  std::vector<std::vector<model::WeightRecord>> groups;
  if (const auto m = model_json.find("weightsManifest"); m != model_json.end() && m->is_array())
    groups.resize(m->size());  // every group stays, even one that holds no weight
  for (std::size_t i = 0; i < bundle.weights.size(); ++i) {
    const model::Weight& w = bundle.weights[i];
    const nlohmann::ordered_json* original = model::find_manifest_entry(model_json, w.name);
    if (!original)
      throw ModelError(bundle.model_json.string() + ": weight '" + w.name +
                       "' is not in its weightsManifest when read again");
    if (groups.size() <= w.group) groups.resize(w.group + 1);
    model::WeightRecord r;
    r.entry = *original;
    if (!is_float32(w)) {
      r.bytes = model::read_stored_bytes(bundle, w);  // untouched, quantization field and all
    } else if (const auto& qw = q.weights[i]) {
      // The converter's entry: dtype stays the original, `quantization` says how it is stored,
      // its keys in the converter's order.
      r.entry["dtype"] = "float32";
      nlohmann::ordered_json quant;
      quant["dtype"] = std::string(model::to_string(qw->dtype));
      if (qw->dtype != model::Quantization::Float16) {
        quant["min"] = qw->min;
        quant["scale"] = qw->scale;
      }
      quant["original_dtype"] = "float32";
      r.entry["quantization"] = std::move(quant);
      r.bytes = qw->bytes;
    } else {
      r.entry["dtype"] = "float32";
      r.entry.erase("quantization");
      r.bytes.resize(float32_bytes(w));
      if (!r.bytes.empty()) std::memcpy(r.bytes.data(), w.value.buffer->data(), r.bytes.size());
    }
    groups[w.group].push_back(std::move(r));
  }
  return model::write_bundle(dir, model_json, groups);
}

}  // namespace tfjsi::analysis
