// MatMul [..,M,K] x [..,K,N] (TA/TB transpose the stored operands) with the fused epilogue. Rank-2
// tensors are stored as [1,1,rows,cols]: row r is texel column w = r; batch dims (n, h) broadcast.
// Products without transposes take gemm_tiled.comp.
void main() {
  int n, h, m, s;
  if (!out_texel(n, h, m, s)) return;
  int an = min(n, IN0_N - 1), ah = min(h, IN0_H - 1), bn = min(n, IN1_N - 1), bh = min(h, IN1_H - 1);
  vec4 acc = vec4(0.0);
  for (int k4 = 0; k4 < (K + 3) / 4; ++k4) {
#if TA
    vec4 a = vec4(0.0);
    for (int j = 0; j < 4; ++j)
      if (4 * k4 + j < K) a[j] = lane_in0(an, ah, 4 * k4 + j, m);
#else
    vec4 a = load_in0(an, ah, m, k4);
#endif
    for (int j = 0; j < 4; ++j) {
      int k = 4 * k4 + j;
      if (k >= K) break;
#if TB
      vec4 b = vec4(0.0);
      for (int i = 0; i < 4; ++i)
        if (4 * s + i < OUT_C) b[i] = lane_in1(bn, bh, 4 * s + i, k);
#else
      vec4 b = load_in1(bn, bh, k, s);
#endif
      acc += a[j] * b;
    }
  }
  store_out(n, h, m, s, epilogue(acc, s));
}
