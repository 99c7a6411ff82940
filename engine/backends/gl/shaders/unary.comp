// y = f(x), one texel at a time. OP picks f (C++ passes the macro name, e.g. OP_EXP; the numbers
// live here only); OP_ACT applies ACT (see epilogue.glsl: relu, relu6 and leaky share the program
// of ACT_LINEAR). OP stays a #define: most functions here are transcendental, and llvmpipe would
// compute every branch of a chain on a uniform for every texel.
#define OP_ACT 0
#define OP_EXP 1
#define OP_ABS 2
#define OP_NEG 3
#define OP_SQUARE 4
#define OP_COPY 5
#define OP_RSQRT 6
#define OP_SQRT 7
#define OP_RECIPROCAL 8
#define OP_FLOOR 9
#define OP_CEIL 10
#define OP_LOG 11
#define OP_SIN 12
#define OP_COS 13
#define OP_ROUND 14
#define OP_SOFTPLUS 15
#define OP_SIGN 16
#define OP_ASINH 17
#define OP_ACOSH 18
#define OP_ATANH 19
void main() {
  int n, h, w, s;
  if (!out_texel(n, h, w, s)) return;
  vec4 x = load_in0(n, h, w, s);
#if OP == OP_ACT && ACT == ACT_LINEAR
  vec4 y = act_linear(x, ACT_SLOPE, ACT_CEILING, ACT_ZERO_NEG);
#elif OP == OP_ACT
  vec4 y = activate(ACT, x, vec4(0.0));
#elif OP == OP_EXP
  vec4 y = exp(x);
#elif OP == OP_ABS
  vec4 y = abs(x);
#elif OP == OP_NEG
  vec4 y = -x;
#elif OP == OP_SQUARE
  vec4 y = x * x;
#elif OP == OP_RSQRT
  // Outside the domain as IEEE says (GLSL leaves it undefined): 0 -> inf, negative -> NaN.
  vec4 y = mix(inversesqrt(max(x, vec4(0.0))), vec4(NAN_F), lessThan(x, vec4(0.0)));
  y = mix(y, vec4(INF_F), equal(x, vec4(0.0)));
#elif OP == OP_SQRT
  vec4 y = mix(sqrt(max(x, vec4(0.0))), vec4(NAN_F), lessThan(x, vec4(0.0)));
#elif OP == OP_RECIPROCAL
  vec4 y = 1.0 / x;
#elif OP == OP_FLOOR
  vec4 y = floor(x);
#elif OP == OP_CEIL
  vec4 y = ceil(x);
#elif OP == OP_LOG
  vec4 y = mix(log(max(x, vec4(1e-45))), vec4(NAN_F), lessThan(x, vec4(0.0)));
  y = mix(y, vec4(-INF_F), equal(x, vec4(0.0)));
#elif OP == OP_SIN
  vec4 y = sin(x);
#elif OP == OP_COS
  vec4 y = cos(x);
#elif OP == OP_ROUND
  vec4 y = roundEven(x);
#elif OP == OP_SOFTPLUS
  // log(1 + e^x) without overflow: max(x, 0) + log(1 + e^-|x|).
  vec4 y = max(x, vec4(0.0)) + log(vec4(1.0) + exp(-abs(x)));
#elif OP == OP_SIGN
  vec4 y = sign(x);
#elif OP == OP_ASINH
  vec4 y = asinh(x);
#elif OP == OP_ACOSH
  // GLSL leaves acosh undefined below 1: NaN there, as in JS.
  vec4 y = mix(acosh(max(x, vec4(1.0))), vec4(NAN_F), lessThan(x, vec4(1.0)));
#elif OP == OP_ATANH
  // GLSL leaves atanh undefined at |x| >= 1: +-inf at +-1 and NaN beyond, as in JS.
  vec4 y = atanh(clamp(x, vec4(-0.99999994), vec4(0.99999994)));
  y = mix(y, sign(x) * vec4(INF_F), equal(abs(x), vec4(1.0)));
  y = mix(y, vec4(NAN_F), greaterThan(abs(x), vec4(1.0)));
#else
  vec4 y = x;
#endif
  store_out(n, h, w, s, y);
}
