// Matrix products and convolutions as one tiled GEMM: out[row][col] = sum_k A[row][k] * B[k][col],
// plus the fused epilogue. A work group (8x8 invocations) computes 32 rows x 8 column slices (32
// columns); each invocation keeps 4 rows x 1 slice in registers. K advances 16 at a time through
// shared memory, so each texel is fetched once per work group instead of once per output.
//   CONV 0 (MatMul): A = in0 [.., M, K] (row m is texel column w), B = in1 [.., K, N]; batch dims
//     (n, h) broadcast. Rows are M.
//   CONV 1 (Conv2D, implicit im2col): rows are output pixels (n, oh, ow); k runs over
//     (kh, kw, input channel slice, lane), so one A texel is one input texel; B = filter
//     [KH][KW][IC][OC], whose rows past IC within a tap are zero.
// Summation follows TF.js cpu, because deep models amplify a different rounding per output
// (blazepose-lite's segmentation logits reach +-800 before a Sigmoid): Conv2D adds one product at a
// time in k order, each exact and rounded once into the fp32 sum (JS multiplies in double);
// MatMul sums 48 products in double, then adds that into the fp32 result.
// Specialised by #define: CONV, and for CONV the window and the shapes (KernelCall::static_shapes),
// as its implicit im2col divides by them for every element it stages. MatMul's shapes are
// uniforms. Where fma() rounds once
// (GPUs) a sequential fma gives the per-step rounding; where it does not (llvmpipe lowers it to a
// multiply and an add) doubles do.
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
void store_row(int row, int bz, int s, SliceTerms st, vec4 v) {
  int ow = row % OUT_W, t = row / OUT_W;
  int n = t / OUT_H, h = t % OUT_H;
  store_out(n, h, ow, s, epilogue(v, st, n, h, ow, s));
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
void store_row(int row, int bz, int s, SliceTerms st, vec4 v) {
  int n = bz / OUT_H, h = bz % OUT_H;
  store_out(n, h, row, s, epilogue(v, st, n, h, row, s));
}
#endif


// Four products (lanes of a against rows b0..b3) into acc, one rounding each.
#define FMA_STEPS(acc, a_in)                                                   \
  {                                                                            \
    vec4 a_ = a_in;                                                            \
    acc = fma(vec4(a_.x), b0, acc);                                            \
    acc = fma(vec4(a_.y), b1, acc);                                            \
    acc = fma(vec4(a_.z), b2, acc);                                            \
    acc = fma(vec4(a_.w), b3, acc);                                            \
  }
// The same with exact double products and sums rounded to fp32 after each one.
#define F64_STEPS(acc, a_in)                                                   \
  {                                                                            \
    dvec4 a_ = dvec4(a_in);                                                    \
    acc = vec4(dvec4(acc) + a_.x * b0);                                        \
    acc = vec4(dvec4(acc) + a_.y * b1);                                        \
    acc = vec4(dvec4(acc) + a_.z * b2);                                        \
    acc = vec4(dvec4(acc) + a_.w * b3);                                        \
  }
// Four products into a double partial sum (TF.js MatMul's inner loop).
#define F64_PARTIAL(part, a_in)                                                \
  {                                                                            \
    dvec4 a_ = dvec4(a_in);                                                    \
    part += a_.x * b0;                                                         \
    part += a_.y * b1;                                                         \
    part += a_.z * b2;                                                         \
    part += a_.w * b3;                                                         \
  }

// Stages K texels [kt0, kt0 + 4) of the group's A rows and 16 B rows in shared memory.
#define LOAD_TILES(kt0)                                                               \
  for (int i = t; i < 128; i += 64) {                                                 \
    int r = i >> 2, q = i & 3;                                                        \
    int row = row0 + r, kt = kt0 + q;                                                 \
    sa[r][q] = (row < ROWS && kt < K_TEXELS) ? load_a(row, kt) : vec4(0.0);           \
    int kk = i >> 3, sl = i & 7;                                                      \
    int k = kt0 * 4 + kk, s = s0 + sl;                                                \
    sb[kk][sl] = (k < K_TEXELS * 4 && s < OUT_C4) ? load_b(k, s, bz) : vec4(0.0);     \
  }                                                                                   \
  barrier()

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
  const bool fused = sums_in_fma();
  precise vec4 acc0 = vec4(0.0), acc1 = vec4(0.0), acc2 = vec4(0.0), acc3 = vec4(0.0);
#if !CONV
  dvec4 part0 = dvec4(0.0), part1 = dvec4(0.0), part2 = dvec4(0.0), part3 = dvec4(0.0);
#endif
  // One branch around the whole K loop: llvmpipe pays for a branch inside it on every pass
  // (blazepose-lite on llvmpipe, cpu time per run against plain fp32 sums: +55% inside, +30% here).
  if (fused) {
    for (int kt0 = 0; kt0 < K_TEXELS; kt0 += 4) {
      LOAD_TILES(kt0);
      for (int q = 0; q < 4; ++q) {
        vec4 b0 = sb[4 * q][ly], b1 = sb[4 * q + 1][ly], b2 = sb[4 * q + 2][ly],
             b3 = sb[4 * q + 3][ly];
        FMA_STEPS(acc0, sa[4 * lx][q]);
        FMA_STEPS(acc1, sa[4 * lx + 1][q]);
        FMA_STEPS(acc2, sa[4 * lx + 2][q]);
        FMA_STEPS(acc3, sa[4 * lx + 3][q]);
      }
      barrier();
    }
  } else {
    for (int kt0 = 0; kt0 < K_TEXELS; kt0 += 4) {
      LOAD_TILES(kt0);
      for (int q = 0; q < 4; ++q) {
        dvec4 b0 = dvec4(sb[4 * q][ly]), b1 = dvec4(sb[4 * q + 1][ly]),
              b2 = dvec4(sb[4 * q + 2][ly]), b3 = dvec4(sb[4 * q + 3][ly]);
#if CONV
        F64_STEPS(acc0, sa[4 * lx][q]);
        F64_STEPS(acc1, sa[4 * lx + 1][q]);
        F64_STEPS(acc2, sa[4 * lx + 2][q]);
        F64_STEPS(acc3, sa[4 * lx + 3][q]);
#else
        F64_PARTIAL(part0, sa[4 * lx][q]);
        F64_PARTIAL(part1, sa[4 * lx + 1][q]);
        F64_PARTIAL(part2, sa[4 * lx + 2][q]);
        F64_PARTIAL(part3, sa[4 * lx + 3][q]);
#endif
      }
#if !CONV
      // TF.js's block of 48 shared-dimension elements is 12 texels: every third pass, and the last.
      if ((kt0 + 4) % 12 == 0 || kt0 + 4 >= K_TEXELS) {
        acc0 = vec4(dvec4(acc0) + part0);
        acc1 = vec4(dvec4(acc1) + part1);
        acc2 = vec4(dvec4(acc2) + part2);
        acc3 = vec4(dvec4(acc3) + part3);
        part0 = part1 = part2 = part3 = dvec4(0.0);
      }
#endif
      barrier();
    }
  }
  int s = s0 + ly, r = row0 + 4 * lx;
  if (s >= OUT_C4) return;
  SliceTerms st = slice_terms(s);
  if (r < ROWS) store_row(r, bz, s, st, acc0);
  if (r + 1 < ROWS) store_row(r + 1, bz, s, st, acc1);
  if (r + 2 < ROWS) store_row(r + 2, bz, s, st, acc2);
  if (r + 3 < ROWS) store_row(r + 3, bz, s, st, acc3);
}
