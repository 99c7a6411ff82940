// DepthToSpace (NHWC, DCR): out[n, h, w, c] = in[n, h / B, w / B, ((h % B) * B + w % B) * OUT_C + c].
void main() {
  int n, h, w, s;
  if (!out_texel(n, h, w, s)) return;
  int bh = h % BLOCK, bw = w % BLOCK;
  int base = (bh * BLOCK + bw) * OUT_C;
  vec4 v = vec4(0.0);
  for (int j = 0; j < 4; ++j)
    if (4 * s + j < OUT_C) v[j] = lane_in0(n, h / BLOCK, w / BLOCK, base + 4 * s + j);
  store_out(n, h, w, s, v);
}
