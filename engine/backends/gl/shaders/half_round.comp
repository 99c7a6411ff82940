// Emulated fp16 storage (fp16_storage.h): after a kernel wrote an fp16 tensor into an RGBA32F
// texture, this pass rounds every texel in place to half precision exactly as the driver's own
// RGBA16F store would have (in0 and out0 are the same texture), with half_round.glsl. A separate
// pass, not code in each kernel's store: that made llvmpipe's builds of every program about 2.5x
// slower, while this is one program for every tensor, built once. It runs only before a kernel
// that cannot round what it reads (lazy rounding, GlBackend::dispatch).
void main() {
  int n, h, w, s;
  if (!out_texel(n, h, w, s)) return;
  store_out(n, h, w, s, half_round(load_in0(n, h, w, s)));
}
