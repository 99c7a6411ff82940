// Matrix products and convolutions as one tiled GEMM: out[row][col] = sum_k A[row][k] * B[k][col],
// plus the fused epilogue. A work group (8x8 invocations) computes 32 rows x 8 column slices (32
// columns); each invocation keeps 4 rows x 1 slice in registers. K advances 16 at a time through
// shared memory, so each texel is fetched once per work group instead of once per output.
//   CONV 0 (MatMul): A = in0 [.., M, K] (row m is texel column w), B = in1 [.., K, N]; batch dims
//     (n, h) broadcast. Rows are M.
//   CONV 1 (Conv2D, implicit im2col): rows are output pixels (n, oh, ow); k runs over
//     (kh, kw, input channel slice, lane), so one A texel is one input texel; B = filter
//     [KH][KW][IC][OC], whose rows past IC within a tap are zero.
shared vec4 sa[32][4];
shared vec4 sb[16][8];

#if CONV
#define ROWS (OUT_N * OUT_H * OUT_W)
#define K_TEXELS (KH * KW * IN0_C4)
vec4 load_a(int row, int kt) {
  int ow = row % OUT_W, t = row / OUT_W;
  int oh = t % OUT_H, n = t / OUT_H;
  int tap = kt / IN0_C4, c4 = kt - tap * IN0_C4;
  int kh = tap / KW, kw = tap - kh * KW;
  int ih = oh * SH - PAD_T + kh * DH, iw = ow * SW - PAD_L + kw * DW;
  if (ih < 0 || ih >= IN0_H || iw < 0 || iw >= IN0_W) return vec4(0.0);
  return load_in0(n, ih, iw, c4);
}
vec4 load_b(int k, int s, int bz) {
  int kt = k >> 2, lane = k & 3;
  int tap = kt / IN0_C4, ci = (kt - tap * IN0_C4) * 4 + lane;
  if (ci >= IN0_C) return vec4(0.0);
  int kh = tap / KW, kw = tap - kh * KW;
  return load_in1(kh, kw, ci, s);
}
void store_row(int row, int bz, int s, vec4 v) {
  int ow = row % OUT_W, t = row / OUT_W;
  store_out(t / OUT_H, t % OUT_H, ow, s, epilogue(v, s));
}
#else
#define ROWS OUT_W
#define K_TEXELS IN0_C4
int g_an, g_ah, g_bn, g_bh;
vec4 load_a(int row, int kt) { return load_in0(g_an, g_ah, row, kt); }
vec4 load_b(int k, int s, int bz) {
  if (k >= IN0_C) return vec4(0.0);
  return load_in1(g_bn, g_bh, k, s);
}
void store_row(int row, int bz, int s, vec4 v) {
  store_out(bz / OUT_H, bz % OUT_H, row, s, epilogue(v, s));
}
#endif

void main() {
  int lx = int(gl_LocalInvocationID.x), ly = int(gl_LocalInvocationID.y);
  int t = ly * 8 + lx;
  int row0 = group_id().x * 32, s0 = group_id().y * 8;
  int bz = group_id().z;
#if !CONV
  {
    int n = bz / OUT_H, h = bz - n * OUT_H;
    g_an = min(n, IN0_N - 1); g_ah = min(h, IN0_H - 1);
    g_bn = min(n, IN1_N - 1); g_bh = min(h, IN1_H - 1);
  }
#endif
  vec4 acc0 = vec4(0.0), acc1 = vec4(0.0), acc2 = vec4(0.0), acc3 = vec4(0.0);
  for (int kt0 = 0; kt0 < K_TEXELS; kt0 += 4) {
    for (int i = t; i < 128; i += 64) {
      int r = i >> 2, q = i & 3;
      int row = row0 + r, kt = kt0 + q;
      sa[r][q] = (row < ROWS && kt < K_TEXELS) ? load_a(row, kt) : vec4(0.0);
      int kk = i >> 3, sl = i & 7;
      int k = kt0 * 4 + kk, s = s0 + sl;
      sb[kk][sl] = (k < K_TEXELS * 4 && s < OUT_C4) ? load_b(k, s, bz) : vec4(0.0);
    }
    barrier();
    for (int q = 0; q < 4; ++q) {
      vec4 b0 = sb[4 * q][ly], b1 = sb[4 * q + 1][ly], b2 = sb[4 * q + 2][ly],
           b3 = sb[4 * q + 3][ly];
      vec4 a = sa[4 * lx][q];
      acc0 += a.x * b0 + a.y * b1 + a.z * b2 + a.w * b3;
      a = sa[4 * lx + 1][q];
      acc1 += a.x * b0 + a.y * b1 + a.z * b2 + a.w * b3;
      a = sa[4 * lx + 2][q];
      acc2 += a.x * b0 + a.y * b1 + a.z * b2 + a.w * b3;
      a = sa[4 * lx + 3][q];
      acc3 += a.x * b0 + a.y * b1 + a.z * b2 + a.w * b3;
    }
    barrier();
  }
  int s = s0 + ly, r = row0 + 4 * lx;
  if (s >= OUT_C4) return;
  if (r < ROWS) store_row(r, bz, s, acc0);
  if (r + 1 < ROWS) store_row(r + 1, bz, s, acc1);
  if (r + 2 < ROWS) store_row(r + 2, bz, s, acc2);
  if (r + 3 < ROWS) store_row(r + 3, bz, s, acc3);
}
