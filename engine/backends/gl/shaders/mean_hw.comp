// Mean over H and W of an NHWC tensor. KEEP: output [N,1,1,C]; else [N,C], stored as
// [1,1,N,C] (batch in texel column w).
void main() {
  int on, oh, ow, s;
  if (!out_texel(on, oh, ow, s)) return;
#if KEEP
  int n = on;
#else
  int n = ow;
#endif
  vec4 acc = vec4(0.0);
  for (int h = 0; h < IN0_H; ++h)
    for (int w = 0; w < IN0_W; ++w) acc += load_in0(n, h, w, s);
  store_out(on, oh, ow, s, acc / float(IN0_H * IN0_W));
}
