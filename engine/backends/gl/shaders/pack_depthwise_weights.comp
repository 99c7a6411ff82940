// Copies a DepthwiseConv2dNative filter [KH][KW][C][1] (texture in0: n = kh, h = kw, w = c, one
// lane) into the storage buffer depthwise_direct.comp reads: weights[tap * C4 + s] =
// filter[kh][kw][4s .. 4s + 3][0] (tap = kh * KW + kw), zeros past C.
layout(std430, binding = 0) writeonly buffer Packed { vec4 packed_weights[]; };
void main() {
  ivec3 g = global_id();
  int tap = g.x, s = g.y;
  if (tap >= KH * KW || s >= C4) return;
  int kh = tap / KW, kw = tap - kh * KW;
  vec4 v = vec4(0.0);
  for (int j = 0; j < 4; ++j)
    if (4 * s + j < IN0_W) v[j] = lane_in0(kh, kw, 4 * s + j, 0);
  packed_weights[tap * C4 + s] = v;
}
