// DepthwiseConv2dNative with a channel multiplier of 1 (what the converter emits) and the fused
// epilogue. Each invocation computes PW output pixels along a row of one slice (four channels):
// neighbouring pixels share input texels, so one row of NCOL texels feeds PW * KW taps, where one
// pixel per invocation fetched a texel per tap. Weights come from in1, the filter packed once by
// pack_depthwise_weights.comp: texel (s, tap) holds filter[kh][kw][4s .. 4s + 3][0]
// (tap = kh * KW + kw). x runs over (slice, output row, pixel tile), z over the batch.
// Summation is depthwise.comp's: per output, taps in (kh, kw) order, each product exact and
// rounded once into the fp32 sum. Taps past the input's edge are skipped, not multiplied by a
// zero: an infinite weight (fp16 overflow) would make NaN of them.
// Specialised by #define: the window (KH, KW, strides, dilations: NCOL sizes the row it keeps)
// and PW. Shapes and paddings are uniforms. LAZY_HALF (emulated fp16 storage): the uniform OUT_HALF
// rounds the store, one copy of the rounding code (the store loop's).
#define OWT ((OUT_W + PW - 1) / PW)
#define NCOL ((PW - 1) * SW + (KW - 1) * DW + 1)

#define MAD_FMA(acc, x, f) acc = fma(x, f, acc)
#define MAD_F64(acc, x, f) acc = vec4(dvec4(acc) + dvec4(x) * dvec4(f))

#define TAPS(MAD)                                                          \
  for (int kh = 0; kh < KH; ++kh) {                                        \
    int ih = oh * SH - PAD_T + kh * DH;                                    \
    if (ih < 0 || ih >= IN0_H) continue;                                   \
    vec4 x[NCOL];                                                          \
    for (int i = 0; i < NCOL; ++i) {                                       \
      int iw = iw0 + i;                                                    \
      x[i] = (iw >= 0 && iw < IN0_W) ? load_in0(n, ih, iw, s) : vec4(0.0); \
    }                                                                      \
    for (int kw = 0; kw < KW; ++kw) {                                      \
      vec4 f = load_in1(0, kh * KW + kw, s, 0);                            \
      for (int p = 0; p < PW; ++p) {                                       \
        int i = p * SW + kw * DW;                                          \
        if (iw0 + i >= 0 && iw0 + i < IN0_W) MAD(acc[p], x[i], f);          \
      }                                                                    \
    }                                                                      \
  }

void main() {
  // x runs over (slice, tile), tiles fastest: a group of 64 is full however few tiles a small
  // map has, and on a larger map a group still reads one slice's weights.
  ivec2 st = divmod(global_id().x, OUT_H * OWT);  // the grid stays below 2^24 (ops_conv.cpp)
  if (st.x >= OUT_C4) return;
  ivec2 tile = divmod(st.y, OWT);
  int oh = tile.x, ow0 = tile.y * PW;
  int s = st.x, n = group_id().z;
  int iw0 = ow0 * SW - PAD_L;
  precise vec4 acc[PW];
  for (int p = 0; p < PW; ++p) acc[p] = vec4(0.0);
  // One branch around the whole loop: llvmpipe pays for a branch inside it on every tap.
  if (sums_in_fma()) {
    TAPS(MAD_FMA)
  } else {
    TAPS(MAD_F64)
  }
  // One copy of the epilogue and the store, as in conv_direct.comp.
  SliceTerms t = slice_terms(s);
  int pixels = min(PW, OUT_W - ow0);
  for (int p = 0; p < pixels; ++p) {
    vec4 v = acc[0];
    for (int q = 1; q < PW; ++q) v = p == q ? acc[q] : v;
    vec4 y = epilogue(v, t, n, oh, ow0 + p, s);
#if LAZY_HALF
    // Emulated fp16 storage: the store rounds as an RGBA16F texture would (fp16_storage.h).
    if (OUT_HALF != 0) y = half_round(y);
#endif
    store_out(n, oh, ow0 + p, s, y);
  }
}
