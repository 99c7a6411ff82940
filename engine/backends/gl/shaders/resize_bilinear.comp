// ResizeBilinear (NHWC) with TF's align_corners / half_pixel_centers source coordinates.
// Specialised by #define: HALF_PIXEL; the ratios and shapes are uniforms.
vec3 axis(int i, int size, float ratio) {
#if HALF_PIXEL
  float src = ratio * (float(i) + 0.5) - 0.5;
#else
  float src = ratio * float(i);
#endif
  float lo = max(0.0, floor(src));
  int lo_i = min(size - 1, int(lo));
  int hi_i = max(0, min(size - 1, int(ceil(src))));
  return vec3(float(lo_i), float(hi_i), src - lo);
}
void main() {
  int n, h, w, s;
  if (!out_texel(n, h, w, s)) return;
  vec3 y = axis(h, IN0_H, RATIO_H), x = axis(w, IN0_W, RATIO_W);
  int y0 = int(y.x), y1 = int(y.y), x0 = int(x.x), x1 = int(x.y);
  vec4 tl = load_in0(n, y0, x0, s), tr = load_in0(n, y0, x1, s);
  vec4 bl = load_in0(n, y1, x0, s), br = load_in0(n, y1, x1, s);
  vec4 top = tl + (tr - tl) * x.z, bot = bl + (br - bl) * x.z;
  store_out(n, h, w, s, top + (bot - top) * y.z);
}
