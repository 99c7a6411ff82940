// Shape ops that move elements (Reshape, ConcatV2, Pad, StridedSlice): each output lane finds its
// source with the generated `float source_lane(ivec4 o)` (o = padded NHWC index of the output),
// or, with BY_TEXEL, each output texel with `vec4 source_texel(ivec4 o)` (o = n, h, w, slice).
void main() {
  int n, h, w, s;
  if (!out_texel(n, h, w, s)) return;
#ifdef BY_TEXEL
  vec4 v = source_texel(ivec4(n, h, w, s));
#else
  vec4 v = vec4(0.0);
  for (int j = 0; j < 4; ++j)
    if (4 * s + j < OUT_C) v[j] = source_lane(ivec4(n, h, w, 4 * s + j));
#endif
  store_out(n, h, w, s, v);
}
