#include "core/terminal_text.h"

#include <cstdint>

namespace tfjsi {
namespace {

void escape_byte(std::string& out, unsigned char b) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\x";
  out += kHex[b >> 4];
  out += kHex[b & 15];
}

// Length of the valid UTF-8 sequence at s[i] (1-4), or 0 if the bytes there are not one.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  std::size_t n = 0;
  std::uint32_t cp = 0;
  if (b >= 0xc2 && b <= 0xdf) {
    n = 2, cp = b & 0x1f;
  } else if (b >= 0xe0 && b <= 0xef) {
    n = 3, cp = b & 0x0f;
  } else if (b >= 0xf0 && b <= 0xf4) {
    n = 4, cp = b & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (c & 0x3f);
  }
  // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
      (cp >= 0xd800 && cp <= 0xdfff))
    return 0;
  return n;
}

std::string escape(std::string_view s, bool keep_lines) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      const bool control = b < 0x20 || b == 0x7f;
      if (control && !(keep_lines && (b == '\n' || b == '\t')))
        escape_byte(out, b);
      else
        out += static_cast<char>(b);
      ++i;
      continue;
    }
    const std::size_t n = utf8_length(s, i);
    // U+0080-U+009F (C1 controls) are 0xC2 0x80-0x9F.
    if (n == 0 || (n == 2 && b == 0xc2 && static_cast<unsigned char>(s[i + 1]) < 0xa0)) {
      for (std::size_t k = 0; k < (n ? n : 1); ++k)
        escape_byte(out, static_cast<unsigned char>(s[i + k]));
      i += n ? n : 1;
      continue;
    }
    out.append(s.substr(i, n));
    i += n;
  }
  return out;
}

}  // namespace

std::string terminal_safe(std::string_view text) {
  return escape(text, false);
}

std::string terminal_safe_lines(std::string_view text) {
  return escape(text, true);
}

}  // namespace tfjsi
