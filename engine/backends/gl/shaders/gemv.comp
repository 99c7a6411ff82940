// MatMul [.., M, K] x [.., K, N] without transposes for M <= 4 (a dense layer on one sample): one
// invocation per output slice (4 columns) and batch computes all M rows, looping over K, with no
// shared memory or barriers. gemm_tiled.comp gives such a product one work group whose 32 rows
// are nearly all empty and pays two barriers for every 16 k.
// Summation is gemm_tiled.comp's for MatMul, so results are the same bit for bit: where fma()
// rounds once, one product at a time; otherwise exact products summed in double by blocks of 48
// (12 texels of K), each block then added into the fp32 result.
// Specialised by #define: M (the rows, <= 4), which sizes the accumulator arrays; shapes are
// uniforms.
#define K_TEXELS IN0_C4

void main() {
  int s = global_id().x, bz = global_id().y;
  if (s >= OUT_C4 || bz >= OUT_N * OUT_H) return;
  int n = bz / OUT_H, h = bz - n * OUT_H;
  int an = min(n, IN0_N - 1), ah = min(h, IN0_H - 1);
  int bn = min(n, IN1_N - 1), bh = min(h, IN1_H - 1);
  precise vec4 acc[M];
  dvec4 part[M];
  for (int m = 0; m < M; ++m) {
    acc[m] = vec4(0.0);
    part[m] = dvec4(0.0);
  }
  // One branch around the whole K loop, as in gemm_tiled.comp.
  if (sums_in_fma()) {
    for (int kt = 0; kt < K_TEXELS; ++kt) {
      vec4 b[4];
      for (int i = 0; i < 4; ++i)
        b[i] = 4 * kt + i < IN0_C ? load_in1(bn, bh, 4 * kt + i, s) : vec4(0.0);
      for (int m = 0; m < M; ++m) {
        vec4 a = load_in0(an, ah, m, kt);
        for (int i = 0; i < 4; ++i) acc[m] = fma(vec4(a[i]), b[i], acc[m]);
      }
    }
  } else {
    for (int kt = 0; kt < K_TEXELS; ++kt) {
      dvec4 b[4];
      for (int i = 0; i < 4; ++i)
        b[i] = dvec4(4 * kt + i < IN0_C ? load_in1(bn, bh, 4 * kt + i, s) : vec4(0.0));
      for (int m = 0; m < M; ++m) {
        dvec4 a = dvec4(load_in0(an, ah, m, kt));
        for (int i = 0; i < 4; ++i) part[m] += a[i] * b[i];
      }
      if ((kt + 1) % 12 == 0 || kt + 1 == K_TEXELS) {
        for (int m = 0; m < M; ++m) {
          acc[m] = vec4(dvec4(acc[m]) + part[m]);
          part[m] = dvec4(0.0);
        }
      }
    }
  }
  SliceTerms t = slice_terms(s);
  for (int m = 0; m < M; ++m) store_out(n, h, m, s, epilogue(acc[m], t, n, h, m, s));
}
