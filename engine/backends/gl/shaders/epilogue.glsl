// The bias, addend and activation of fused nodes, for the output texel (n, h, w, s). HAS_BIAS, a
// uniform, adds in2 ([C] or a scalar: BIAS_SPLAT); without a bias in2 is a stand-in whose value
// is never used, so that both are one program. ADDEND (a #define) adds the texel of the output's
// own shape that load_addend reads (a residual connection's, ops::kFusedAddend) where the Add node
// after the kernel would: after the bias (1) or after the activation (2). ACT (a #define,
// set_activation in C++) is ACT_LINEAR for none, relu, relu6, leaky (its uniforms ACT_SLOPE,
// ACT_CEILING, ACT_ZERO_NEG) and hard swish (ACT_HARD_SWISH_ON, HARD_SWISH_SCALE and
// HARD_SWISH_SHIFT; ops_conv.cpp's add_epilogue), ACT_PRELU reading the alpha from in3
// (ALPHA_SPLAT when a scalar), or ACT_ELU, ACT_SIGMOID, ACT_TANH. Those three and Prelu apply where
// the uniform ACT_APPLY says: 0 runs fp32's fused program without its activation (fp16 following
// webgl, which stores the value before it), with a stand-in for Prelu's alpha; ACT_LINEAR's
// uniforms then make it the identity.
// What the epilogue reads per output slice s: the bias and Prelu's alpha. A kernel that stores
// several outputs of one slice reads them once: each read is an image load whose code the driver
// builds at every call site (llvmpipe: a 1x1 convolution's eight bias loads were a fifth of its
// build time).
struct SliceTerms {
  vec4 bias, alpha;
};
SliceTerms slice_terms(int s) {
  SliceTerms t;
  t.bias = vec4(0.0);
  if (HAS_BIAS != 0) {
#if BIAS_SPLAT
    t.bias = vec4(load_in2(0, 0, 0, 0).x);
#else
    t.bias = load_in2(0, 0, 0, s);
#endif
  }
#if ACT == ACT_PRELU && ALPHA_SPLAT
  t.alpha = vec4(load_in3(0, 0, 0, 0).x);
#elif ACT == ACT_PRELU
  t.alpha = load_in3(0, 0, 0, s);
#else
  t.alpha = vec4(0.0);
#endif
  return t;
}

vec4 epilogue(vec4 acc, SliceTerms t, int n, int h, int w, int s) {
  if (HAS_BIAS != 0) acc += t.bias;  // not + 0 without one: a -0 sum stays -0
#if ADDEND == 1
  acc += load_addend(n, h, w, s);
#endif
  vec4 y;
#if ACT == ACT_LINEAR
  y = act_linear(acc, ACT_SLOPE, ACT_CEILING, ACT_ZERO_NEG);
  vec4 hs = act_hard_swish(acc, HARD_SWISH_SCALE, HARD_SWISH_SHIFT);
  y = ACT_HARD_SWISH_ON != 0 ? hs : y;
#elif ACT == ACT_PRELU
  y = ACT_APPLY != 0 ? act_leaky(acc, t.alpha) : acc;
#else
  y = ACT_APPLY != 0 ? activate(ACT, acc, vec4(0.0)) : acc;
#endif
#if ADDEND == 2
  y += load_addend(n, h, w, s);
#endif
  return y;
}

// One output of its slice.
vec4 epilogue(vec4 acc, int n, int h, int w, int s) {
  return epilogue(acc, slice_terms(s), n, h, w, s);
}
