// half_round(v): v rounded to half precision exactly as the driver's own RGBA16F store would
// round it. The rule is the driver's, probed at start (fp16_storage.cpp gives the #defines):
//   HALF_NEAREST 1: round to nearest, ties to even (IEEE, most GPUs); 0: toward zero (Mesa)
//   HALF_INF     1: finite values past 65504 become inf; 0: they saturate to +-65504 (Mesa)
// inf and NaN stay what they are; the sign stays (-0 included). packHalf2x16 is not used: GLSL
// 4.30 leaves its rounding to the implementation. Normal halves (2^-14 and up) are cut on the
// float's bits (a carry of the rounding into the exponent is the right answer too); subnormal
// ones in float arithmetic where every step is exact (|x| * 2^24 < 1024, trunc or roundEven,
// times 2^-24). Whole vec4s, no branch: llvmpipe runs both sides of one anyway. HALF_MAX (65504),
// HALF_MIN_NORMAL (2^-14), HALF_MIN_SUBNORMAL (2^-24) and HALF_SUBNORMAL_STEPS (2^24) come from
// core/half_float.h's constants, not written here again.
// Used by half_round.comp (the emulated storage's pass) and webgl_stages.comp (the partial
// results TF.js stores inside its own reductions).
vec4 half_round(vec4 v) {
  uvec4 a = floatBitsToUint(v) & 0x7fffffffu;
#if HALF_NEAREST
  // Half way up (0xfff) plus the last kept bit: ties go to the even neighbour.
  uvec4 cut = (a + 0xfffu + ((a >> 13) & 1u)) & 0xffffe000u;
  vec4 small = roundEven(abs(v) * HALF_SUBNORMAL_STEPS) * HALF_MIN_SUBNORMAL;
#else
  uvec4 cut = a & 0xffffe000u;
  vec4 small = trunc(abs(v) * HALF_SUBNORMAL_STEPS) * HALF_MIN_SUBNORMAL;
#endif
  vec4 big = uintBitsToFloat(cut);
#if HALF_INF
  big = mix(big, vec4(INF_F), greaterThan(big, vec4(HALF_MAX)));
#else
  big = min(big, vec4(HALF_MAX));
#endif
  vec4 r = mix(big, small, lessThan(abs(v), vec4(HALF_MIN_NORMAL)));
  r = mix(r, abs(v), greaterThanEqual(a, uvec4(0x7f800000u)));
  return uintBitsToFloat(floatBitsToUint(r) | (floatBitsToUint(v) & 0x80000000u));
}

