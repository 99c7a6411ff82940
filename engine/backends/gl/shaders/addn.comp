// The sum of all inputs (same shapes); SUM is generated: load_in0(n, h, w, s) + load_in1(...) ...
void main() {
  int n, h, w, s;
  if (!out_texel(n, h, w, s)) return;
  store_out(n, h, w, s, SUM);
}
