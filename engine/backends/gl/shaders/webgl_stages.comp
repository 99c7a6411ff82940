// Mean and Sum, and Softmax over the last axis (SOFTMAX 1), as TF.js 4.22's webgl backend computes
// them where fp16 follows it (ops/webgl_stages.h): the sum in TF.js's windowed stages, in its
// order, each stage's partial results rounded to half as TF.js stores them in its half-float
// textures (stored(): the uniform HALF_BETWEEN, 0 in fp32, with half_round.glsl), and Softmax's
// x - max and exp rounded too. One program for both precisions and every shape: the stages'
// windows (RS_W0..RS_W3, innermost first) and input counts (RS_IN0..RS_IN3) are uniforms; levels
// past a reduction's stages have window 1 and one input (each adds one value to 0, exact, and
// rounds a value already rounded). In fp32 the C++ side gives one window over every value and
// Mean's division at the end (RS_DIV): the sum in order, as mean_hw.comp and softmax.comp do. The reduced axes are REDUCED_MASK (bit 1, 2, 4, 8 for padded
// N, H, W, C). Where C is kept (BY_TEXEL) an invocation sums whole texels: four channels at once.
// Otherwise each of its four lanes is its own sum, except in Softmax, whose four lanes share the
// row's max and sum. llvmpipe stops an invocation's loops after 65535 turns in all (window.h):
// the C++ side counts them.
#if BY_TEXEL
#define VAL vec4
#else
#define VAL float
#endif

VAL stored(VAL v) {
  return HALF_BETWEEN != 0 ? VAL(half_round(vec4(v))) : v;
}

// Kept index q with its reduced axes set to reduced element r (row-major over those axes).
ivec4 reduced_at(ivec4 q, int r) {
#if (REDUCED_MASK & 8) != 0
  q.w = r % IN0_C; r /= IN0_C;
#endif
#if (REDUCED_MASK & 4) != 0
  q.z = r % IN0_W; r /= IN0_W;
#endif
#if (REDUCED_MASK & 2) != 0
  q.y = r % IN0_H; r /= IN0_H;
#endif
#if (REDUCED_MASK & 1) != 0
  q.x = r;
#endif
  return q;
}

// What the first stage adds for element r of kept index q: Mean's value times 1/N (RS_SCALE),
// Sum's value, or Softmax's stored exp(stored(x - m)). BY_TEXEL, q.w is the texel's slice.
VAL stage_input(ivec4 q, int r, float m) {
  ivec4 p = reduced_at(q, r);
#if BY_TEXEL
  return load_in0(p.x, p.y, p.z, p.w) * RS_SCALE;
#elif SOFTMAX
  return stored(exp(stored(lane_in0(p.x, p.y, p.z, p.w) - m)));
#else
  return lane_in0(p.x, p.y, p.z, p.w) * RS_SCALE;
#endif
}

VAL staged_sum(ivec4 q, float m) {
  VAL a3 = VAL(0.0);
  for (int i3 = 0; i3 < RS_W3; ++i3) {
    int j2 = i3;
    if (j2 >= RS_IN3) break;
    VAL a2 = VAL(0.0);
    for (int i2 = 0; i2 < RS_W2; ++i2) {
      int j1 = j2 * RS_W2 + i2;
      if (j1 >= RS_IN2) break;
      VAL a1 = VAL(0.0);
      for (int i1 = 0; i1 < RS_W1; ++i1) {
        int j0 = j1 * RS_W1 + i1;
        if (j0 >= RS_IN1) break;
        VAL a0 = VAL(0.0);
        for (int i0 = 0; i0 < RS_W0; ++i0) {
          int r = j0 * RS_W0 + i0;
          if (r >= RS_IN0) break;
          a0 += stage_input(q, r, m);
        }
        a1 += stored(a0);
      }
      a2 += stored(a1);
    }
    a3 += stored(a2);
  }
  return a3;
}

// The kept index of output element (n, h, w) and flat channel-or-last index c: the output's flat
// index is the kept elements' flat index (reduced axes are gone or 1).
ivec4 kept_index(int n, int h, int w, int c) {
  int f = ((n * OUT_H + h) * OUT_W + w) * OUT_C + c;
  ivec4 q = ivec4(0);
#if (REDUCED_MASK & 8) == 0
  q.w = f % IN0_C; f /= IN0_C;
#endif
#if (REDUCED_MASK & 4) == 0
  q.z = f % IN0_W; f /= IN0_W;
#endif
#if (REDUCED_MASK & 2) == 0
  q.y = f % IN0_H; f /= IN0_H;
#endif
#if (REDUCED_MASK & 1) == 0
  q.x = f;
#endif
  return q;
}

void main() {
  int n, h, w, s;
  if (!out_texel(n, h, w, s)) return;
#if BY_TEXEL
  // C is kept and last: the texel's lanes are channels 4s..4s+3 of one kept element.
  ivec4 q = kept_index(n, h, w, 4 * s);
  q.w = s;
  store_out(n, h, w, s, staged_sum(q, 0.0) / RS_DIV);
#elif SOFTMAX
  // The lanes are columns 4s..4s+3 of row (n, h, w): one max and one sum for all four.
  float m = -INF_F;
  for (int t = 0; t < IN0_C4; ++t) {
    vec4 v = load_in0(n, h, w, t);
    v = mix(v, vec4(-INF_F), greaterThanEqual(ivec4(4 * t) + ivec4(0, 1, 2, 3), ivec4(IN0_C)));
    m = max(m, max(max(v.x, v.y), max(v.z, v.w)));
  }
  ivec4 q = ivec4(n, h, w, 0);
  float sum = staged_sum(q, m);
  vec4 v = vec4(0.0);
  for (int j = 0; j < 4; ++j)
    if (4 * s + j < OUT_C) v[j] = stage_input(q, 4 * s + j, m) / sum;
  store_out(n, h, w, s, v);
#else
  vec4 v = vec4(0.0);
  for (int j = 0; j < 4; ++j)
    if (4 * s + j < OUT_C) v[j] = staged_sum(kept_index(n, h, w, 4 * s + j), 0.0) / RS_DIV;
  store_out(n, h, w, s, v);
#endif
}
