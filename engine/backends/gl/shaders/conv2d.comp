// Conv2D (NHWC, filter HWIO) with the fused epilogue. in0 = x, in1 = filter as [KH][KW][IC][OC]
// (so filter texel (kh, kw, ic, slice) holds four output channels).
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
      for (int is = 0; is < IN0_C4; ++is) {
        vec4 x = load_in0(n, ih, iw, is);
        int c = is * 4;
        acc += x.x * load_in1(kh, kw, c, s);
        if (c + 1 < IN0_C) acc += x.y * load_in1(kh, kw, c + 1, s);
        if (c + 2 < IN0_C) acc += x.z * load_in1(kh, kw, c + 2, s);
        if (c + 3 < IN0_C) acc += x.w * load_in1(kh, kw, c + 3, s);
      }
    }
  }
  store_out(n, h, w, s, epilogue(acc, s));
}
