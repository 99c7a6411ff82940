// z = a op b with numpy broadcasting, then the activation ACT of a fused node if defined (a
// Prelu's alpha from in2). Shapes are padded to NHWC from the left, so a dim of 1 broadcasts by
// clamping its index to 0; a single channel (INk_SPLAT) is splatted across the four lanes.
// Specialised by #define: OP, ACT and the splats (code paths). Shapes and ALPHA are uniforms.
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
#if IN0_SPLAT
  return vec4(load_in0(n, h, w, 0).x);
#else
  return load_in0(n, h, w, s);
#endif
}
vec4 fetch_b(int n, int h, int w, int s) {
  n = min(n, IN1_N - 1); h = min(h, IN1_H - 1); w = min(w, IN1_W - 1);
#if IN1_SPLAT
  return vec4(load_in1(n, h, w, 0).x);
#else
  return load_in1(n, h, w, s);
#endif
}
void main() {
  int n, h, w, s;
  if (!out_texel(n, h, w, s)) return;
  vec4 a = fetch_a(n, h, w, s), b = fetch_b(n, h, w, s);
#if OP == OP_ADD
  vec4 z = a + b;
#elif OP == OP_SUB
  vec4 z = a - b;
#elif OP == OP_MUL
  vec4 z = a * b;
#elif OP == OP_DIV
  vec4 z = a / b;
#elif OP == OP_MAX
  vec4 z = max(a, b);
#elif OP == OP_MIN
  vec4 z = min(a, b);
#elif OP == OP_SQDIFF
  vec4 z = (a - b) * (a - b);
#else
  vec4 z = act_leaky(a, b);
#endif
#ifdef ACT
  // A fused node's activation; a fused Prelu's alpha (in2) is one value per channel or one.
#if ACT != ACT_PRELU
  vec4 alpha = vec4(ALPHA);
#elif IN2_SPLAT
  vec4 alpha = vec4(load_in2(0, 0, 0, 0).x);
#else
  vec4 alpha = load_in2(0, 0, 0, s);
#endif
  z = activate(ACT, z, alpha);
#endif
  store_out(n, h, w, s, z);
}
