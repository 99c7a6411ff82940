#include "io/npy.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "core/error.h"
#include "io/safe_write.h"
#include "model/limits.h"

namespace tfjsi::io {
namespace {

static_assert(std::endian::native == std::endian::little, "tfjsi assumes a little-endian host");

constexpr char kMagic[] = "\x93NUMPY";
// Files larger than this are refused before allocating: no real model input comes close.
constexpr std::uint64_t kMaxBytes = std::uint64_t{4} << 30;

[[noreturn]] void fail(const std::filesystem::path& file, const std::string& what) {
  throw ModelError(file.string() + ": " + what);
}

// The header is a Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (1, 224, 224, 3), }
// Only the three keys numpy writes are read; the parser is strict about their values.
struct Header {
  std::string descr;
  bool fortran = false;
  Shape shape;
};

std::string_view value_after(std::string_view dict, std::string_view key,
                             const std::filesystem::path& file) {
  const std::string quoted1 = "'" + std::string(key) + "'";
  const std::string quoted2 = "\"" + std::string(key) + "\"";
  auto pos = dict.find(quoted1);
  std::size_t len = quoted1.size();
  if (pos == std::string_view::npos) {
    pos = dict.find(quoted2);
    len = quoted2.size();
  }
  if (pos == std::string_view::npos)
    fail(file, "the .npy header has no '" + std::string(key) + "'");
  auto colon = dict.find(':', pos + len);
  if (colon == std::string_view::npos) fail(file, "malformed .npy header");
  auto v = dict.substr(colon + 1);
  while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
  return v;
}

Header parse_header(std::string_view dict, const std::filesystem::path& file) {
  Header h;
  auto d = value_after(dict, "descr", file);
  if (d.empty() || (d.front() != '\'' && d.front() != '"')) fail(file, "malformed 'descr'");
  const char q = d.front();
  auto end = d.find(q, 1);
  if (end == std::string_view::npos) fail(file, "malformed 'descr'");
  h.descr = std::string(d.substr(1, end - 1));

  auto f = value_after(dict, "fortran_order", file);
  if (f.starts_with("True"))
    h.fortran = true;
  else if (!f.starts_with("False"))
    fail(file, "malformed 'fortran_order'");

  auto s = value_after(dict, "shape", file);
  if (s.empty() || s.front() != '(') fail(file, "malformed 'shape'");
  auto close = s.find(')');
  if (close == std::string_view::npos) fail(file, "malformed 'shape'");
  std::string_view dims = s.substr(1, close - 1);
  while (!dims.empty()) {
    while (!dims.empty() && (dims.front() == ' ' || dims.front() == ',')) dims.remove_prefix(1);
    if (dims.empty()) break;
    std::int64_t v = 0;
    std::size_t i = 0;
    while (i < dims.size() && dims[i] >= '0' && dims[i] <= '9') {
      if (v > (std::numeric_limits<std::int64_t>::max() - 9) / 10) fail(file, "shape too large");
      v = v * 10 + (dims[i] - '0');
      ++i;
    }
    if (i == 0) fail(file, "malformed 'shape': '" + std::string(s.substr(0, close + 1)) + "'");
    while (i < dims.size() && dims[i] == 'L') ++i;  // Python 2 long suffix
    if (h.shape.size() == model::kMaxRank)
      fail(file, "shape has more dims than the limit of " + std::to_string(model::kMaxRank) +
                     " (kMaxRank)");
    h.shape.push_back(v);
    dims.remove_prefix(i);
  }
  return h;
}

template <class From>
void convert_to_float(const std::byte* src, float* dst, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    From v;
    std::memcpy(&v, src + i * sizeof(From), sizeof(From));
    dst[i] = static_cast<float>(v);
  }
}

template <class From>
void convert_to_int(const std::byte* src, std::int32_t* dst, std::size_t n,
                    const std::filesystem::path& file) {
  for (std::size_t i = 0; i < n; ++i) {
    From v;
    std::memcpy(&v, src + i * sizeof(From), sizeof(From));
    if constexpr (sizeof(From) > 4) {
      if (v < std::numeric_limits<std::int32_t>::min() ||
          v > std::numeric_limits<std::int32_t>::max())
        fail(file,
             "element " + std::to_string(i) + " (" + std::to_string(v) + ") does not fit in int32");
    }
    dst[i] = static_cast<std::int32_t>(v);
  }
}

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = (h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1f;
  const std::uint32_t mant = h & 0x3ff;
  if (exp == 0) {
    const float m = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -m : m;
  }
  std::uint32_t bits;
  if (exp == 31)
    bits = sign | 0x7f800000u | (mant << 13);
  else
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  return std::bit_cast<float>(bits);
}

}  // namespace

HostTensor read_npy(const std::filesystem::path& file, std::vector<std::string>* warnings) {
  // Opened without blocking (a FIFO would wait for a writer forever) and checked to be a regular
  // file before anything is read; the stream then reads that same open file.
  const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) fail(file, std::string("cannot open the .npy file: ") + std::strerror(errno));
  struct stat st {};
  const bool stat_ok = ::fstat(fd, &st) == 0;
  if (!stat_ok || !S_ISREG(st.st_mode)) {
    ::close(fd);
    if (stat_ok && S_ISDIR(st.st_mode)) fail(file, "is a directory, not a .npy file");
    fail(file, "is not a regular file (a FIFO, socket or device?); give a .npy file");
  }
  std::ifstream in("/proc/self/fd/" + std::to_string(fd), std::ios::binary);
  ::close(fd);
  if (!in) fail(file, "cannot open the .npy file");
  return read_npy(in, file, warnings);
}

HostTensor read_npy(std::istream& in, const std::filesystem::path& file,
                    std::vector<std::string>* warnings) {
  char magic[6];
  if (!in.read(magic, 6) || std::memcmp(magic, kMagic, 6) != 0)
    fail(file, "not a .npy file (no \\x93NUMPY magic)");
  unsigned char version[2];
  if (!in.read(reinterpret_cast<char*>(version), 2)) fail(file, "truncated .npy header");
  std::uint32_t header_len = 0;
  if (version[0] == 1) {
    unsigned char b[2];
    if (!in.read(reinterpret_cast<char*>(b), 2)) fail(file, "truncated .npy header");
    header_len = b[0] | (b[1] << 8);
  } else if (version[0] == 2 || version[0] == 3) {
    unsigned char b[4];
    if (!in.read(reinterpret_cast<char*>(b), 4)) fail(file, "truncated .npy header");
    header_len = b[0] | (b[1] << 8) | (b[2] << 16) | (std::uint32_t{b[3]} << 24);
    if (header_len > (1u << 20)) fail(file, ".npy header too long");
  } else {
    fail(file, "unsupported .npy format version " + std::to_string(version[0]));
  }
  std::string dict(header_len, '\0');
  if (!in.read(dict.data(), header_len)) fail(file, "truncated .npy header");
  const Header h = parse_header(dict, file);
  if (h.fortran) fail(file, "Fortran-order arrays are not supported; save with C order");

  struct Kind {
    const char* descr;
    std::size_t size;
    DType dtype;
  };
  static constexpr Kind kinds[] = {
      {"<f4", 4, DType::Float32}, {"<f2", 2, DType::Float32},   {"<f8", 8, DType::Float32},
      {"<i4", 4, DType::Int32},   {"<i8", 8, DType::Int32},     {"|u1", 1, DType::Int32},
      {"|i1", 1, DType::Int32},   {"<i2", 2, DType::Int32},     {"<u2", 2, DType::Int32},
      {"|b1", 1, DType::Bool},    {"<c8", 8, DType::Complex64}, {"<c16", 16, DType::Complex64}};
  const Kind* kind = nullptr;
  for (const auto& k : kinds)
    if (h.descr == k.descr) kind = &k;
  if (!kind)
    fail(file, "unsupported element type '" + h.descr +
                   "' (expected <f4, <f2, <f8, <i4, <i8, |u1, |i1, <i2, <u2, |b1, <c8 or <c16)");

  const auto n = checked_num_elements(h.shape);
  if (!n || static_cast<std::uint64_t>(*n) > kMaxBytes / kind->size)
    fail(file, "shape " + shape_to_string(h.shape) + " is too large");
  const std::size_t count = static_cast<std::size_t>(*n);
  // A header may claim gigabytes that the file does not hold: compare with what is left before
  // allocating for it.
  const auto data_start = in.tellg();
  if (data_start != std::istream::pos_type(-1) && in.seekg(0, std::ios::end)) {
    const auto left = static_cast<std::uint64_t>(in.tellg() - data_start);
    in.seekg(data_start);
    if (left < count * kind->size)
      fail(file, "truncated data: shape " + shape_to_string(h.shape) + " of " + h.descr +
                     " needs " + std::to_string(count * kind->size) + " bytes, the file holds " +
                     std::to_string(left));
    // As for weight shards: bytes past the data are not an error, but not what numpy writes.
    if (left > count * kind->size && warnings)
      warnings->push_back(file.string() + ": " + std::to_string(left - count * kind->size) +
                          " bytes after the array's data (shape " + shape_to_string(h.shape) +
                          " of " + h.descr + ") are ignored");
  }
  in.clear();
  std::vector<std::byte> raw(count * kind->size);
  if (!raw.empty() && !in.read(reinterpret_cast<char*>(raw.data()), raw.size()))
    fail(file, "truncated data: shape " + shape_to_string(h.shape) + " of " + h.descr + " needs " +
                   std::to_string(raw.size()) + " bytes");

  HostTensor t = HostTensor::zeros(kind->dtype, h.shape);
  const std::string d = h.descr;
  if (count == 0) {
    // An empty array: nothing to copy (memcpy from an empty vector's null data is UB).
  } else if (d == "<f4" || d == "<c8") {
    std::memcpy(t.buffer->mutable_data(), raw.data(), raw.size());
  } else if (d == "<c16") {  // (real, imag) doubles narrowed to complex64, as TF.js does
    convert_to_float<double>(raw.data(), reinterpret_cast<float*>(t.buffer->mutable_data()),
                             2 * count);
  } else if (d == "<f2") {
    auto out = t.mutable_values<float>();
    for (std::size_t i = 0; i < count; ++i) {
      std::uint16_t v;
      std::memcpy(&v, raw.data() + 2 * i, 2);
      out[i] = half_to_float(v);
    }
  } else if (d == "<f8") {
    convert_to_float<double>(raw.data(), t.mutable_values<float>().data(), count);
  } else if (d == "<i4") {
    std::memcpy(t.buffer->mutable_data(), raw.data(), raw.size());
  } else if (d == "<i8") {
    convert_to_int<std::int64_t>(raw.data(), t.mutable_values<std::int32_t>().data(), count, file);
  } else if (d == "|u1") {
    convert_to_int<std::uint8_t>(raw.data(), t.mutable_values<std::int32_t>().data(), count, file);
  } else if (d == "|i1") {
    convert_to_int<std::int8_t>(raw.data(), t.mutable_values<std::int32_t>().data(), count, file);
  } else if (d == "<i2") {
    convert_to_int<std::int16_t>(raw.data(), t.mutable_values<std::int32_t>().data(), count, file);
  } else if (d == "<u2") {
    convert_to_int<std::uint16_t>(raw.data(), t.mutable_values<std::int32_t>().data(), count, file);
  } else {  // |b1: normalize any non-zero byte to 1
    auto out = t.mutable_values<std::uint8_t>();
    for (std::size_t i = 0; i < count; ++i) out[i] = raw[i] != std::byte{0};
  }
  return t;
}

void write_npy(const std::filesystem::path& file, const HostTensor& tensor) {
  const char* descr = nullptr;
  switch (tensor.dtype) {
    case DType::Float32:
      descr = "<f4";
      break;
    case DType::Int32:
      descr = "<i4";
      break;
    case DType::Bool:
      descr = "|b1";
      break;
    case DType::String:
      throw std::runtime_error(file.string() + ": string tensors cannot be written as .npy");
    case DType::Complex64:
      descr = "<c8";  // numpy's complex64: (real, imag) float32 pairs, our own layout
      break;
  }
  // Python tuple syntax: "()", "(5,)", "(1, 224, 224, 3)".
  std::string shape = "(";
  for (std::size_t i = 0; i < tensor.shape.size(); ++i) {
    if (i) shape += ", ";
    shape += std::to_string(tensor.shape[i]);
  }
  if (tensor.shape.size() == 1) shape += ',';
  shape += ")";
  std::string dict =
      std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad with spaces so that magic + version + length + dict + '\n' is a multiple of 64 bytes.
  const std::size_t unpadded = 6 + 2 + 2 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  if (dict.size() > 65535)
    throw std::runtime_error(file.string() + ": shape too long for .npy 1.0");

  std::string bytes(kMagic, 6);
  bytes += {char{1}, char{0}};
  bytes += static_cast<char>(dict.size() & 0xff);
  bytes += static_cast<char>(dict.size() >> 8);
  bytes += dict;
  bytes.append(reinterpret_cast<const char*>(tensor.buffer->data()), tensor.byte_size());
  write_file_replacing(file, bytes);
}

}  // namespace tfjsi::io
