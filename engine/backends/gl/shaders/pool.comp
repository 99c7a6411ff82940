// MaxPool / AvgPool (NHWC). AVG divides by the number of window elements inside the input, as TF.
// Specialised by #define: AVG, and a window of at most 3x3 but its paddings (unrolled); larger
// windows, shapes and paddings are uniforms.
void main() {
  int n, h, w, s;
  if (!out_texel(n, h, w, s)) return;
#if AVG
  vec4 acc = vec4(0.0);
#else
  vec4 acc = vec4(-3.402823466e38);
#endif
  int count = 0;
  for (int kh = 0; kh < KH; ++kh) {
    int ih = h * SH - PAD_T + kh;
    if (ih < 0 || ih >= IN0_H) continue;
    for (int kw = 0; kw < KW; ++kw) {
      int iw = w * SW - PAD_L + kw;
      if (iw < 0 || iw >= IN0_W) continue;
      vec4 x = load_in0(n, ih, iw, s);
#if AVG
      acc += x;
#else
      acc = max(acc, x);
#endif
      ++count;
    }
  }
#if AVG
  acc = count > 0 ? acc / float(count) : vec4(0.0);
#endif
  store_out(n, h, w, s, acc);
}
