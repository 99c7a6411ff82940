#include "analysis/fp16_gl_probe.h"

#include <cmath>

#include "core/error.h"

namespace tfjsi::analysis {

namespace {

// Positive values (the shader path goes through Relu). Each pair of rules differs on some:
// 65519 and 65520 (nearest-even keeps / overflows, truncation keeps both), 1e6 (inf or 65504),
// 1 + 0.75 * 2^-10 (nearest rounds up, truncation down), 4e-8 (nearest gives 2^-24, truncation 0).
std::vector<float> probe_values() {
  return {1e6f,
          98256.f,
          65519.f,
          65520.f,
          65535.f,
          1.0f + 0.75f / 1024.f,
          1.0f + 0.5f / 1024.f,
          1.0f + 1.5f / 1024.f,
          0.1f,
          3.14159265f,
          1e-5f,
          4e-8f,
          2e-8f,
          300.7f,
          2047.9f,
          0.0f};
}

GlHalfPath classify(const std::vector<float>& written, const std::vector<float>& read) {
  GlHalfPath best;
  int best_hits = -1;
  for (HalfRounding r : {HalfRounding::NearestEven, HalfRounding::TowardZero})
    for (HalfOverflow o : {HalfOverflow::Inf, HalfOverflow::Clamp}) {
      const HalfRule rule{r, o};
      int hits = 0;
      for (std::size_t i = 0; i < written.size(); ++i) {
        const float want = round_to_half(written[i], rule);
        if (want == read[i] || (std::isnan(want) && std::isnan(read[i]))) ++hits;
      }
      if (hits > best_hits) {
        best_hits = hits;
        best.rule = rule;
      }
    }
  best.exact = best_hits == static_cast<int>(written.size());
  for (std::size_t i = 0; i < written.size(); ++i) best.samples.emplace_back(written[i], read[i]);
  return best;
}

HostTensor tensor_of(const std::vector<float>& v) {
  HostTensor t = HostTensor::zeros(DType::Float32, {1, 1, 1, static_cast<std::int64_t>(v.size())});
  std::copy(v.begin(), v.end(), t.mutable_values<float>().begin());
  return t;
}

std::vector<float> values_of(const HostTensor& t) {
  const auto v = t.values<float>();
  return {v.begin(), v.end()};
}

}  // namespace

GlHalfProbe probe_gl_half(runtime::Engine& engine) {
  GlHalfProbe p;
  runtime::Backend* gl = engine.find_backend("gl");
  if (!gl) {
    p.reason = "this build has no gl backend";
    return p;
  }
  const runtime::Availability a = gl->availability();
  if (!a.available) {
    p.reason = a.reason;
    return p;
  }
  if (!engine.flags().has("gl.float32_enabled")) {
    p.reason = "the gl backend has no gl.float32_enabled flag";
    return p;
  }
  const bool was = engine.flags().get_bool("gl.float32_enabled");
  struct Restore {
    runtime::Engine& e;
    bool v;
    ~Restore() { e.flags().set_value("gl.float32_enabled", v); }
  } restore{engine, was};

  const std::vector<float> values = probe_values();
  const HostTensor host = tensor_of(values);
  try {
    engine.flags().set_value("gl.float32_enabled", false);
    {
      auto data = gl->upload(host);
      p.upload = classify(values, values_of(gl->download({data, DType::Float32, host.shape})));
    }
    // Exact fp32 data in, a half image out: only the shader's store converts.
    engine.flags().set_value("gl.float32_enabled", true);
    auto data = gl->upload(host);
    engine.flags().set_value("gl.float32_enabled", false);
    graph::Node relu;
    relu.name = "fp16_probe";
    relu.op = "Relu";
    relu.inputs.push_back({0, 0});
    relu.attrs["T"] = graph::TypeAttr{"DT_FLOAT"};
    relu.outputs.push_back({DType::Float32, PartialShape::unknown()});
    const runtime::TensorView in{data, DType::Float32, host.shape};
    runtime::RunContext ctx{engine.pool(), engine.flags()};
    auto out = gl->run(relu, std::span<const runtime::TensorView>(&in, 1), ctx);
    if (out.size() != 1) throw ModelError("gl probe: Relu gave no output");
    p.store = classify(values, values_of(gl->download(out[0])));
    p.available = true;
  } catch (const std::exception& e) {
    p.reason = std::string("gl half-float probe failed: ") + e.what();
  }
  return p;
}

nlohmann::json to_json(const GlHalfProbe& p) {
  if (!p.available) return {{"available", false}, {"reason", p.reason}};
  auto path = [](const GlHalfPath& h) {
    nlohmann::json s = nlohmann::json::array();
    for (auto [w, r] : h.samples) {
      nlohmann::json rj = std::isfinite(r)
                              ? nlohmann::json(r)
                              : nlohmann::json(std::isnan(r) ? "nan" : (r > 0 ? "inf" : "-inf"));
      s.push_back({{"written", w}, {"read", rj}});
    }
    return nlohmann::json{{"rounding", std::string(to_string(h.rule.rounding))},
                          {"overflow_rule", std::string(to_string(h.rule.overflow))},
                          {"exact", h.exact},
                          {"samples", s}};
  };
  return {{"available", true}, {"upload", path(p.upload)}, {"store", path(p.store)}};
}

}  // namespace tfjsi::analysis
