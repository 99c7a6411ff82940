// Softmax over the last dim (channels): one invocation per (n, h, w) walks its channel slices.
// The grid is (W, H, N).
void main() {
  ivec3 g = global_id();
  int w = g.x, h = g.y, n = g.z;
  if (w >= OUT_W || h >= OUT_H || n >= OUT_N) return;
  float m = -3.402823466e38;
  for (int s = 0; s < IN0_C4; ++s) {
    vec4 x = load_in0(n, h, w, s);
    for (int j = 0; j < 4; ++j)
      if (4 * s + j < IN0_C) m = max(m, x[j]);
  }
  float sum = 0.0;
  for (int s = 0; s < IN0_C4; ++s) {
    vec4 e = exp(load_in0(n, h, w, s) - m);
    for (int j = 0; j < 4; ++j)
      if (4 * s + j < IN0_C) sum += e[j];
  }
  for (int s = 0; s < IN0_C4; ++s) store_out(n, h, w, s, exp(load_in0(n, h, w, s) - m) / sum);
}
