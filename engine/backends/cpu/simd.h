// Eight-float vectors (GCC vector extensions) for the hot loops. Plain C++ loops over unknown
// trip counts are not vectorized at -O2, so the kernels that matter spell out the vector width.
// Helpers take vectors by reference: passing 32-byte vectors by value changes the ABI between
// AVX and non-AVX code (GCC's -Wpsabi).
#pragma once

namespace tfjsi::cpu {

using f32x8 = float __attribute__((vector_size(32)));
inline constexpr int kF32x8 = 8;

inline void vload(f32x8& v, const float* p) {
  __builtin_memcpy(&v, p, sizeof v);
}
inline void vstore(float* p, const f32x8& v) {
  __builtin_memcpy(p, &v, sizeof v);
}
inline void vbroadcast(f32x8& v, float x) {
  v = f32x8{} + x;
}

}  // namespace tfjsi::cpu

// Hot functions are compiled twice, for AVX2+FMA machines and for any x86-64, and the loader picks
// one at start; other architectures get the plain build. Not under clang: clang 14 calls a
// target_clones member function defined in another file wrongly (a two-file test returned the
// input unchanged), so its builds (the sanitizer pass) run the plain code without FMA.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define TFJSI_HOT_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define TFJSI_HOT_CLONES
#endif
