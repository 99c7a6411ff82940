// Every element = VALUE (the float32 capability probe).
void main() {
  int n, h, w, s;
  if (!out_texel(n, h, w, s)) return;
  store_out(n, h, w, s, vec4(VALUE));
}
