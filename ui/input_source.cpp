#include "input_source.h"

#include <QFileInfo>
#include <QImage>
#include <algorithm>

#include "core/error.h"
#include "io/deterministic_input.h"
#include "io/npy.h"

namespace tfjsi::ui {
namespace {

std::string expected_text(const graph::Endpoint& e) {
  return e.shape.to_string() + " " + std::string(to_string(e.dtype.value_or(DType::Float32)));
}

HostTensor from_npy(const graph::Endpoint& e, const InputSpec& spec) {
  const std::string file = spec.path.toStdString();
  if (spec.path.isEmpty()) throw ModelError("input '" + e.name + "': no .npy file chosen");
  HostTensor t;
  try {
    t = io::read_npy(file);
  } catch (const ModelError& err) {
    throw ModelError("input '" + e.name + "': " + err.what());
  }
  const DType want = e.dtype.value_or(DType::Float32);
  if (!shape_fits(e.shape, t.shape) || t.dtype != want)
    throw ModelError("input '" + e.name + "': " + file + " holds " + shape_to_string(t.shape) +
                     " " + std::string(to_string(t.dtype)) + ", the model expects " +
                     expected_text(e));
  return t;
}

HostTensor from_image(const graph::Endpoint& e, const InputSpec& spec) {
  const std::string file = spec.path.toStdString();
  if (spec.path.isEmpty()) throw ModelError("input '" + e.name + "': no image file chosen");
  const int rank = e.shape.rank();
  if (rank != 3 && rank != 4)
    throw ModelError("input '" + e.name + "' is " + e.shape.to_string() +
                     ": an image needs [N,H,W,C] or [H,W,C]");
  const auto& d = e.shape.dims;
  const auto off = static_cast<std::size_t>(rank - 3);  // index of H
  const std::int64_t channels = d[off + 2] < 0 ? 3 : d[off + 2];
  if (channels != 1 && channels != 3 && channels != 4)
    throw ModelError("input '" + e.name + "' has " + std::to_string(channels) +
                     " channels: an image gives 1, 3 or 4");
  QImage img(spec.path);
  if (img.isNull())
    throw ModelError("input '" + e.name + "': " + file + " is not an image Qt can read");
  const std::int64_t h = d[off] < 0 ? img.height() : d[off];
  const std::int64_t w = d[off + 1] < 0 ? img.width() : d[off + 1];
  if (h <= 0 || w <= 0 || h > 16384 || w > 16384)
    throw ModelError("input '" + e.name + "': cannot make an image of " + std::to_string(h) + "x" +
                     std::to_string(w));
  if (img.width() != w || img.height() != h)
    img = img.scaled(static_cast<int>(w), static_cast<int>(h), Qt::IgnoreAspectRatio,
                     Qt::SmoothTransformation);
  img = img.convertToFormat(QImage::Format_RGBA8888);

  Shape shape = rank == 4 ? Shape{1, h, w, channels} : Shape{h, w, channels};
  const DType dtype = e.dtype.value_or(DType::Float32);
  if (dtype != DType::Float32 && dtype != DType::Int32)
    throw ModelError("input '" + e.name + "' holds " + std::string(to_string(dtype)) +
                     ": an image fills float32 or int32 inputs");
  HostTensor t = HostTensor::zeros(dtype, shape);
  auto value = [&](int byte) -> float {
    switch (spec.scale) {
      case ImageScale::Unit:
        return static_cast<float>(byte) / 255.0f;
      case ImageScale::Signed:
        return static_cast<float>(byte) / 127.5f - 1.0f;
      case ImageScale::Bytes:
        return static_cast<float>(byte);
    }
    return static_cast<float>(byte);
  };
  std::size_t k = 0;
  for (int y = 0; y < h; ++y) {
    const uchar* row = img.constScanLine(y);
    for (int x = 0; x < w; ++x) {
      const uchar* px = row + 4 * x;
      int vals[4] = {px[0], px[1], px[2], px[3]};
      if (channels == 1) vals[0] = (299 * px[0] + 587 * px[1] + 114 * px[2] + 500) / 1000;
      for (int c = 0; c < channels; ++c, ++k) {
        if (dtype == DType::Float32)
          t.mutable_values<float>()[k] = value(vals[c]);
        else
          t.mutable_values<std::int32_t>()[k] = vals[c];
      }
    }
  }
  return t;
}

}  // namespace

bool shape_fits(const PartialShape& declared, const Shape& shape) {
  if (!declared.rank_known) return true;
  if (declared.dims.size() != shape.size()) return false;
  for (std::size_t i = 0; i < shape.size(); ++i)
    if (declared.dims[i] >= 0 && declared.dims[i] != shape[i]) return false;
  return true;
}

HostTensor make_input(const graph::Endpoint& endpoint, const InputSpec& spec) {
  const DType dtype = endpoint.dtype.value_or(DType::Float32);
  switch (spec.kind) {
    case InputKind::Generator:
      if (dtype == DType::String)
        throw ModelError("input '" + endpoint.name + "' holds strings: give it as a .npy file");
      return io::deterministic_tensor(dtype, io::default_shape(endpoint.shape));
    case InputKind::Zeros:
      return HostTensor::zeros(dtype, io::default_shape(endpoint.shape));
    case InputKind::Npy:
      return from_npy(endpoint, spec);
    case InputKind::Image:
      return from_image(endpoint, spec);
  }
  throw ModelError("input '" + endpoint.name + "': unknown source");
}

runtime::NamedTensors make_inputs(const graph::Graph& graph, const std::vector<InputSpec>& specs) {
  runtime::NamedTensors inputs;
  for (const auto& e : graph.inputs) {
    InputSpec spec;
    spec.input = e.name;
    for (const auto& s : specs)
      if (s.input == e.name) spec = s;
    inputs[e.name] = make_input(e, spec);
  }
  return inputs;
}

}  // namespace tfjsi::ui
