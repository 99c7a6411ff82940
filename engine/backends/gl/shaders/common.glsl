// Shared by every kernel: the activations of fused nodes and of the standalone ops. Their codes
// (ACT_NONE, ACT_RELU, ..., ACT_LINEAR) are #defined ahead of this file from the one table in
// backends/gl/activation.h; GLSL names them, never their numbers.
// ACT_LINEAR is none, relu, relu6 and leaky as one formula with uniforms (act_linear): one program
// serves them all. The others stay separate codes: elu, sigmoid and tanh because llvmpipe runs
// every branch of an if (as masks) and they are transcendental; Prelu because it reads its alpha
// from a texture; hard swish (fused convolutions only) because it is no such formula.
#define NAN_F uintBitsToFloat(0x7fc00000u)
#define INF_F uintBitsToFloat(0x7f800000u)

// NaN passes through relu and relu6 (comparisons with NaN are false), as on TF.js cpu.
vec4 act_relu(vec4 x) { return mix(x, vec4(0.0), lessThan(x, vec4(0.0))); }
vec4 act_relu6(vec4 x) {
  vec4 r = act_relu(x);
  return mix(r, vec4(6.0), greaterThan(r, vec4(6.0)));
}
vec4 act_elu(vec4 x) { return mix(x, exp(x) - 1.0, lessThan(x, vec4(0.0))); }
vec4 act_leaky(vec4 x, vec4 a) { return mix(x, a * x, lessThan(x, vec4(0.0))); }
vec4 act_sigmoid(vec4 x) { return 1.0 / (1.0 + exp(-x)); }
// tanh through exp overflows to inf/inf for large |x| on some drivers; past 15 it is +-1 in fp32.
vec4 act_tanh(vec4 x) { return tanh(clamp(x, -15.0, 15.0)); }
// The converter's hard swish, its four nodes' float steps in their order: x * scale (1/6),
// relu6(x + shift (3)), their product (ops::match_hard_swish). `precise`: no step merged into
// another. Fused convolutions only (epilogue.glsl), whose uniforms give scale and shift.
vec4 act_hard_swish(vec4 x, float scale, float shift) {
  precise vec4 a = x * scale;
  precise vec4 r = act_relu6(x + shift);
  precise vec4 y = a * r;
  return y;
}

// y = x < 0 ? (zero_neg ? 0 : slope * x) : x, then capped at `ceiling`: none (slope 1, ceiling
// +inf), relu (zero_neg), relu6 (zero_neg, ceiling 6), leaky (slope alpha). Each is exactly the
// function above (relu of -inf is 0, not 0 * -inf; NaN passes). Its cost over a specialised relu
// is a few lane operations per texel, no load or store.
vec4 act_linear(vec4 x, float slope, float ceiling, int zero_neg) {
  vec4 neg = zero_neg != 0 ? vec4(0.0) : slope * x;
  vec4 y = mix(x, neg, lessThan(x, vec4(0.0)));
  return mix(y, vec4(ceiling), greaterThan(y, vec4(ceiling)));
}

vec4 activate(int act, vec4 x, vec4 alpha) {
  if (act == ACT_RELU) return act_relu(x);
  if (act == ACT_RELU6) return act_relu6(x);
  if (act == ACT_ELU) return act_elu(x);
  if (act == ACT_LEAKY || act == ACT_PRELU) return act_leaky(x, alpha);
  if (act == ACT_SIGMOID) return act_sigmoid(x);
  if (act == ACT_TANH) return act_tanh(x);
  return x;
}

// True when fma() rounds once (GPUs); llvmpipe rounds the product first. The kernels that must
// round like TF.js cpu (each product exact, the sum rounded) use fma() then and doubles otherwise.
// The operands come from a built-in so the compiler cannot fold the test:
// (1 + 2^-12)^2 - (1 + 2^-11) is 2^-24 exactly, and 0 when the product is rounded first.
bool fma_rounds_once_measured() {
  precise float x = 1.0 + float(gl_NumWorkGroups.x > 0u) * 2.44140625e-4;
  precise float r = fma(x, x, -1.00048828125);
  return r != 0.0;
}
// How the multiply-adds of convolutions and products run, as the prelude's constant SUMS_IN_FMA
// (GlBackend::sums_in_fma): through fma() where it rounds once (the exact sum) or when exact sums
// are off (flag gl.exact_sums: fma() is then TF.js webgl's fp32 multiply-add on the same driver);
// else in doubles. Each kernel is built with the one path it takes; tested in the kernel instead,
// both paths were built (measured on llvmpipe: +17-37% build time, a loop in each).
bool sums_in_fma() { return SUMS_IN_FMA != 0; }

// (a / b, a % b) for 0 <= a < 2^24 and b >= 1 without an integer division, which llvmpipe runs as
// one scalar division per lane (tens of cycles each; Conv2DBackpropInput spent most of its time
// in them). float(a) is exact there and GLSL's division is within 2.5 ulp, so the first float
// quotient is off by a few at most; a second one from the small remainder and one correction
// make it exact.
ivec2 divmod(int a, int b) {
  float inv = 1.0 / float(b);
  int q = int(float(a) * inv);
  int r = a - q * b;
  int d = int(floor(float(r) * inv));
  q += d;
  r -= d * b;
  if (r < 0) {
    q -= 1;
    r += b;
  } else if (r >= b) {
    q += 1;
    r -= b;
  }
  return ivec2(q, r);
}
