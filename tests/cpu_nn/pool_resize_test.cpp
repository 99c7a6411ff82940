// MaxPool, AvgPool, ResizeBilinear and ResizeNearestNeighbor against loops written from the TF
// definitions.
#include <QObject>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <limits>

#include "nn_test_util.h"

using namespace tfjsi;
using namespace tfjsi::test;

namespace {

struct PoolCase {
  std::int64_t n, h, w, c, kh, kw, sh, sw;
  std::string padding;
};

graph::Node pool_node(const std::string& op, const PoolCase& k) {
  return make_node(op, {{"ksize", Ints{1, k.kh, k.kw, 1}},
                        {"strides", Ints{1, k.sh, k.sw, 1}},
                        {"padding", k.padding},
                        {"data_format", std::string("NHWC")}});
}

// Windows clipped to the input; the average is over the elements inside it.
std::vector<float> reference_pool(const PoolCase& k, const HostTensor& x, bool max, Shape& shape) {
  std::int64_t oh, ow, top = 0, left = 0;
  if (k.padding == "SAME") {
    oh = (k.h + k.sh - 1) / k.sh, ow = (k.w + k.sw - 1) / k.sw;
    top = std::max<std::int64_t>(0, (oh - 1) * k.sh + k.kh - k.h) / 2;
    left = std::max<std::int64_t>(0, (ow - 1) * k.sw + k.kw - k.w) / 2;
  } else {
    oh = (k.h - k.kh) / k.sh + 1, ow = (k.w - k.kw) / k.sw + 1;
  }
  shape = {k.n, oh, ow, k.c};
  auto xv = x.values<float>();
  std::vector<float> out;
  for (std::int64_t n = 0; n < k.n; ++n)
    for (std::int64_t y = 0; y < oh; ++y)
      for (std::int64_t xo = 0; xo < ow; ++xo)
        for (std::int64_t c = 0; c < k.c; ++c) {
          double sum = 0;
          float best = -std::numeric_limits<float>::infinity();
          int count = 0;
          for (std::int64_t i = 0; i < k.kh; ++i)
            for (std::int64_t j = 0; j < k.kw; ++j) {
              const std::int64_t iy = y * k.sh - top + i, ix = xo * k.sw - left + j;
              if (iy < 0 || iy >= k.h || ix < 0 || ix >= k.w) continue;
              const float v = xv[std::size_t(((n * k.h + iy) * k.w + ix) * k.c + c)];
              best = std::max(best, v);
              sum += v;
              ++count;
            }
          out.push_back(max ? best : float(sum / count));
        }
  return out;
}

struct ResizeCase {
  std::int64_t n, h, w, c, oh, ow;
  bool align, half;
};

graph::Node resize_node(const std::string& op, const ResizeCase& k) {
  return make_node(op, {{"align_corners", k.align}, {"half_pixel_centers", k.half}});
}

double scale_of(std::int64_t in, std::int64_t out, bool align) {
  return align && out > 1 ? double(in - 1) / double(out - 1) : double(in) / double(out);
}

std::vector<float> reference_bilinear(const ResizeCase& k, const HostTensor& x) {
  const double sy = scale_of(k.h, k.oh, k.align), sx = scale_of(k.w, k.ow, k.align);
  auto at = [&](std::int64_t n, std::int64_t y, std::int64_t xx, std::int64_t c) {
    return double(x.values<float>()[std::size_t(((n * k.h + y) * k.w + xx) * k.c + c)]);
  };
  auto src = [&](std::int64_t i, double s) { return k.half ? (i + 0.5) * s - 0.5 : i * s; };
  std::vector<float> out;
  for (std::int64_t n = 0; n < k.n; ++n)
    for (std::int64_t y = 0; y < k.oh; ++y)
      for (std::int64_t xo = 0; xo < k.ow; ++xo)
        for (std::int64_t c = 0; c < k.c; ++c) {
          const double fy = src(y, sy), fx = src(xo, sx);
          const std::int64_t y0 = std::max<std::int64_t>(0, std::int64_t(std::floor(fy)));
          const std::int64_t y1 = std::min<std::int64_t>(k.h - 1, std::int64_t(std::ceil(fy)));
          const std::int64_t x0 = std::max<std::int64_t>(0, std::int64_t(std::floor(fx)));
          const std::int64_t x1 = std::min<std::int64_t>(k.w - 1, std::int64_t(std::ceil(fx)));
          const double ly = fy - y0, lx = fx - x0;
          const double top = at(n, y0, x0, c) + (at(n, y0, x1, c) - at(n, y0, x0, c)) * lx;
          const double bot = at(n, y1, x0, c) + (at(n, y1, x1, c) - at(n, y1, x0, c)) * lx;
          out.push_back(float(top + (bot - top) * ly));
        }
  return out;
}

std::vector<float> reference_nearest(const ResizeCase& k, const HostTensor& x) {
  const double sy = scale_of(k.h, k.oh, k.align), sx = scale_of(k.w, k.ow, k.align);
  auto pick = [&](std::int64_t i, double s, std::int64_t in) {
    const double f = k.half ? (i + 0.5) * s : i * s;
    std::int64_t j = std::int64_t(k.align ? std::floor(f + 0.5) : std::floor(f));
    j = std::min(j, in - 1);
    return k.half ? std::max<std::int64_t>(j, 0) : j;
  };
  std::vector<float> out;
  for (std::int64_t n = 0; n < k.n; ++n)
    for (std::int64_t y = 0; y < k.oh; ++y)
      for (std::int64_t xo = 0; xo < k.ow; ++xo)
        for (std::int64_t c = 0; c < k.c; ++c)
          out.push_back(x.values<float>()[std::size_t(
              ((n * k.h + pick(y, sy, k.h)) * k.w + pick(xo, sx, k.w)) * k.c + c)]);
  return out;
}

const std::vector<ResizeCase>& resize_cases() {
  static const std::vector<ResizeCase> cases = {
      {1, 4, 4, 3, 8, 8, false, false},   {1, 4, 4, 3, 8, 8, true, false},
      {1, 4, 4, 3, 8, 8, false, true},    {2, 5, 7, 13, 7, 3, false, true},
      {1, 5, 7, 9, 7, 3, true, false},    {1, 5, 7, 9, 7, 3, false, false},
      {1, 6, 6, 2, 1, 1, true, false},    {1, 3, 5, 8, 9, 10, false, true},
      {1, 16, 16, 32, 3, 5, false, true}, {1, 1, 1, 4, 3, 3, false, false},
  };
  return cases;
}

}  // namespace

class PoolResizeTest : public QObject {
  Q_OBJECT

 private slots:
  void pool_hand_computed() {
    const HostTensor x = tensor({1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    const PoolCase k{1, 3, 3, 1, 2, 2, 1, 1, "SAME"};
    // Windows on the last row and column hold only 2 (or 1) real elements.
    EXPECT_CLOSE(run(pool_node("AvgPool", k), {x}), (Shape{1, 3, 3, 1}),
                 (std::vector<float>{3, 4, 4.5f, 6, 7, 7.5f, 7.5f, 8.5f, 9}), 1e-6f, "avg");
    EXPECT_CLOSE(run(pool_node("MaxPool", k), {x}), (Shape{1, 3, 3, 1}),
                 (std::vector<float>{5, 6, 6, 8, 9, 9, 8, 9, 9}), 1e-6f, "max");
    // TF.js's max skips NaN.
    const float nan = std::numeric_limits<float>::quiet_NaN();
    EXPECT_CLOSE(run(pool_node("MaxPool", {1, 1, 2, 1, 1, 2, 1, 1, "VALID"}),
                     {tensor({1, 1, 2, 1}, {nan, -1})}),
                 (Shape{1, 1, 1, 1}), (std::vector<float>{-1}), 0.f, "max nan");
  }

  void pool_random() {
    const std::vector<PoolCase> cases = {
        {1, 8, 8, 3, 2, 2, 2, 2, "VALID"}, {1, 8, 8, 16, 3, 3, 2, 2, "SAME"},
        {2, 7, 9, 13, 3, 3, 1, 1, "SAME"}, {1, 9, 9, 8, 3, 3, 2, 2, "VALID"},
        {1, 6, 10, 5, 5, 5, 1, 1, "SAME"}, {1, 5, 5, 33, 1, 1, 2, 2, "SAME"},
        {1, 7, 7, 4, 7, 7, 1, 1, "VALID"}, {1, 4, 6, 9, 2, 3, 3, 2, "SAME"},
    };
    std::uint32_t seed = 1;
    for (const PoolCase& k : cases) {
      const HostTensor x = random_tensor({k.n, k.h, k.w, k.c}, seed++);
      for (const bool max : {true, false}) {
        Shape shape;
        const auto want = reference_pool(k, x, max, shape);
        for (bool threaded : {false, true})
          EXPECT_CLOSE(run(pool_node(max ? "MaxPool" : "AvgPool", k), {x}, threaded), shape, want,
                       1e-5f,
                       std::string(max ? "max " : "avg ") + shape_to_string(x.shape) + " k" +
                           std::to_string(k.kh) + " s" + std::to_string(k.sh) + " " + k.padding);
      }
    }
  }

  void resize_hand_computed() {
    const HostTensor x = tensor({1, 2, 2, 1}, {0, 1, 2, 3});
    const ResizeCase k{1, 2, 2, 1, 3, 3, true, false};
    EXPECT_CLOSE(run(resize_node("ResizeBilinear", k), {x, int_tensor({2}, {3, 3})}),
                 (Shape{1, 3, 3, 1}), (std::vector<float>{0, 0.5f, 1, 1, 1.5f, 2, 2, 2.5f, 3}),
                 1e-6f, "align corners");
    // Without align_corners, 2 -> 4 samples at 0, 0.5, 1, 1.5 (clamped to the last pixel).
    const ResizeCase k2{1, 2, 2, 1, 4, 4, false, false};
    EXPECT_CLOSE(run(resize_node("ResizeBilinear", k2), {x, int_tensor({2}, {1, 4})}),
                 (Shape{1, 1, 4, 1}), (std::vector<float>{0, 0.5f, 1, 1}), 1e-6f, "legacy");
    EXPECT_CLOSE(run(resize_node("ResizeNearestNeighbor", k2), {x, int_tensor({2}, {4, 1})}),
                 (Shape{1, 4, 1, 1}), (std::vector<float>{0, 0, 2, 2}), 0.f, "nearest");
  }

  void resize_random() {
    std::uint32_t seed = 40;
    for (const ResizeCase& k : resize_cases()) {
      const HostTensor x = random_tensor({k.n, k.h, k.w, k.c}, seed++);
      const HostTensor size = int_tensor({2}, {std::int32_t(k.oh), std::int32_t(k.ow)});
      const Shape shape{k.n, k.oh, k.ow, k.c};
      const std::string label = shape_to_string(x.shape) + " -> " + std::to_string(k.oh) + "x" +
                                std::to_string(k.ow) + (k.align ? " align" : "") +
                                (k.half ? " half" : "");
      EXPECT_CLOSE(run(resize_node("ResizeBilinear", k), {x, size}), shape,
                   reference_bilinear(k, x), 1e-5f, "bilinear " + label);
      EXPECT_CLOSE(run(resize_node("ResizeNearestNeighbor", k), {x, size}), shape,
                   reference_nearest(k, x), 0.f, "nearest " + label);
    }
  }

  void nearest_keeps_int32() {
    const HostTensor x = int_tensor({1, 1, 2, 1}, {7, -3});
    const HostTensor out =
        run(resize_node("ResizeNearestNeighbor", {1, 1, 2, 1, 1, 4, false, false}),
            {x, int_tensor({2}, {1, 4})});
    QCOMPARE(out.dtype, DType::Int32);
    const auto v = out.values<std::int32_t>();
    QCOMPARE(std::vector<std::int32_t>(v.begin(), v.end()),
             (std::vector<std::int32_t>{7, 7, -3, -3}));
  }

  void bad_input_names_node() {
    const HostTensor x = random_tensor({1, 4, 4, 2}, 1);
    EXPECT_MODEL_ERROR(run(make_node("MaxPool", {{"ksize", Ints{1, 2, 2}},
                                                 {"strides", Ints{1, 1, 1, 1}},
                                                 {"padding", std::string("VALID")}}),
                           {x}),
                       "ksize");
    EXPECT_MODEL_ERROR(run(resize_node("ResizeBilinear", {}), {x, int_tensor({3}, {1, 2, 3})}),
                       "size");
    EXPECT_MODEL_ERROR(run(resize_node("ResizeBilinear", {}),
                           {random_tensor({4, 4, 2}, 1), int_tensor({2}, {2, 2})}),
                       "rank 4");
    EXPECT_MODEL_ERROR(run(resize_node("ResizeBilinear", {}), {x, int_tensor({2}, {-1, 2})}),
                       "test/ResizeBilinear");
  }
};

QTEST_GUILESS_MAIN(PoolResizeTest)
#include "pool_resize_test.moc"
