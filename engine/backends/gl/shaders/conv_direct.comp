// Conv2D (NHWC) without shared memory: each invocation computes PW output pixels along a row times
// PS output slices (4 * PS channels), so that every input texel it fetches feeds 4 * PS output
// channels of PW pixels, and every weight it loads feeds PW pixels. Weights come from in1, the
// filter packed once by pack_conv_weights.comp: texel (s, tap * IN0_C4 * 4 + ci) holds
// filter[kh][kw][ci][4s .. 4s + 3] (tap = kh * KW + kw; zero past IN0_C and OUT_C).
// The slice block comes from the work group (group_id().y), so weight addresses are the same for
// the whole group; x runs over (output row, pixel tile), z over the batch.
// Summation is gemm_tiled.comp's: per output, one product at a time in (kh, kw, ci) order, each
// exact and rounded once into the fp32 sum (fma() where it rounds once, doubles where it does not).
// Taps past the input's edge add nothing.
// Specialised by #define: the window size (KH, KW: llvmpipe unrolls the tap loops, but for the
// stems'), the tile PW x PS (register arrays) and IN0_FEW_LANES, whose stems also get their
// strides and dilations as #defines. Shapes, paddings and the other windows' strides and
// dilations are uniforms. Small layers without a program of their own window share one that takes
// KH and KW as uniforms too (ops_conv.cpp, uses_shared_program).
#define OWT ((OUT_W + PW - 1) / PW)


// One input lane (a float) times one weight vec4 into acc, rounded once per product.
#define MAD_FMA(acc, xl, wv) acc = fma(vec4(xl), wv, acc)
#define MAD_F64(acc, xl, wv) acc = vec4(dvec4(acc) + double(xl) * dvec4(wv))

// With fewer than four input channels (images: RGB), the lanes past IN0_C are zero in the input
// and the packed filter: skip them, as TF.js never adds those products. The test is a constant
// there; with more channels it would be a branch in the loop, which costs llvmpipe more than the
// products it saves.
// The input's slices, a constant with few lanes (one slice): each tap then runs as straight code
// (a loop of unknown length inside each tap cost llvmpipe a masked copy of every accumulator per
// tap; the stems of blazeface, movenet and selfie). The stem's window loops take their bounds
// from uniforms (KH_RUN, KW_RUN, the same as KH and KW), so that the compiler keeps them loops:
// unrolled, a 3x3 stem's nine taps doubled its build on llvmpipe (selfie's and movenet's stems
// 236-239 -> 118-128 ms), for no warm speed measured (the stem is one layer of many).
#if IN0_FEW_LANES
#define LANE_LIVE(j) ((j) < IN0_FEW_LANES)
#define IN_SLICES 1
#define KH_LOOP KH_RUN
#define KW_LOOP KW_RUN
#else
#define LANE_LIVE(j) true
#define IN_SLICES IN0_C4
#define KH_LOOP KH
#define KW_LOOP KW
#endif

#define TAPS(MAD)                                                                   \
  for (int kh = 0; kh < KH_LOOP; ++kh) {                                            \
    int ih = oh * SH - PAD_T + kh * DH;                                             \
    if (ih < 0 || ih >= IN0_H) continue;                                            \
    for (int kw = 0; kw < KW_LOOP; ++kw) {                                          \
      int base = (kh * KW + kw) * IN_SLICES * 4;                                    \
      for (int c4 = 0; c4 < IN_SLICES; ++c4) {                                      \
        vec4 x[PW];                                                                 \
        for (int p = 0; p < PW; ++p) {                                              \
          int iw = (ow0 + p) * SW - PAD_L + kw * DW;                                \
          x[p] = (iw >= 0 && iw < IN0_W) ? load_in0(n, ih, iw, c4) : vec4(0.0);     \
        }                                                                           \
        for (int j = 0; j < 4; ++j) {                                               \
          if (!LANE_LIVE(j)) break;                                                 \
          int wr = base + c4 * 4 + j;                                               \
          for (int k = 0; k < PS; ++k) {                                            \
            vec4 wv = load_in1(0, wr, s0 + k, 0);                                   \
            for (int p = 0; p < PW; ++p) MAD(acc[p * PS + k], x[p][j], wv);         \
          }                                                                         \
        }                                                                           \
      }                                                                             \
    }                                                                               \
  }

void main() {
  // x runs over (slice block, tile), tiles fastest: a group of 64 is full however few tiles a
  // small map has (6x6: 12 tiles), and on a larger map a group still reads one block's weights.
  ivec2 bt = divmod(global_id().x, OUT_H * OWT);  // the grid stays below 2^24 (ops_conv.cpp)
  if (bt.x >= (OUT_C4 + PS - 1) / PS) return;
  ivec2 tile = divmod(bt.y, OWT);
  int oh = tile.x, ow0 = tile.y * PW;
  int s0 = bt.x * PS, n = group_id().z;
  precise vec4 acc[PW * PS];
  for (int i = 0; i < PW * PS; ++i) acc[i] = vec4(0.0);
  // One branch around the whole loop: llvmpipe pays for a branch inside it on every pass.
  if (sums_in_fma()) {
    TAPS(MAD_FMA)
  } else {
    TAPS(MAD_F64)
  }
  // The stores loop over the tile's pixels with a bound the compiler cannot unroll, picking each
  // pixel's sums from the registers: one copy of the epilogue and the store per slice, not PW.
  // A driver builds every image access at its call site: on llvmpipe, with the bias read once per
  // slice too, blazeface's 1x1 convolutions build in 0.65-0.7 of the time and its stem in 0.78;
  // the picks are a few selects per stored texel (warm runs unchanged).
  int pixels = min(PW, OUT_W - ow0);
  for (int k = 0; k < PS; ++k) {
    int s = s0 + k;
    if (s >= OUT_C4) break;
    SliceTerms t = slice_terms(s);
    for (int p = 0; p < pixels; ++p) {
      vec4 v = acc[k];
      for (int q = 1; q < PW; ++q) v = p == q ? acc[q * PS + k] : v;
      store_out(n, oh, ow0 + p, s, epilogue(v, t, n, oh, ow0 + p, s));
    }
  }
}
