// Conv2DBackpropInput: dx[n, h, w, ci] = sum over (kh, kw, co) of dy[n, oh, ow, co] *
// f[kh, kw, ci, co] where oh * SH = h + PAD_T - kh (same for w). in0 = dy, in1 = filter
// [KH][KW][CI][CO]. The window and the shapes are uniforms. The uniform HAS_BIAS adds a fused
// bias (in2, per channel, or one value for all: BIAS_SPLAT) after the sum, as the bias add node
// after it would; without one, in2 stands in unread, so that both are one program (fp16 following
// webgl runs the bias apart: a precision switch builds nothing for it).
// Only the taps with kh = (h + PAD_T) mod SH + i * SH (oh = (h + PAD_T) / SH - i) add anything:
// the loops visit those alone, in increasing kh and kw as a loop over every tap would, with one
// divmod per output (no integer division per tap: llvmpipe divides lane by lane).
void main() {
  int n, h, w, s;
  if (!out_texel(n, h, w, s)) return;
  vec4 acc = vec4(0.0);
  ivec2 qh = divmod(h + PAD_T, SH), qw = divmod(w + PAD_L, SW);
  for (int kh = qh.y, oh = qh.x; kh < KH && oh >= 0; kh += SH, --oh) {
    if (oh >= IN0_H) continue;
    for (int kw = qw.y, ow = qw.x; kw < KW && ow >= 0; kw += SW, --ow) {
      if (ow >= IN0_W) continue;
      for (int cs = 0; cs < IN0_C4; ++cs) {
        vec4 dy = load_in0(n, oh, ow, cs);
        for (int j = 0; j < 4; ++j)
          if (4 * s + j < OUT_C) acc[j] += dot(dy, load_in1(kh, kw, 4 * s + j, cs));
      }
    }
  }
  if (HAS_BIAS != 0) {
#if BIAS_SPLAT
    acc += vec4(load_in2(0, 0, 0, 0).x);
#else
    acc += load_in2(0, 0, 0, s);
#endif
  }
  store_out(n, h, w, s, acc);
}
