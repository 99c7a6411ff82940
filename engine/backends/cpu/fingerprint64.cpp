// FarmHash's 64-bit "na" hash, as TF's Fingerprint64 defines it: inputs up to 16, 32 and 64 bytes
// have their own mixes, longer ones go through a 64-byte block loop. Reads are little-endian
// whatever the host, so the values are the same everywhere.
#include "backends/cpu/fingerprint64.h"

#include <utility>

namespace tfjsi::cpu {
namespace {

constexpr std::uint64_t k0 = 0xc3a5c85c97cb3127ULL;
constexpr std::uint64_t k1 = 0xb492b66fbe98f273ULL;
constexpr std::uint64_t k2 = 0x9ae16a3b2f90404fULL;

std::uint64_t fetch(const char* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}
std::uint64_t fetch64(const char* p) {
  return fetch(p, 8);
}
std::uint64_t fetch32(const char* p) {
  return fetch(p, 4);
}

std::uint64_t rotate(std::uint64_t v, int shift) {
  return shift == 0 ? v : (v >> shift) | (v << (64 - shift));
}

std::uint64_t shift_mix(std::uint64_t v) {
  return v ^ (v >> 47);
}

std::uint64_t hash_len16(std::uint64_t u, std::uint64_t v, std::uint64_t mul) {
  std::uint64_t a = (u ^ v) * mul;
  a ^= a >> 47;
  std::uint64_t b = (v ^ a) * mul;
  b ^= b >> 47;
  return b * mul;
}

std::uint64_t hash_len0to16(const char* s, std::uint64_t len) {
  if (len >= 8) {
    const std::uint64_t mul = k2 + len * 2;
    const std::uint64_t a = fetch64(s) + k2;
    const std::uint64_t b = fetch64(s + len - 8);
    const std::uint64_t c = rotate(b, 37) * mul + a;
    const std::uint64_t d = (rotate(a, 25) + b) * mul;
    return hash_len16(c, d, mul);
  }
  if (len >= 4) {
    const std::uint64_t mul = k2 + len * 2;
    const std::uint64_t a = fetch32(s);
    return hash_len16(len + (a << 3), fetch32(s + len - 4), mul);
  }
  if (len > 0) {
    const auto a = static_cast<unsigned char>(s[0]);
    const auto b = static_cast<unsigned char>(s[len >> 1]);
    const auto c = static_cast<unsigned char>(s[len - 1]);
    const std::uint64_t y = a + (static_cast<std::uint64_t>(b) << 8);
    const std::uint64_t z = len + (static_cast<std::uint64_t>(c) << 2);
    return shift_mix(y * k2 ^ z * k0) * k2;
  }
  return k2;
}

std::uint64_t hash_len17to32(const char* s, std::uint64_t len) {
  const std::uint64_t mul = k2 + len * 2;
  const std::uint64_t a = fetch64(s) * k1;
  const std::uint64_t b = fetch64(s + 8);
  const std::uint64_t c = fetch64(s + len - 8) * mul;
  const std::uint64_t d = fetch64(s + len - 16) * k2;
  return hash_len16(rotate(a + b, 43) + rotate(c, 30) + d, a + rotate(b + k2, 18) + c, mul);
}

std::uint64_t hash_len33to64(const char* s, std::uint64_t len) {
  const std::uint64_t mul = k2 + len * 2;
  const std::uint64_t a = fetch64(s) * k2;
  const std::uint64_t b = fetch64(s + 8);
  const std::uint64_t c = fetch64(s + len - 8) * mul;
  const std::uint64_t d = fetch64(s + len - 16) * k2;
  const std::uint64_t y = rotate(a + b, 43) + rotate(c, 30) + d;
  const std::uint64_t z = hash_len16(y, a + rotate(b + k2, 18) + c, mul);
  const std::uint64_t e = fetch64(s + 16) * mul;
  const std::uint64_t f = fetch64(s + 24);
  const std::uint64_t g = (y + fetch64(s + len - 32)) * mul;
  const std::uint64_t h = (z + fetch64(s + len - 24)) * mul;
  return hash_len16(rotate(e + f, 43) + rotate(g, 30) + h, e + rotate(f + a, 18) + g, mul);
}

using Pair = std::pair<std::uint64_t, std::uint64_t>;

// 16 bytes of hash from 32 bytes of input and two seeds.
Pair weak_hash_len32(const char* s, std::uint64_t a, std::uint64_t b) {
  const std::uint64_t w = fetch64(s), x = fetch64(s + 8), y = fetch64(s + 16), z = fetch64(s + 24);
  a += w;
  b = rotate(b + a + z, 21);
  const std::uint64_t c = a;
  a += x;
  a += y;
  b += rotate(a, 44);
  return {a + z, b + c};
}

}  // namespace

std::uint64_t fingerprint64(std::string_view bytes) {
  const char* s = bytes.data();
  const std::uint64_t len = bytes.size();
  if (len <= 16) return hash_len0to16(s, len);
  if (len <= 32) return hash_len17to32(s, len);
  if (len <= 64) return hash_len33to64(s, len);

  constexpr std::uint64_t seed = 81;
  std::uint64_t x = seed;
  std::uint64_t y = seed * k1 + 113;
  std::uint64_t z = shift_mix(y * k2 + 113) * k2;
  Pair v{0, 0}, w{0, 0};
  x = x * k2 + fetch64(s);
  // The loop leaves 1 to 64 bytes, which the last 64 bytes of the input cover.
  const char* end = s + ((len - 1) / 64) * 64;
  const char* last64 = end + ((len - 1) & 63) - 63;
  do {
    x = rotate(x + y + v.first + fetch64(s + 8), 37) * k1;
    y = rotate(y + v.second + fetch64(s + 48), 42) * k1;
    x ^= w.second;
    y += v.first + fetch64(s + 40);
    z = rotate(z + w.first, 33) * k1;
    v = weak_hash_len32(s, v.second * k1, x + w.first);
    w = weak_hash_len32(s + 32, z + w.second, y + fetch64(s + 16));
    std::swap(z, x);
    s += 64;
  } while (s != end);
  const std::uint64_t mul = k1 + ((z & 0xff) << 1);
  s = last64;
  w.first += (len - 1) & 63;
  v.first += w.first;
  w.first += v.first;
  x = rotate(x + y + v.first + fetch64(s + 8), 37) * mul;
  y = rotate(y + v.second + fetch64(s + 48), 42) * mul;
  x ^= w.second * 9;
  y += v.first * 9 + fetch64(s + 40);
  z = rotate(z + w.first, 33) * mul;
  v = weak_hash_len32(s, v.second * mul, x + w.first);
  w = weak_hash_len32(s + 32, z + w.second, y + fetch64(s + 16));
  std::swap(z, x);
  return hash_len16(hash_len16(v.first, w.first, mul) + shift_mix(y) * k0 + z,
                    hash_len16(v.second, w.second, mul) + x, mul);
}

}  // namespace tfjsi::cpu
