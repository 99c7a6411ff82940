// z = a op b with numpy broadcasting, then the node's activation ACT (a fused one, or ACT_LINEAR
// as the identity; a fused Prelu's alpha from in2). Shapes are padded to NHWC from the left, so a
// dim of 1 broadcasts by clamping its index to 0; a single channel (INk_SPLAT) is splatted across
// the four lanes.
// OP is a uniform: llvmpipe computes every branch of the chain in op() for every texel and keeps
// one (its ifs are masks), which costs a few lane operations against the two loads and the store
// (warm medians measured unchanged, bench/results/gl-live-2026-11-26-b.md), where a program per
// op cost a build each. The splats (IN0_SPLAT, IN1_SPLAT) are uniforms for the same reason: a
// select per texel. Specialised by #define: ACT (see epilogue.glsl; sigmoid's exp would cost every
// Add), a fused Prelu's IN2_SPLAT and ADDEND, a fused add of a tensor of the output's shape
// (load_addend) before (1) or after (2) the activation. Shapes and the activation's parameters are
// uniforms. LAZY_HALF (emulated fp16 storage, fp16_storage.h): the uniforms IN0_HALF and
// IN1_HALF round an operand a kernel before stored unrounded, OUT_HALF rounds the store, so that
// no rounding pass runs before or after this kernel (GlBackend::dispatch).
#define OP_ADD 0
#define OP_SUB 1
#define OP_MUL 2
#define OP_DIV 3
#define OP_MAX 4
#define OP_MIN 5
#define OP_SQDIFF 6
#define OP_PRELU 7
vec4 fetch_a(int n, int h, int w, int s) {
  n = min(n, IN0_N - 1); h = min(h, IN0_H - 1); w = min(w, IN0_W - 1);
  vec4 v = load_in0(n, h, w, IN0_SPLAT != 0 ? 0 : s);
#if LAZY_HALF
  if (IN0_HALF != 0) v = half_round(v);
#endif
  return IN0_SPLAT != 0 ? vec4(v.x) : v;
}
vec4 fetch_b(int n, int h, int w, int s) {
  n = min(n, IN1_N - 1); h = min(h, IN1_H - 1); w = min(w, IN1_W - 1);
  vec4 v = load_in1(n, h, w, IN1_SPLAT != 0 ? 0 : s);
#if LAZY_HALF
  if (IN1_HALF != 0) v = half_round(v);
#endif
  return IN1_SPLAT != 0 ? vec4(v.x) : v;
}
vec4 op(vec4 a, vec4 b) {
  if (OP == OP_ADD) return a + b;
  if (OP == OP_SUB) return a - b;
  if (OP == OP_MUL) return a * b;
  if (OP == OP_DIV) return a / b;
  if (OP == OP_MAX) return max(a, b);
  if (OP == OP_MIN) return min(a, b);
  if (OP == OP_SQDIFF) return (a - b) * (a - b);
  return act_leaky(a, b);
}
void main() {
  int n, h, w, s;
  if (!out_texel(n, h, w, s)) return;
  vec4 z = op(fetch_a(n, h, w, s), fetch_b(n, h, w, s));
#if ADDEND == 1
  z += load_addend(n, h, w, s);
#endif
#if ACT == ACT_LINEAR
  z = act_linear(z, ACT_SLOPE, ACT_CEILING, ACT_ZERO_NEG);
#elif ACT == ACT_PRELU
  // A fused Prelu's alpha (in2) is one value per channel or one.
#if IN2_SPLAT
  z = act_leaky(z, vec4(load_in2(0, 0, 0, 0).x));
#else
  z = act_leaky(z, load_in2(0, 0, 0, s));
#endif
#else
  z = activate(ACT, z, vec4(0.0));
#endif
#if ADDEND == 2
  z += load_addend(n, h, w, s);
#endif
#if LAZY_HALF
  if (OUT_HALF != 0) z = half_round(z);
#endif
  store_out(n, h, w, s, z);
}
