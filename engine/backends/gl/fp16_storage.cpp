#include "backends/gl/fp16_storage.h"

#include <bit>
#include <cmath>
#include <limits>

#include "backends/gl/gl_backend.h"
#include "backends/gl/gl_op.h"
#include "backends/gl/shader_library.h"

namespace tfjsi::gl {

std::vector<float> half_probe_values() {
  const float inf = std::numeric_limits<float>::infinity();
  return {1e6f,
          -1e6f,
          98256.f,
          65519.f,
          65520.f,
          -65520.f,
          65535.f,
          65504.f,
          1.0f + 0.75f / 1024.f,
          1.0f + 0.5f / 1024.f,
          1.0f + 1.5f / 1024.f,
          -(1.0f + 0.75f / 1024.f),
          0.1f,
          3.14159265f,
          300.7f,
          2047.9f,
          1e-5f,
          -1e-5f,
          3e-5f,
          6.1e-5f,
          4e-8f,
          -4e-8f,
          2e-8f,
          3e-8f,
          std::ldexp(1.0f, -25),
          std::ldexp(3.0f, -26),
          1e-30f,
          -1e-30f,
          0.0f,
          -0.0f,
          inf,
          -inf,
          std::numeric_limits<float>::quiet_NaN(),
          std::ldexp(1.0f, -24),
          std::ldexp(1.0f, -14),
          1.0f};
}

std::optional<HalfRule> half_rule_of(std::span<const float> written, std::span<const float> read) {
  if (written.size() != read.size()) return std::nullopt;
  for (HalfRounding r : {HalfRounding::NearestEven, HalfRounding::TowardZero})
    for (HalfOverflow o : {HalfOverflow::Inf, HalfOverflow::Clamp}) {
      const HalfRule rule{r, o};
      bool all = true;
      for (std::size_t i = 0; i < written.size() && all; ++i) {
        const float want = round_to_half(written[i], rule);
        all = std::isnan(want)
                  ? std::isnan(read[i])
                  : std::bit_cast<std::uint32_t>(want) == std::bit_cast<std::uint32_t>(read[i]);
      }
      if (all) return rule;
    }
  return std::nullopt;
}

void add_half_round(KernelCall& call, const HalfRule& rule) {
  // The limits are the same text for every call: formatted once.
  static const std::string kHalfLimits = def("HALF_MAX", kHalfMax) +
                                         def("HALF_MIN_NORMAL", kHalfMinNormal) +
                                         def("HALF_MIN_SUBNORMAL", kHalfMinSubnormal) +
                                         def("HALF_SUBNORMAL_STEPS", 1.0f / kHalfMinSubnormal);
  call.defines += def("HALF_NEAREST", std::int64_t{rule.rounding == HalfRounding::NearestEven}) +
                  def("HALF_INF", std::int64_t{rule.overflow == HalfOverflow::Inf}) + kHalfLimits;
  call.extra += shader_source("half_round.glsl");
}

KernelCall half_round_call(GlTensorData& t, const HalfRule& rule) {
  KernelCall call;
  call.shader = "half_round.comp";
  add_half_round(call, rule);
  // Read and written through two image units bound to one texture: each invocation reads its
  // texel before it writes it, and images that are not `restrict` may alias (GLSL 4.30, 4.10).
  call.inputs = {&t};
  call.output = &t;
  return call;
}

std::string rule_text(const HalfRule& rule) {
  return std::string(to_string(rule.rounding)) + ", " + std::string(to_string(rule.overflow));
}

void GlBackend::probe_half_rules() {
  const std::vector<float> values = half_probe_values();
  HostTensor host =
      HostTensor::zeros(DType::Float32, {1, 1, 1, static_cast<std::int64_t>(values.size())});
  std::copy(values.begin(), values.end(), host.mutable_values<float>().begin());
  TexLayout layout = *layout_of(host.shape);
  if (ctx_->limits().variant_per_pow2_sides)
    layout = without_pow2_sides(layout, ctx_->limits().max_texture_size);
  auto read = [&](const std::shared_ptr<GlTensorData>& d) {
    HostTensor back = download({d, DType::Float32, host.shape});
    const auto v = back.values<float>();
    return std::vector<float>(v.begin(), v.end());
  };
  // Not from the pool: these textures are no tensor's.
  auto half = [&] {
    return std::make_shared<GlTensorData>(make_texture(ctx_, layout, true), layout, Storage::Fp16);
  };
  // Upload: the texels go to an RGBA16F texture as a native fp16 upload sends them.
  auto uploaded = half();
  write_texels(*uploaded, pack_phwc4(host, layout));
  const std::vector<float> up = read(uploaded);
  // Store: exact values in an RGBA32F texture, copied by a kernel into an RGBA16F image.
  auto exact =
      std::make_shared<GlTensorData>(make_texture(ctx_, layout, false), layout, Storage::Fp32);
  write_texels(*exact, pack_phwc4(host, layout));
  auto stored = half();
  KernelCall call;
  call.shader = "unary.comp";
  call.defines = def_symbol("OP", "OP_COPY");
  set_activation(call, Activation::None, 0.f);
  call.inputs = {exact.get()};
  call.output = stored.get();
  dispatch(call);
  const std::vector<float> st = read(stored);
  const auto up_rule = half_rule_of(values, up);
  const auto st_rule = half_rule_of(values, st);
  if (up_rule && st_rule) {
    // The rounding pass itself, on this driver, against its RGBA16F store: the exact values
    // rounded in place must read back as `st`, bit for bit. This also builds the pass's program,
    // so that the first fp16 run after fp32 builds nothing.
    auto emulated = std::make_shared<GlTensorData>(make_texture(ctx_, layout, false), layout,
                                                   Storage::Fp16Emulated);
    write_texels(*emulated, pack_phwc4(host, layout));
    dispatch_one(half_round_call(*emulated, *st_rule));
    const std::vector<float> em = read(emulated);
    for (std::size_t i = 0; i < values.size(); ++i)
      if (std::bit_cast<std::uint32_t>(em[i]) != std::bit_cast<std::uint32_t>(st[i]) &&
          !(std::isnan(em[i]) && std::isnan(st[i]))) {
        half_rules_note_ = "the rounding pass gives " + std::to_string(em[i]) + " for " +
                           std::to_string(values[i]) + ", the driver's RGBA16F store " +
                           std::to_string(st[i]);
        return;
      }
    half_rules_ = HalfStorageRules{*up_rule, *st_rule};
    return;
  }
  // Say which value no rule explains, for the flag's text.
  const std::vector<float>& got = up_rule ? st : up;
  std::string first;
  for (std::size_t i = 0; i < values.size() && first.empty(); ++i)
    if (half_rule_of(std::span(values).subspan(i, 1), std::span(got).subspan(i, 1)) == std::nullopt)
      first = std::to_string(values[i]) + " read back as " + std::to_string(got[i]);
  half_rules_note_ = std::string("no known rule: the ") + (up_rule ? "store" : "upload") + " of " +
                     (first.empty() ? "the probe values" : first);
}

}  // namespace tfjsi::gl
