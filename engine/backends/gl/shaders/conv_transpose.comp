// Conv2DBackpropInput: dx[n, h, w, ci] = sum over (kh, kw, co) of dy[n, oh, ow, co] *
// f[kh, kw, ci, co] where oh * SH = h + PAD_T - kh (same for w). in0 = dy, in1 = filter
// [KH][KW][CI][CO]. The window and the shapes are uniforms.
void main() {
  int n, h, w, s;
  if (!out_texel(n, h, w, s)) return;
  vec4 acc = vec4(0.0);
  for (int kh = 0; kh < KH; ++kh) {
    int th = h + PAD_T - kh;
    if (th < 0 || th - (th / SH) * SH != 0) continue;
    int oh = th / SH;
    if (oh >= IN0_H) continue;
    for (int kw = 0; kw < KW; ++kw) {
      int tw = w + PAD_L - kw;
      if (tw < 0 || tw - (tw / SW) * SW != 0) continue;
      int ow = tw / SW;
      if (ow >= IN0_W) continue;
      for (int cs = 0; cs < IN0_C4; ++cs) {
        vec4 dy = load_in0(n, oh, ow, cs);
        for (int j = 0; j < 4; ++j)
          if (4 * s + j < OUT_C) acc[j] += dot(dy, load_in1(kh, kw, 4 * s + j, cs));
      }
    }
  }
  store_out(n, h, w, s, acc);
}
