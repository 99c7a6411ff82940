#include "model/weight_decoder.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <sstream>

#include "model/dequantize.h"
#include "model/json_fields.h"

namespace tfjsi::model {
namespace {

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}
std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

class GroupDecoder {
 public:
  GroupDecoder(const std::filesystem::path& model_json, const ManifestGroup& group,
               std::size_t index, const ShardSequence& data)
      : file_(model_json), group_(group), index_(index), data_(data) {}

  Weight decode(const WeightSpec& spec, std::uint64_t offset) {
    Weight w;
    w.name = spec.name;
    w.shape = spec.shape;
    w.dtype = spec.dtype;
    w.quantization = spec.quantization;
    w.scale = spec.scale;
    w.min = spec.min;
    w.group = index_;
    w.offset = offset;
    if (spec.dtype == DType::String) {
      w.value = decode_strings(spec, offset, w.stored_bytes);
      return w;
    }
    w.stored_bytes = spec.fixed_bytes;
    require(spec, offset, spec.fixed_bytes);
    const auto n = static_cast<std::size_t>(spec.elements);
    const auto bytes = static_cast<std::size_t>(spec.fixed_bytes);
    switch (spec.quantization) {
      case Quantization::None:
        w.value = spec.dtype == DType::Bool ? decode_bool(spec, offset, n)
                                            : decode_plain(spec, offset, bytes);
        break;
      case Quantization::Float16: {
        const auto src = stored(offset, bytes);
        auto t = HostTensor::zeros(DType::Float32, spec.shape);
        dequantize_float16(src.bytes(), t.mutable_values<float>());
        w.value = std::move(t);
        break;
      }
      case Quantization::Uint8:
      case Quantization::Uint16: {
        const auto src = stored(offset, bytes);
        auto t = HostTensor::zeros(spec.dtype, spec.shape);
        if (spec.dtype == DType::Int32)
          dequantize_affine(src.bytes(), spec.stored_element_size, spec.scale, spec.min,
                            t.mutable_values<std::int32_t>());
        else
          dequantize_affine(src.bytes(), spec.stored_element_size, spec.scale, spec.min,
                            t.mutable_values<float>());
        if (spec.dtype == DType::Float32) require_finite(spec, t);
        w.value = std::move(t);
        break;
      }
    }
    return w;
  }

 private:
  // A uint8/uint16 value times scale plus min that does not fit in a float32 became +-inf: the
  // quantization parameters are damaged (quantizing finite floats never gives them), and every
  // output it reaches would be inf or NaN. Stored infinities (float32, float16) are another
  // matter: real models hold -inf on purpose (faceboxes' score threshold, nanodet's PadV2 value).
  void require_finite(const WeightSpec& spec, const HostTensor& t) const {
    const auto v = t.values<float>();
    for (std::size_t j = 0; j < v.size(); ++j)
      if (!std::isfinite(v[j])) {
        std::ostringstream s;
        s.precision(9);
        s << "weight '" << spec.name << "': dequantized element " << j << " of " << v.size()
          << " is " << v[j] << " (its stored value times scale " << spec.scale << " plus min "
          << spec.min << " does not fit in float32); the quantization parameters are damaged";
        fail_model(file_, s.str());
      }
  }

  // Stored bytes of one weight: a view into its shard, or a copy when they straddle shards.
  struct Stored {
    std::optional<ShardSequence::View> view;
    std::vector<std::byte> copy;
    std::span<const std::byte> bytes() const {
      return view ? view->bytes : std::span<const std::byte>(copy);
    }
  };

  Stored stored(std::uint64_t offset, std::size_t bytes) const {
    Stored s;
    if (bytes == 0) return s;
    s.view = data_.contiguous(offset, bytes);
    if (!s.view) {
      s.copy.resize(bytes);
      data_.copy(offset, s.copy);
    }
    return s;
  }

  HostTensor decode_plain(const WeightSpec& spec, std::uint64_t offset, std::size_t bytes) const {
    if (bytes > 0) {
      const auto view = data_.contiguous(offset, bytes);
      // Borrow only what typed views can read in place: aligned for a 4-byte element.
      if (view && reinterpret_cast<std::uintptr_t>(view->bytes.data()) % alignof(float) == 0)
        return HostTensor::wrap(spec.dtype, spec.shape,
                                Buffer::borrow(view->owner, view->bytes.data(), bytes));
    }
    auto buffer = Buffer::allocate(bytes);
    if (bytes) data_.copy(offset, {buffer->mutable_data(), bytes});
    return HostTensor::wrap(spec.dtype, spec.shape, std::move(buffer));
  }

  HostTensor decode_bool(const WeightSpec& spec, std::uint64_t offset, std::size_t n) const {
    auto t = HostTensor::zeros(DType::Bool, spec.shape);
    if (n) {
      auto v = t.mutable_values<std::uint8_t>();
      data_.copy(offset, std::as_writable_bytes(v));
      for (auto& b : v) b = b != 0;  // TF.js keeps the byte; our bool is strictly 0 or 1
    }
    return t;
  }

  HostTensor decode_strings(const WeightSpec& spec, std::uint64_t offset,
                            std::uint64_t& stored_bytes) const {
    const std::uint64_t avail = offset <= data_.size() ? data_.size() - offset : 0;
    // Every element takes at least its 4-byte length: refuse before allocating anything big.
    if (spec.elements > avail / 4) require(spec, offset, saturating_mul(spec.elements, 4));
    auto strings = std::make_shared<std::vector<std::string>>();
    strings->reserve(static_cast<std::size_t>(spec.elements));
    std::uint64_t pos = offset;
    for (std::uint64_t i = 0; i < spec.elements; ++i) {
      require(spec, offset, pos - offset + 4);
      std::uint32_t len;
      data_.copy(pos, std::as_writable_bytes(std::span(&len, 1)));
      pos += 4;
      require(spec, offset, pos - offset + len);
      std::string s(len, '\0');
      if (len) data_.copy(pos, std::as_writable_bytes(std::span(s.data(), s.size())));
      pos += len;
      strings->push_back(std::move(s));
    }
    stored_bytes = pos - offset;
    HostTensor t;
    t.dtype = DType::String;
    t.shape = spec.shape;
    t.strings = std::move(strings);
    t.buffer = Buffer::allocate(0);
    return t;
  }

  // Fails unless the weight's bytes [offset, offset + bytes) lie within the group's shards.
  void require(const WeightSpec& spec, std::uint64_t offset, std::uint64_t bytes) const {
    const std::uint64_t size = data_.size();
    if (offset <= size && bytes <= size - offset) return;
    const std::string where = "weight '" + spec.name + "' (" + std::string(to_string(spec.dtype)) +
                              " " + shape_to_string(spec.shape) + ", group " +
                              std::to_string(index_) + ")";
    if (group_.paths.empty())
      fail_model(file_, where + " needs " + std::to_string(bytes) + " bytes but weightsManifest[" +
                            std::to_string(index_) + "] lists no weight files");
    const std::string& last = group_.paths.back();
    fail_model(file_, "weight file '" + last + "' is too short: " + where +
                          " runs off its end: it needs bytes " + std::to_string(offset) + ".." +
                          std::to_string(saturating_add(offset, bytes)) +
                          " of the group but its files hold " + std::to_string(size) + " bytes");
  }

  const std::filesystem::path& file_;
  const ManifestGroup& group_;
  std::size_t index_;
  const ShardSequence& data_;
};

}  // namespace

std::uint64_t decode_group(const std::filesystem::path& model_json, const ManifestGroup& group,
                           std::size_t group_index, const ShardSequence& data,
                           std::vector<Weight>& out) {
  GroupDecoder decoder(model_json, group, group_index, data);
  std::uint64_t offset = 0;
  for (const auto& spec : group.weights) {
    out.push_back(decoder.decode(spec, offset));
    offset += out.back().stored_bytes;
  }
  return offset;
}

}  // namespace tfjsi::model
