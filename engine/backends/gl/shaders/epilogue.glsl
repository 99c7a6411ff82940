// The bias and activation of fused nodes. HAS_BIAS reads in2 ([C] or a scalar: BIAS_SPLAT),
// ACT_IS_PRELU reads the Prelu alpha from in3 (ALPHA_SPLAT when a scalar); ACT (a #define) and
// ALPHA (leaky slope, a uniform) come from the node.
vec4 epilogue(vec4 acc, int s) {
#if HAS_BIAS
#if BIAS_SPLAT
  acc += vec4(load_in2(0, 0, 0, 0).x);
#else
  acc += load_in2(0, 0, 0, s);
#endif
#endif
#if ACT_IS_PRELU
#if ALPHA_SPLAT
  vec4 alpha = vec4(load_in3(0, 0, 0, 0).x);
#else
  vec4 alpha = load_in3(0, 0, 0, s);
#endif
#else
  vec4 alpha = vec4(ALPHA);
#endif
  return activate(ACT, acc, alpha);
}
