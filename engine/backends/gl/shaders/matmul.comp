// MatMul [..,M,K] x [..,K,N] (TA/TB transpose the stored operands) with the fused epilogue. Rank-2
// tensors are stored as [1,1,rows,cols]: row r is texel column w = r; batch dims (n, h) broadcast.
// Products without transposes take gemm_tiled.comp (or gemv.comp); this one sums as they do, so a
// transposed operand gives the same bits: where fma() rounds once, one product at a time; otherwise
// exact products summed in double by blocks of 48 (TF.js cpu's MatMul), each block then added into
// the fp32 result. Specialised by #define: TA and TB; K and the shapes are uniforms.
#define K4 ((K + 3) / 4)

#if TA
vec4 load_a(int an, int ah, int m, int k4) {
  vec4 a = vec4(0.0);
  for (int j = 0; j < 4; ++j)
    if (4 * k4 + j < K) a[j] = lane_in0(an, ah, 4 * k4 + j, m);
  return a;
}
#else
vec4 load_a(int an, int ah, int m, int k4) { return load_in0(an, ah, m, k4); }
#endif
#if TB
vec4 load_b(int bn, int bh, int s, int k) {
  vec4 b = vec4(0.0);
  for (int i = 0; i < 4; ++i)
    if (4 * s + i < OUT_C) b[i] = lane_in1(bn, bh, 4 * s + i, k);
  return b;
}
#else
vec4 load_b(int bn, int bh, int s, int k) { return load_in1(bn, bh, k, s); }
#endif

void main() {
  int n, h, m, s;
  if (!out_texel(n, h, m, s)) return;
  int an = min(n, IN0_N - 1), ah = min(h, IN0_H - 1), bn = min(n, IN1_N - 1), bh = min(h, IN1_H - 1);
  precise vec4 acc = vec4(0.0);
  // One branch around the whole K loop, as in gemm_tiled.comp.
  if (sums_in_fma()) {
    for (int k4 = 0; k4 < K4; ++k4) {
      vec4 a = load_a(an, ah, m, k4);
      for (int j = 0; j < 4; ++j) {
        int k = 4 * k4 + j;
        if (k >= K) break;
        acc = fma(vec4(a[j]), load_b(bn, bh, s, k), acc);
      }
    }
  } else {
    dvec4 part = dvec4(0.0);
    for (int k4 = 0; k4 < K4; ++k4) {
      dvec4 a = dvec4(load_a(an, ah, m, k4));
      for (int j = 0; j < 4; ++j) {
        int k = 4 * k4 + j;
        if (k >= K) break;
        part += a[j] * dvec4(load_b(bn, bh, s, k));
      }
      if ((k4 + 1) % 12 == 0 || k4 + 1 == K4) {
        acc = vec4(dvec4(acc) + part);
        part = dvec4(0.0);
      }
    }
  }
  store_out(n, h, m, s, epilogue(acc, n, h, m, s));
}
