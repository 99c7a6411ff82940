// The driver probe at start (GlBackend::probe_driver): lanes 0, 2 and 3 = VALUE, which half floats
// cannot hold (the float32 capability), lane 1 = 1 when fma() rounds once, else 0.
void main() {
  int n, h, w, s;
  if (!out_texel(n, h, w, s)) return;
  store_out(n, h, w, s, vec4(VALUE, fma_rounds_once_measured() ? 1.0 : 0.0, VALUE, VALUE));
}
