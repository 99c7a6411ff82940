// Shape ops that move elements (Reshape, ConcatV2, Pad, StridedSlice): each output lane finds its
// source with the generated `float source_lane(ivec4 o)` (o = padded NHWC index of the output).
void main() {
  int n, h, w, s;
  if (!out_texel(n, h, w, s)) return;
  vec4 v = vec4(0.0);
  for (int j = 0; j < 4; ++j)
    if (4 * s + j < OUT_C) v[j] = source_lane(ivec4(n, h, w, 4 * s + j));
  store_out(n, h, w, s, v);
}
