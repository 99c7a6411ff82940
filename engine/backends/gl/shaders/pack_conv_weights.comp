// Copies a Conv2D filter [KH][KW][IC][OC] (in0: n = kh, h = kw, w = ic, c = oc) into the texture
// conv_direct.comp reads, one texel per (row, output slice): texel (x = s, y = r) with
// r = tap * ICP + ci (tap = kh * KW + kw, ICP = IC rounded up to 4) holds
// filter[kh][kw][ci][4s .. 4s + 3]; zeros past IC and past OC (the texture is OC4P slices wide).
// KW, ICP and the shapes are uniforms.
void main() {
  int n, r, s, z;
  if (!out_texel(n, r, s, z)) return;
  int tap = r / ICP, ci = r - tap * ICP;
  int kh = tap / KW, kw = tap - kh * KW;
  vec4 v = vec4(0.0);
  if (ci < IN0_W && s < IN0_C4) v = load_in0(kh, kw, ci, s);
  store_out(0, r, s, 0, v);
}
