// Copies a Conv2D filter [KH][KW][IC][OC] (texture in0: n = kh, h = kw, w = ic, c = oc) into the
// storage buffer conv_direct.comp reads: row r = tap * ICP + ci (tap = kh * KW + kw, ICP = IC
// rounded up to 4), column s = output slice up to OC4P; zeros past IC and past OC.
layout(std430, binding = 0) writeonly buffer Packed { vec4 packed_weights[]; };
void main() {
  ivec3 g = global_id();
  int r = g.x, s = g.y;
  if (r >= KH * KW * ICP || s >= OC4P) return;
  int tap = r / ICP, ci = r - tap * ICP;
  int kh = tap / KW, kw = tap - kh * KW;
  vec4 v = vec4(0.0);
  if (ci < IN0_W && s < IN0_C4) v = load_in0(kh, kw, ci, s);
  packed_weights[r * OC4P + s] = v;
}
