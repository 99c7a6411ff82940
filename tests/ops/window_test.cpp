// ops::Window and ops::Window3D against cases worked by hand from TF.js's conv_util
// (computeConv2DInfo, computePool2DInfo, getPadAndOutInfo; computeConv3DInfo, computePool3DInfo,
// get3DPadAndOutInfo): SAME gives ceil(in / stride) outputs and splits its pad total with
// floor(total / 2) on top and left, the rest on bottom and right (in 3D the total is not clamped
// at 0: a window shorter than its stride pads negatively); VALID gives
// ceil((in - eff_k + 1) / stride); EXPLICIT gives trunc((in - eff_k + before + after) / stride +
// 1); eff_k = k + (k - 1) * (dilation - 1). Each expected value below is that arithmetic done by
// hand.
#include <QObject>
#include <QTest>
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "expect_error.h"
#include "graph/ir.h"
#include "ops/window.h"

using namespace tfjsi;

namespace {

using Ints = std::vector<std::int64_t>;

graph::Node node(std::string op, std::string padding, Ints strides, Ints dilations = {1, 1, 1, 1}) {
  graph::Node n;
  n.name = "net/" + op;
  n.op = std::move(op);
  n.attrs["padding"] = std::move(padding);
  n.attrs["strides"] = std::move(strides);
  n.attrs["dilations"] = std::move(dilations);
  return n;
}

graph::Node pool(std::string op, std::string padding, Ints ksize, Ints strides) {
  graph::Node n;
  n.name = "net/" + op;
  n.op = std::move(op);
  n.attrs["padding"] = std::move(padding);
  n.attrs["ksize"] = std::move(ksize);
  n.attrs["strides"] = std::move(strides);
  return n;
}

// out_h, out_w, top, bottom, left, right.
struct Want {
  std::int64_t out_h, out_w, top, bottom, left, right;
};

void expect(const ops::Window& w, const Want& want, const char* what) {
  const std::vector<std::int64_t> got{w.out_h,      w.out_w,    w.pad_top,
                                      w.pad_bottom, w.pad_left, w.pad_right};
  const std::vector<std::int64_t> exp{want.out_h,  want.out_w, want.top,
                                      want.bottom, want.left,  want.right};
  if (got != exp) {
    std::string msg = std::string(what) + ": got out/pads";
    for (auto v : got) msg += " " + std::to_string(v);
    msg += ", want";
    for (auto v : exp) msg += " " + std::to_string(v);
    QFAIL(msg.c_str());
  }
}

// out_d, out_h, out_w, then the pads front, back, top, bottom, left, right.
void expect3(const ops::Window3D& w, const Ints& want, const char* what) {
  const Ints got{w.out_d,   w.out_h,      w.out_w,    w.pad_front, w.pad_back,
                 w.pad_top, w.pad_bottom, w.pad_left, w.pad_right};
  if (got != want) {
    std::string msg = std::string(what) + ": got";
    for (auto v : got) msg += " " + std::to_string(v);
    msg += ", want";
    for (auto v : want) msg += " " + std::to_string(v);
    QFAIL(msg.c_str());
  }
}

graph::Node node3d(std::string op, std::string padding, Ints strides, Ints dilations = {}) {
  graph::Node n;
  n.name = "net/" + op;
  n.op = std::move(op);
  n.attrs["padding"] = std::move(padding);
  n.attrs["strides"] = std::move(strides);
  n.attrs["data_format"] = std::string("NDHWC");
  if (!dilations.empty()) n.attrs["dilations"] = std::move(dilations);
  return n;
}

}  // namespace

class WindowTest : public QObject {
  Q_OBJECT
 private slots:
  void same_odd_total_pads_bottom_and_right() {
    // H: in 5, k 4, s 1: out ceil(5/1) = 5, total (5-1)*1 + 4 - 5 = 3 -> top 1, bottom 2.
    // W: in 6, k 3, s 2: out ceil(6/2) = 3, total (3-1)*2 + 3 - 6 = 1 -> left 0, right 1.
    const auto w = ops::window(node("Conv2D", "SAME", {1, 1, 2, 1}), {1, 5, 6, 3}, {4, 3, 3, 8});
    expect(w, {5, 3, 1, 2, 0, 1}, "SAME odd totals");
    QCOMPARE(w.padding, ops::Padding::Same);
  }

  void same_even_total_splits_evenly() {
    // in 4x4, k 3x5, s 1: out 4x4, totals 2 and 4 -> 1/1 and 2/2.
    const auto w = ops::window(node("Conv2D", "SAME", {1, 1, 1, 1}), {2, 4, 4, 1}, {3, 5, 1, 1});
    expect(w, {4, 4, 1, 1, 2, 2}, "SAME even totals");
  }

  void same_with_dilation() {
    // k 2, d 3 -> eff 4; in 5, s 1: out 5, total 4 + 4 - 5 = 3 -> 1/2.
    // k 3, d 2 -> eff 5; in 6, s 1: out 6, total 5 + 5 - 6 = 4 -> 2/2.
    const auto w = ops::window(node("DepthwiseConv2dNative", "SAME", {1, 1, 1, 1}, {1, 3, 2, 1}),
                               {1, 5, 6, 4}, {2, 3, 4, 1});
    QCOMPARE(w.eff_k_h(), std::int64_t{4});
    QCOMPARE(w.eff_k_w(), std::int64_t{5});
    expect(w, {5, 6, 1, 2, 2, 2}, "SAME dilated");
  }

  void valid_with_dilation() {
    // k 3, d 3 -> eff 7; in 10, s 2: ceil((10-7+1)/2) = 2. k 3, d 2 -> eff 5; in 6, s 1: 2.
    const auto w = ops::window(node("_FusedConv2D", "VALID", {1, 2, 1, 1}, {1, 3, 2, 1}),
                               {1, 10, 6, 2}, {3, 3, 2, 4});
    expect(w, {2, 2, 0, 0, 0, 0}, "VALID dilated");
  }

  void stride_larger_than_kernel() {
    // SAME, in 7, k 1, s 4: out ceil(7/4) = 2, total (2-1)*4 + 1 - 7 = -2 -> no pads.
    // SAME, in 5, k 2, s 3: out 2, total 3 + 2 - 5 = 0.
    expect(ops::window(node("Conv2D", "SAME", {1, 4, 3, 1}), {1, 7, 5, 1}, {1, 2, 1, 1}),
           {2, 2, 0, 0, 0, 0}, "SAME stride > kernel");
    // VALID, in 8, k 2, s 3: ceil(7/3) = 3; in 7, k 2, s 3: ceil(6/3) = 2.
    expect(ops::window(node("Conv2D", "VALID", {1, 3, 3, 1}), {1, 8, 7, 1}, {2, 2, 1, 1}),
           {3, 2, 0, 0, 0, 0}, "VALID stride > kernel");
    // A pool: MaxPool 2x2 stride 3 on 8x7, SAME: out 3x3, totals (3-1)*3+2-8 = 0, 6+2-7 = 1.
    expect(ops::window(pool("MaxPool", "SAME", {1, 2, 2, 1}, {1, 3, 3, 1}), {1, 8, 7, 5}),
           {3, 3, 0, 0, 0, 1}, "MaxPool SAME stride > kernel");
  }

  void explicit_pads_as_given_and_truncated() {
    graph::Node n = node("Conv2D", "EXPLICIT", {1, 2, 2, 1});
    // Pairs per NHWC dimension: top 1, bottom 2, left 3, right 0.
    n.attrs["explicit_paddings"] = Ints{0, 0, 1, 2, 3, 0, 0, 0};
    // H: trunc((5 - 3 + 1 + 2) / 2 + 1) = trunc(3.5) = 3; W: trunc((6 - 3 + 3) / 2 + 1) = 4.
    const auto w = ops::window(n, {1, 5, 6, 2}, {3, 3, 2, 2});
    expect(w, {3, 4, 1, 2, 3, 0}, "EXPLICIT");
    QCOMPARE(w.padding, ops::Padding::Explicit);
    // A window that overhangs: trunc((1 - 3 + 0 + 1) / 2 + 1) = trunc(0.5) = 0.
    n.attrs["explicit_paddings"] = Ints{0, 0, 0, 1, 0, 1, 0, 0};
    expect(ops::window(n, {1, 1, 1, 2}, {3, 3, 2, 2}), {0, 0, 0, 1, 0, 1}, "EXPLICIT overhang");
  }

  void one_by_one_on_one_by_one() {
    expect(ops::window(node("Conv2D", "SAME", {1, 1, 1, 1}), {1, 1, 1, 3}, {1, 1, 3, 2}),
           {1, 1, 0, 0, 0, 0}, "1x1 SAME");
    expect(ops::window(node("Conv2D", "VALID", {1, 2, 2, 1}), {1, 1, 1, 3}, {1, 1, 3, 2}),
           {1, 1, 0, 0, 0, 0}, "1x1 VALID stride 2");
    expect(ops::window(pool("AvgPool", "SAME", {1, 1, 1, 1}, {1, 2, 2, 1}), {1, 1, 1, 3}),
           {1, 1, 0, 0, 0, 0}, "1x1 pool");
  }

  void valid_window_larger_than_input_is_empty() {
    expect(ops::window(node("Conv2D", "VALID", {1, 1, 1, 1}), {1, 2, 5, 1}, {3, 3, 1, 1}),
           {0, 3, 0, 0, 0, 0}, "VALID too small");
  }

  void pools_read_ksize_and_no_dilations() {
    graph::Node n = pool("AvgPool", "VALID", {1, 3, 2, 1}, {1, 2, 1, 1});
    n.attrs["dilations"] = Ints{1, 2, 2, 1};  // not a pool's attribute: TF.js uses 1
    const auto w = ops::window(n, {1, 7, 4, 1});
    QCOMPARE(w.k_h, std::int64_t{3});
    QCOMPARE(w.k_w, std::int64_t{2});
    QCOMPARE(w.dil_h, std::int64_t{1});
    // ceil((7 - 3 + 1) / 2) = 3, ceil((4 - 2 + 1) / 1) = 3.
    expect(w, {3, 3, 0, 0, 0, 0}, "AvgPool VALID");
  }

  void backprop_input_is_the_forward_window_without_dilations() {
    // TF.js's conv2dTranspose takes no dilations: the forward window of input_sizes 8x8, k 3, s 2.
    const auto w = ops::window(node("Conv2DBackpropInput", "SAME", {1, 2, 2, 1}, {1, 2, 2, 1}),
                               {1, 8, 8, 3}, {3, 3, 3, 4});
    QCOMPARE(w.dil_h, std::int64_t{1});
    // out ceil(8/2) = 4, total 3*2 + 3 - 8 = 1 -> 0/1.
    expect(w, {4, 4, 0, 1, 0, 1}, "Conv2DBackpropInput SAME");
  }

  void nchw_reads_its_own_order() {
    graph::Node n = node("Conv2D", "EXPLICIT", {1, 1, 2, 3});
    n.attrs["data_format"] = std::string("NCHW");
    n.attrs["explicit_paddings"] = Ints{0, 0, 0, 0, 2, 1, 0, 1};
    // H: in 9, k 3, s 2, pads 2/1: trunc((9 - 3 + 3) / 2 + 1) = 5; W: in 7, s 3, pads 0/1: 2.
    const auto w = ops::window(n, {1, 4, 9, 7}, {3, 3, 4, 2});
    QCOMPARE(w.format, ops::DataFormat::Nchw);
    QCOMPARE(w.stride_w, std::int64_t{3});
    expect(w, {5, 2, 2, 1, 0, 1}, "NCHW EXPLICIT");
  }

  void padding_is_read_without_case_as_tfjs_does() {
    expect(ops::window(node("Conv2D", "same", {1, 1, 1, 1}), {1, 5, 5, 1}, {4, 4, 1, 1}),
           {5, 5, 1, 2, 1, 2}, "lower-case same");
  }

  void two_value_strides_are_height_and_width() {
    expect(ops::window(node("Conv2D", "VALID", {2, 3}, {1, 1}), {1, 9, 9, 1}, {3, 3, 1, 1}),
           {4, 3, 0, 0, 0, 0}, "strides [2, 3]");
  }

  void conv1d_is_a_conv2d_of_height_one() {
    graph::Node n;
    n.name = "net/Conv1D";
    n.op = "Conv1D";
    n.attrs["padding"] = std::string("SAME");
    n.attrs["stride"] = std::int64_t{2};
    n.attrs["dilation"] = std::int64_t{2};
    n.attrs["data_format"] = std::string("NWC");
    // W: in 9, k 3, d 2 -> eff 5, s 2: out ceil(9/2) = 5, total 4*2 + 5 - 9 = 4 -> 2/2.
    const auto w = ops::window(n, {2, 9, 3}, {3, 3, 4});
    QCOMPARE(w.k_h, std::int64_t{1});
    QCOMPARE(w.in_h, std::int64_t{1});
    QCOMPARE(w.dil_w, std::int64_t{2});
    expect(w, {1, 5, 0, 0, 2, 2}, "Conv1D SAME");
    n.attrs["data_format"] = std::string("NCW");
    QCOMPARE(ops::data_format(n), ops::DataFormat::Nchw);
    n.attrs["data_format"] = std::string("NHWC");
    expect_error([&] { ops::data_format(n); }, {"net/Conv1D", "'data_format'", "NWC"});
    n.attrs["data_format"] = std::string("NWC");
    n.attrs["padding"] = std::string("EXPLICIT");
    expect_error([&] { ops::window(n, {2, 9, 3}, {3, 3, 4}); }, {"'padding'", "EXPLICIT"});
  }

  void dilation2d_rates_are_its_dilations() {
    graph::Node n;
    n.name = "net/Dilation2D";
    n.op = "Dilation2D";
    n.attrs["padding"] = std::string("VALID");
    n.attrs["strides"] = Ints{1, 2, 2, 1};
    n.attrs["rates"] = Ints{1, 2, 3, 1};
    // k 2, rate 2 -> eff 3; in 7, s 2: ceil((7-3+1)/2) = 3. k 2, rate 3 -> eff 4: ceil(4/2) = 2.
    const auto w = ops::window(n, {1, 7, 7, 2}, {2, 2, 2});
    QCOMPARE(w.dil_w, std::int64_t{3});
    expect(w, {3, 2, 0, 0, 0, 0}, "Dilation2D VALID");
  }

  void max_pool_with_argmax_is_a_pool() {
    // SAME, k 3, s 2 on 5x5: out 3, total 2*2 + 3 - 5 = 2 -> 1/1.
    expect(ops::window(pool("MaxPoolWithArgmax", "SAME", {1, 3, 3, 1}, {1, 2, 2, 1}), {2, 5, 5, 3}),
           {3, 3, 1, 1, 1, 1}, "MaxPoolWithArgmax SAME");
  }

  void window3d_same_with_strides() {
    // D: in 5, k 3, s 2: out 3, total 2*2 + 3 - 5 = 2 -> 1/1. H: in 6, k 2, s 2: out 3, total 0.
    // W: in 4, k 2, s 1: out 4, total 3 + 2 - 4 = 1 -> 0/1.
    const auto w =
        ops::window3d(node3d("Conv3D", "SAME", {1, 2, 2, 1, 1}), {2, 5, 6, 4, 3}, {3, 2, 2, 3, 2});
    expect3(w, {3, 3, 4, 1, 1, 0, 0, 0, 1}, "Conv3D SAME strided");
  }

  void window3d_same_shorter_than_stride_pads_negatively() {
    // D: in 6, k 1, s 2: out 3, total 2*2 + 1 - 6 = -1 -> floor(-1/2) = -1 before, 0 after.
    // H: in 5, k 3, s 2: out 3, total 4 + 3 - 5 = 2 -> 1/1. W: in 7, k 2, s 3: out 3, total
    // 6 + 2 - 7 = 1 -> 0/1.
    graph::Node p = node3d("MaxPool3D", "SAME", {1, 2, 2, 3, 1});
    p.attrs["ksize"] = Ints{1, 1, 3, 2, 1};
    expect3(ops::window3d(p, {2, 6, 5, 7, 3}), {3, 3, 3, -1, 0, 1, 1, 0, 1}, "MaxPool3D SAME");
    // k 1, s 3 on 6: out 2, total 3 + 1 - 6 = -2 -> -1/-1.
    expect3(
        ops::window3d(node3d("Conv3D", "SAME", {1, 3, 3, 3, 1}), {1, 6, 6, 6, 2}, {1, 1, 1, 2, 2}),
        {2, 2, 2, -1, -1, -1, -1, -1, -1}, "Conv3D SAME 1x1x1 stride 3");
  }

  void window3d_valid_with_dilations() {
    // D: k 2, d 2 -> eff 3, in 7: 5. H: k 3, d 1, in 5: 3. W: k 3, d 2 -> eff 5, in 9: 5.
    const auto w = ops::window3d(node3d("Conv3D", "VALID", {1, 1, 1, 1, 1}, {1, 2, 1, 2, 1}),
                                 {1, 7, 5, 9, 2}, {2, 3, 3, 2, 1});
    QCOMPARE(w.eff_k_d(), std::int64_t{3});
    expect3(w, {5, 3, 5, 0, 0, 0, 0, 0, 0}, "Conv3D VALID dilated");
    // AvgPool3D, VALID, k 2x3x2, s 1x2x1 on 4x6x5: 3, ceil((6-3+1)/2) = 2, 4.
    graph::Node p = node3d("AvgPool3D", "VALID", {1, 1, 2, 1, 1});
    p.attrs["ksize"] = Ints{1, 2, 3, 2, 1};
    expect3(ops::window3d(p, {1, 4, 6, 5, 2}), {3, 2, 4, 0, 0, 0, 0, 0, 0}, "AvgPool3D VALID");
  }

  void window3d_errors_name_node_and_attribute() {
    const Ints x{1, 4, 4, 4, 2}, f{2, 2, 2, 2, 2};
    graph::Node nc = node3d("Conv3D", "SAME", {1, 1, 1, 1, 1});
    nc.attrs["data_format"] = std::string("NCDHW");
    expect_error([&] { ops::window3d(nc, x, f); }, {"net/Conv3D", "'data_format'", "NDHWC"});
    expect_error(
        [&] {
          ops::window3d(node3d("Conv3D", "EXPLICIT", {1, 1, 1, 1, 1}), x, f);
        },
        {"net/Conv3D", "'padding'", "EXPLICIT"});
    expect_error(
        [&] {
          ops::window3d(node3d("Conv3D", "SAME", {1, 1, 1, 1}), x, f);
        },
        {"'strides'", "5 values"});
    expect_error(
        [&] {
          ops::window3d(node3d("Conv3D", "SAME", {1, 1, 1, 1, 1}), {4, 4, 4, 2}, f);
        },
        {"net/Conv3D", "rank 5"});
    graph::Node p = node3d("MaxPool3D", "VALID", {1, 1, 1, 1, 1});
    p.attrs["ksize"] = Ints{2, 2, 2, 2, 1};
    expect_error([&] { ops::window3d(p, x); }, {"net/MaxPool3D", "'ksize'", "[1, d, h, w, 1]"});
    QVERIFY(!ops::try_window3d(p, x));
  }

  void errors_name_node_and_attribute() {
    const Ints x{1, 6, 6, 2}, f{3, 3, 2, 2};
    expect_error(
        [&] {
          ops::window(node("Conv2D", "SAME", {1, 0, 1, 1}), x, f);
        },
        {"net/Conv2D", "'strides'"});
    expect_error(
        [&] {
          ops::window(node("Conv2D", "SAME", {1, 1, 1}), x, f);
        },
        {"net/Conv2D", "'strides'", "4 values"});
    expect_error(
        [&] {
          ops::window(node("Conv2D", "SAME", {1, 1, 1, 1}, {1, -1, 1, 1}), x, f);
        },
        {"net/Conv2D", "'dilations'"});
    expect_error(
        [&] {
          ops::window(node("Conv2D", "FULL", {1, 1, 1, 1}), x, f);
        },
        {"net/Conv2D", "'padding'", "FULL"});
    expect_error(
        [&] {
          ops::window(node("Conv2D", "EXPLICIT", {1, 1, 1, 1}), x, f);
        },
        {"net/Conv2D", "'explicit_paddings'"});
    graph::Node channel_pad = node("Conv2D", "EXPLICIT", {1, 1, 1, 1});
    channel_pad.attrs["explicit_paddings"] = Ints{0, 0, 1, 1, 1, 1, 1, 0};
    expect_error([&] { ops::window(channel_pad, x, f); }, {"'explicit_paddings'", "height"});
    expect_error(
        [&] {
          ops::window(pool("MaxPool", "EXPLICIT", {1, 2, 2, 1}, {1, 1, 1, 1}), x);
        },
        {"net/MaxPool", "'padding'", "EXPLICIT"});
    expect_error(
        [&] {
          ops::window(pool("MaxPool", "VALID", {1, 2, 2}, {1, 1, 1, 1}), x);
        },
        {"net/MaxPool", "'ksize'"});
    expect_error(
        [&] {
          ops::window(pool("AvgPool", "VALID", {2, 2, 2, 1}, {1, 1, 1, 1}), x);
        },
        {"net/AvgPool", "'ksize'", "[1, h, w, 1]"});
    graph::Node nchw_typo = node("Conv2D", "SAME", {1, 1, 1, 1});
    nchw_typo.attrs["data_format"] = std::string("HWCN");
    expect_error([&] { ops::window(nchw_typo, x, f); }, {"'data_format'", "HWCN"});
    expect_error(
        [&] {
          ops::window(node("Conv2D", "SAME", {1, 1, 1, 1}), x, {0, 3, 2, 2});
        },
        {"net/Conv2D", "empty"});
    expect_error(
        [&] {
          ops::window(node("Conv2D", "SAME", {1, 1, 1, 1}), {6, 6, 2}, f);
        },
        {"net/Conv2D", "rank 4"});
    QVERIFY(!ops::try_window(node("Conv2D", "FULL", {1, 1, 1, 1}), x, f));
    // Sizes only a corrupt file holds: kernels refuse them, naming the attribute; the attributes
    // alone still read (static shape inference works with them as they are).
    const graph::Node hostile = node("Conv2D", "VALID", {1, 1, 1, 1}, {1, 1 << 30, 1, 1});
    expect_error([&] { ops::window(hostile, x, f); }, {"net/Conv2D", "'dilations'"});
    QCOMPARE(ops::window_attrs(hostile).dil_h, std::int64_t{1} << 30);
  }
};

QTEST_GUILESS_MAIN(WindowTest)
#include "window_test.moc"
