// DepthwiseConv2dNative (NHWC, filter [KH][KW][C][MULT]) with the fused epilogue, one output texel
// per invocation: channel multipliers above 1, and multiplier 1 where the driver's textures cannot
// hold the filter packed for depthwise_direct.comp. Output channel oc = c * MULT + m.
// Taps are added row by row, one product at a time, each product exact and the sum rounded to fp32
// after each: TF.js cpu's order and rounding, which deep models amplify (see gemm_tiled.comp).
// That is fma() where it rounds once (GPUs) and doubles where it does not (llvmpipe).
// Specialised by #define: MULT and the window but its paddings; shapes and paddings are uniforms.
// SMALL takes MULT and the whole window as uniforms instead: one program for the small layers
// whose window has no program of its own yet (ops_conv.cpp, uses_shared_program).

vec4 mad_fused(vec4 x, vec4 f, vec4 acc) {
  precise vec4 r = fma(x, f, acc);
  return r;
}
float mad_fused(float x, float f, float acc) {
  precise float r = fma(x, f, acc);
  return r;
}
vec4 mad_f64(vec4 x, vec4 f, vec4 acc) { return vec4(dvec4(acc) + dvec4(x) * dvec4(f)); }
float mad_f64(float x, float f, float acc) { return float(double(acc) + double(x) * double(f)); }

#if !SMALL && MULT == 1
#define TAP(MAD)                                                  \
  {                                                               \
    vec4 x = load_in0(n, ih, iw, s);                              \
    vec4 f = vec4(0.0);                                           \
    for (int j = 0; j < 4; ++j)                                   \
      if (4 * s + j < IN0_C) f[j] = lane_in1(kh, kw, 4 * s + j, 0); \
    acc = MAD(x, f, acc);                                         \
  }
#else
#define TAP(MAD)                                                            \
  for (int j = 0; j < 4; ++j) {                                             \
    int oc = 4 * s + j;                                                     \
    if (oc >= OUT_C) break;                                                 \
    int c = oc / MULT, m = oc - c * MULT;                                   \
    acc[j] = MAD(lane_in0(n, ih, iw, c), lane_in1(kh, kw, c, m), acc[j]);   \
  }
#endif

#define TAPS(MAD)                                        \
  for (int kh = 0; kh < KH; ++kh) {                      \
    int ih = h * SH - PAD_T + kh * DH;                   \
    if (ih < 0 || ih >= IN0_H) continue;                 \
    for (int kw = 0; kw < KW; ++kw) {                    \
      int iw = w * SW - PAD_L + kw * DW;                 \
      if (iw < 0 || iw >= IN0_W) continue;               \
      TAP(MAD);                                          \
    }                                                    \
  }

void main() {
  int n, h, w, s;
  if (!out_texel(n, h, w, s)) return;
  vec4 acc = vec4(0.0);
  // One branch around the whole loop: llvmpipe pays for a branch inside it on every tap.
  if (sums_in_fma()) {
    TAPS(mad_fused)
  } else {
    TAPS(mad_f64)
  }
  store_out(n, h, w, s, epilogue(acc, n, h, w, s));
}
