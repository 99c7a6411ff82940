// DepthwiseConv2dNative (NHWC, filter [KH][KW][C][MULT], or [KH][KW][C] when PACKED) with the fused
// epilogue. Output channel oc = c * MULT + m.
void main() {
  int n, h, w, s;
  if (!out_texel(n, h, w, s)) return;
  vec4 acc = vec4(0.0);
  for (int kh = 0; kh < KH; ++kh) {
    int ih = h * SH - PAD_T + kh * DH;
    if (ih < 0 || ih >= IN0_H) continue;
    for (int kw = 0; kw < KW; ++kw) {
      int iw = w * SW - PAD_L + kw * DW;
      if (iw < 0 || iw >= IN0_W) continue;
#if defined(PACKED)
      // Filter repacked as [KH][KW][C]: four channels to a texel.
      acc += load_in0(n, ih, iw, s) * load_in1(0, kh, kw, s);
#elif MULT == 1
      vec4 x = load_in0(n, ih, iw, s);
      vec4 f = vec4(0.0);
      for (int j = 0; j < 4; ++j)
        if (4 * s + j < IN0_C) f[j] = lane_in1(kh, kw, 4 * s + j, 0);
      acc += x * f;
#else
      for (int j = 0; j < 4; ++j) {
        int oc = 4 * s + j;
        if (oc >= OUT_C) break;
        int c = oc / MULT, m = oc - c * MULT;
        acc[j] += lane_in0(n, ih, iw, c) * lane_in1(kh, kw, c, m);
      }
#endif
    }
  }
  store_out(n, h, w, s, epilogue(acc, s));
}
