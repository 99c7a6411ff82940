// Copies a DepthwiseConv2dNative filter [KH][KW][C][1] (in0: n = kh, h = kw, w = c, one lane)
// into the texture depthwise_direct.comp reads: texel (x = s, y = tap) holds
// filter[kh][kw][4s .. 4s + 3][0] (tap = kh * KW + kw), zeros past C. KW and the shapes are
// uniforms.
void main() {
  int n, tap, s, z;
  if (!out_texel(n, tap, s, z)) return;
  int kh = tap / KW, kw = tap - kh * KW;
  vec4 v = vec4(0.0);
  for (int j = 0; j < 4; ++j)
    if (4 * s + j < IN0_W) v[j] = lane_in0(kh, kw, 4 * s + j, 0);
  store_out(0, tap, s, 0, v);
}
