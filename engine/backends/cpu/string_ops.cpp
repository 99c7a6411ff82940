// String kernels with TF.js's cpu semantics (tfjs-backend-cpu's StaticRegexReplace, StringNGrams,
// StringSplit and StringToHashBucketFast): strings are byte strings, as TF.js holds them
// (Uint8Arrays), except where TF.js decodes them for a JS RegExp. String attributes are lowercased
// as TF.js's converter does (tfjs_string_attr).
#include <regex>
#include <vector>

#include "backends/cpu/fingerprint64.h"
#include "backends/cpu/tensor_util.h"
#include "ops/attr.h"

namespace tfjsi::cpu::tensor_ops {
namespace {

const HostTensor& string_input(const KernelContext& ctx, std::size_t i, std::string_view what) {
  require_inputs(ctx, i + 1);
  const HostTensor& t = ctx.inputs[i];
  if (t.dtype != DType::String)
    fail(ctx,
         std::string(what) + " must be a string tensor, got " + std::string(to_string(t.dtype)));
  return t;
}

// A string attribute as TF.js's kernels see it: the converter lowercases every string attribute
// it reads (operation_mapper's parseStringParam without keepCase), so a separator "L" or a
// pattern "[A-Z]" arrives as "l" and "[a-z]". We follow it, to give what TF.js gives; only ASCII
// letters are lowered (JS's toLowerCase lowers all of Unicode).
std::string tfjs_string_attr(const KernelContext& ctx, std::string_view key, std::string fallback) {
  std::string s = ops::attr<std::string>(ctx.node, key, std::move(fallback));
  for (char& ch : s)
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
  return s;
}

HostTensor strings_tensor(std::vector<std::string> values) {
  HostTensor t = HostTensor::zeros(DType::String, {static_cast<std::int64_t>(values.size())});
  *t.strings = std::move(values);
  return t;
}

HostTensor ints_tensor(Shape shape, const std::vector<std::int64_t>& values) {
  HostTensor t = HostTensor::zeros(DType::Int32, std::move(shape));
  auto o = t.mutable_values<std::int32_t>();
  for (std::size_t i = 0; i < values.size(); ++i) o[i] = static_cast<std::int32_t>(values[i]);
  return t;
}

// StringSplit's tokens of one string: at every byte found in `delimiters` (each byte on its own
// when there are none); an empty string has no tokens at all.
void split_one(std::string_view s, std::string_view delimiters, bool skip_empty,
               std::vector<std::string>& out) {
  if (s.empty()) return;
  if (delimiters.empty()) {
    for (char ch : s) out.emplace_back(1, ch);
    return;
  }
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i < s.size() && delimiters.find(s[i]) == std::string_view::npos) continue;
    if (!skip_empty || i > start) out.emplace_back(s.substr(start, i - start));
    start = i + 1;
  }
}

// StringNGrams' parameters and the ngrams of one row (TF's and TF.js's StringNGramsOp).
struct NGrams {
  std::string separator, left_pad, right_pad;
  std::vector<std::int64_t> widths;
  std::int64_t pad_width = -1;
  bool preserve_short = false;

  // Never wider than width - 1; negative: width - 1.
  std::int64_t pad_for(std::int64_t width) const {
    return std::min(pad_width < 0 ? width - 1 : pad_width, width - 1);
  }
  std::int64_t count(std::int64_t length, std::int64_t width) const {
    return std::max<std::int64_t>(0, length + 2 * pad_for(width) - width + 1);
  }
  // `n` ngrams of `width` over data[start, start + length), appended to out.
  void make(const KernelContext& ctx, const std::vector<std::string>& data, std::int64_t start,
            std::int64_t length, std::int64_t n, std::int64_t width,
            std::vector<std::string>& out) const {
    const std::int64_t pad = pad_for(width);
    for (std::int64_t k = 0; k < n; ++k) {
      const std::int64_t left = std::max<std::int64_t>(0, pad - k);
      const std::int64_t right = std::max<std::int64_t>(0, pad - (n - (k + 1)));
      const std::int64_t tokens = width - (left + right);
      const std::int64_t first = start + (left > 0 ? 0 : k - pad);
      if (tokens > 0 && (first < start || first + tokens > start + length))
        fail(ctx, "ngram " + std::to_string(k) + " of width " + std::to_string(width) +
                      " reaches past its row");
      std::string g;
      for (std::int64_t i = 0; i < left; ++i) g += left_pad, g += separator;
      for (std::int64_t i = 0; i + 1 < tokens; ++i)
        g += data[static_cast<std::size_t>(first + i)], g += separator;
      if (tokens > 0) {
        g += data[static_cast<std::size_t>(first + tokens - 1)];
        for (std::int64_t i = 0; i < right; ++i) g += separator, g += right_pad;
      } else {
        // Only padding: end with a pad, not a separator.
        for (std::int64_t i = 0; i + 1 < right; ++i) g += right_pad, g += separator;
        g += right_pad;
      }
      out.push_back(std::move(g));
    }
  }
};

}  // namespace

// StaticRegexReplace(input; pattern, rewrite, replace_global): TF.js runs JS's
// String.prototype.replace with new RegExp(pattern, global ? 'g' : ''). std::regex's ECMAScript
// grammar and format rules ($&, $1, $$, $`, $') are JS's, with these differences: it matches bytes
// where JS matches UTF-16 code units (so '.' or a class takes one byte of a multi-byte character),
// and it has no lookbehind, named groups ($<name>), \u{...} or the u/s flags. TF's own rewrite
// syntax (\1, RE2) is not JS's either; TF.js passes the rewrite to JS as it is.
std::vector<HostTensor> StaticRegexReplace(const KernelContext& ctx) {
  const HostTensor& x = string_input(ctx, 0, "input");
  const auto pattern = tfjs_string_attr(ctx, "pattern", "");
  const auto rewrite = tfjs_string_attr(ctx, "rewrite", "");
  const bool global = ops::attr<bool>(ctx.node, "replace_global", true);
  std::regex re;
  try {
    re = std::regex(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    fail(ctx,
         "pattern '" + pattern + "' is not a regular expression std::regex takes: " + e.what());
  }
  const auto flags =
      global ? std::regex_constants::format_default : std::regex_constants::format_first_only;
  HostTensor out = HostTensor::zeros(DType::String, x.shape);
  for (std::size_t i = 0; i < x.strings->size(); ++i) {
    try {
      (*out.strings)[i] = std::regex_replace((*x.strings)[i], re, rewrite, flags);
    } catch (const std::regex_error& e) {
      fail(ctx,
           "pattern '" + pattern + "' failed on element " + std::to_string(i) + ": " + e.what());
    }
  }
  return {out};
}

// StringNGrams(data [n], data_splits [rows + 1]; separator, ngram_widths, left_pad, right_pad,
// pad_width, preserve_short_sequences): the ngrams of each row of a ragged tensor, and their row
// splits.
std::vector<HostTensor> StringNGrams(const KernelContext& ctx) {
  const HostTensor& data_t = string_input(ctx, 0, "data");
  if (data_t.rank() != 1) fail(ctx, "data must be a vector, got " + shape_to_string(data_t.shape));
  const auto splits = read_ints(ctx, 1, "data_splits");
  NGrams op;
  op.separator = tfjs_string_attr(ctx, "separator", " ");
  op.widths = ops::attr<ops::Ints>(ctx.node, "ngram_widths");
  op.left_pad = tfjs_string_attr(ctx, "left_pad", "");
  op.right_pad = tfjs_string_attr(ctx, "right_pad", "");
  op.pad_width = ops::attr<std::int64_t>(ctx.node, "pad_width", -1);
  op.preserve_short = ops::attr<bool>(ctx.node, "preserve_short_sequences", false);
  for (auto w : op.widths)
    if (w <= 0) fail(ctx, "ngram_widths must be positive, got " + std::to_string(w));
  const auto& data = *data_t.strings;
  const auto size = static_cast<std::int64_t>(data.size());
  if (!splits.empty()) {
    if (splits[0] != 0) fail(ctx, "first split value must be 0, got " + std::to_string(splits[0]));
    for (std::size_t i = 1; i < splits.size(); ++i)
      if (splits[i] < splits[i - 1] || splits[i] > size)
        fail(ctx, "invalid split value " + std::to_string(splits[i]) + ", must be in [" +
                      std::to_string(splits[i - 1]) + ", " + std::to_string(size) + "]");
    if (splits.back() != size)
      fail(ctx, "last split value must be the data size " + std::to_string(size) + ", got " +
                    std::to_string(splits.back()));
  }
  const Shape splits_shape = ctx.inputs[1].shape;
  std::vector<std::int64_t> out_splits(splits.size(), 0);
  // No data or no splits: TF.js gives as many (empty) ngrams as data elements, zero splits.
  if (size == 0 || splits.empty())
    return {strings_tensor(std::vector<std::string>(data.size())),
            ints_tensor(splits_shape, out_splits)};
  std::vector<std::string> out;
  for (std::size_t r = 0; r + 1 < splits.size(); ++r) {
    const std::int64_t start = splits[r], length = splits[r + 1] - splits[r];
    const std::size_t before = out.size();
    for (auto w : op.widths) op.make(ctx, data, start, length, op.count(length, w), w, out);
    // A row too short for any ngram gives one of everything it has, padded.
    if (op.preserve_short && out.size() == before && length > 0)
      op.make(ctx, data, start, length, 1, length + 2 * op.pad_width, out);
    out_splits[r + 1] = static_cast<std::int64_t>(out.size());
  }
  return {strings_tensor(std::move(out)), ints_tensor(splits_shape, out_splits)};
}

// StringSplit(input [batch], delimiter (scalar); skip_empty): the tokens as a sparse
// [batch, max tokens] matrix: indices [n, 2], values [n], dense shape [2].
std::vector<HostTensor> StringSplit(const KernelContext& ctx) {
  const HostTensor& x = string_input(ctx, 0, "input");
  const HostTensor& delim = string_input(ctx, 1, "delimiter");
  if (x.rank() != 1) fail(ctx, "input must be a vector, got shape " + shape_to_string(x.shape));
  if (delim.rank() != 0)
    fail(ctx, "delimiter must be a scalar, got shape " + shape_to_string(delim.shape));
  const bool skip_empty = ops::attr<bool>(ctx.node, "skip_empty", true);
  std::vector<std::string> tokens;
  std::vector<std::int64_t> indices;
  std::int64_t widest = 0;
  for (std::size_t i = 0; i < x.strings->size(); ++i) {
    const std::size_t before = tokens.size();
    split_one((*x.strings)[i], (*delim.strings)[0], skip_empty, tokens);
    for (std::size_t j = before; j < tokens.size(); ++j) {
      indices.push_back(static_cast<std::int64_t>(i));
      indices.push_back(static_cast<std::int64_t>(j - before));
    }
    widest = std::max(widest, static_cast<std::int64_t>(tokens.size() - before));
  }
  const auto n = static_cast<std::int64_t>(tokens.size());
  return {ints_tensor({n, 2}, indices), strings_tensor(std::move(tokens)),
          ints_tensor({2}, {x.shape[0], widest})};
}

// StringToHashBucketFast(input; num_buckets): Fingerprint64 of each string's bytes, modulo
// num_buckets, stored as int32 (as TF.js's Int32Array takes the low 32 bits).
std::vector<HostTensor> StringToHashBucketFast(const KernelContext& ctx) {
  const HostTensor& x = string_input(ctx, 0, "input");
  const auto buckets = ops::attr<std::int64_t>(ctx.node, "num_buckets");
  if (buckets <= 0) fail(ctx, "num_buckets must be at least 1, got " + std::to_string(buckets));
  HostTensor out = HostTensor::uninitialized(DType::Int32, x.shape);
  auto o = out.mutable_values<std::int32_t>();
  for (std::size_t i = 0; i < x.strings->size(); ++i)
    o[i] = static_cast<std::int32_t>(static_cast<std::uint32_t>(
        fingerprint64((*x.strings)[i]) % static_cast<std::uint64_t>(buckets)));
  return {out};
}

}  // namespace tfjsi::cpu::tensor_ops
