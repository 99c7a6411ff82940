// y = f(x), one texel at a time. OP picks f; ACT and ALPHA for the activations.
#define OP_ACT 0
#define OP_EXP 1
#define OP_ABS 2
#define OP_NEG 3
#define OP_SQUARE 4
#define OP_COPY 5
void main() {
  int n, h, w, s;
  if (!out_texel(n, h, w, s)) return;
  vec4 x = load_in0(n, h, w, s);
#if OP == OP_ACT
  vec4 y = activate(ACT, x, vec4(ALPHA));
#elif OP == OP_EXP
  vec4 y = exp(x);
#elif OP == OP_ABS
  vec4 y = abs(x);
#elif OP == OP_NEG
  vec4 y = -x;
#elif OP == OP_SQUARE
  vec4 y = x * x;
#else
  vec4 y = x;
#endif
  store_out(n, h, w, s, y);
}
