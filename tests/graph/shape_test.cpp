// Static shape inference on hand-made graphs; every expected shape is worked out by hand from the
// op's definition (sizes, strides, padding, masks) in the comment next to it.
#include <QtTest>

#include "graph/build.h"

using nlohmann::json;
using namespace tfjsi;
using namespace tfjsi::graph;

namespace {

json node(std::string name, std::string op, std::vector<std::string> inputs = {},
          json attrs = json::object()) {
  json n = {{"name", name}, {"op", op}, {"attr", attrs}};
  if (!inputs.empty()) n["input"] = inputs;
  return n;
}

json dims_json(const std::vector<std::int64_t>& dims) {
  json d = json::array();
  for (auto x : dims) d.push_back({{"size", std::to_string(x)}});
  return {{"dim", d}};
}

json placeholder(std::string name, std::vector<std::int64_t> dims, const char* type = "DT_FLOAT") {
  return node(name, "Placeholder", {},
              {{"dtype", {{"type", type}}}, {"shape", {{"shape", dims_json(dims)}}}});
}

json ints(std::string name, std::vector<int> values, bool scalar = false) {
  json t = {{"dtype", "DT_INT32"}, {"intVal", values}};
  if (!scalar) t["tensorShape"] = dims_json({static_cast<std::int64_t>(values.size())});
  return node(name, "Const", {}, {{"dtype", {{"type", "DT_INT32"}}}, {"value", {{"tensor", t}}}});
}

// A float Const of the given shape: only the shape matters here.
json weights(std::string name, std::vector<std::int64_t> dims) {
  json t = {{"dtype", "DT_FLOAT"}, {"tensorShape", dims_json(dims)}, {"floatVal", {0.5}}};
  return node(name, "Const", {}, {{"dtype", {{"type", "DT_FLOAT"}}}, {"value", {{"tensor", t}}}});
}

json list_i(std::vector<int> v) {
  std::vector<std::string> s;
  for (int x : v) s.push_back(std::to_string(x));
  return {{"list", {{"i", s}}}};
}

json s_attr(const char* base64) {
  return {{"s", base64}};
}
const char* kSame = "U0FNRQ==";
const char* kValid = "VkFMSUQ=";
const char* kExplicit = "RVhQTElDSVQ=";
const char* kNchw = "TkNIVw==";
const json kFloat = {{"type", "DT_FLOAT"}};

json conv(std::string name, std::string op, std::string x, std::string f, std::vector<int> strides,
          const char* padding, std::vector<int> dilations = {1, 1, 1, 1}) {
  return node(name, op, {x, f},
              {{"T", kFloat},
               {"strides", list_i(strides)},
               {"padding", s_attr(padding)},
               {"dilations", list_i(dilations)}});
}

Graph build(json nodes) {
  model::Bundle b;
  b.topology = {{"node", nodes}};
  return build_graph(b);
}

const TensorInfo& out(const Graph& g, std::string_view name, std::size_t k = 0) {
  const int i = g.find(name);
  if (i < 0) throw std::runtime_error("no node " + std::string(name));
  const auto& outs = g.nodes[static_cast<std::size_t>(i)].outputs;
  if (k >= outs.size())
    throw std::runtime_error("no output " + std::to_string(k) + " of " + std::string(name));
  return outs[k];
}

PartialShape S(std::vector<std::int64_t> d) {
  return PartialShape::of(std::move(d));
}

}  // namespace

class ShapeTest : public QObject {
  Q_OBJECT
 private slots:
  // Issue #25 item 10: only -1 means "unknown"; other negative dims are bad values and are shown
  // in messages as they are (they used to print as "?", hiding the problem).
  void negative_dims_are_shown() {
    QCOMPARE(shape_to_string(Shape{-1, 3}), std::string("[?,3]"));
    QCOMPARE(shape_to_string(Shape{-7, 3}), std::string("[-7,3]"));
  }

  void convolutions_and_pools() {
    auto explicit_conv = conv("c_explicit", "Conv2D", "x", "f3", {1, 2, 2, 1}, kExplicit);
    explicit_conv["attr"]["explicit_paddings"] = list_i({0, 0, 1, 1, 1, 1, 0, 0});
    auto nchw = conv("c_nchw", "Conv2D", "xc", "f3", {1, 1, 2, 2}, kValid);
    nchw["attr"]["data_format"] = s_attr(kNchw);
    const Graph g = build({
        placeholder("x", {1, 224, 224, 3}),
        placeholder("xc", {2, 3, 64, 48}),
        weights("f3", {3, 3, 3, 32}),
        weights("dw", {3, 3, 32, 2}),
        weights("f5", {5, 5, 32, 8}),
        conv("c_same", "Conv2D", "x", "f3", {1, 2, 2, 1}, kSame),
        conv("c_valid", "Conv2D", "x", "f3", {1, 2, 2, 1}, kValid),
        explicit_conv,
        conv("c_dilated", "_FusedConv2D", "x", "f3", {1, 2, 2, 1}, kValid, {1, 2, 2, 1}),
        conv("dw_same", "DepthwiseConv2dNative", "c_same", "dw", {1, 1, 1, 1}, kSame),
        conv("dw_fused", "FusedDepthwiseConv2dNative", "c_same", "dw", {1, 2, 2, 1}, kSame),
        conv("c5_valid", "Conv2D", "c_same", "f5", {1, 3, 3, 1}, kValid),
        nchw,
        node("pool", "MaxPool", {"c_same"},
             {{"T", kFloat},
              {"ksize", list_i({1, 2, 2, 1})},
              {"strides", list_i({1, 2, 2, 1})},
              {"padding", s_attr(kValid)}}),
        node("avg", "AvgPool", {"c_valid"},
             {{"T", kFloat},
              {"ksize", list_i({1, 3, 3, 1})},
              {"strides", list_i({1, 2, 2, 1})},
              {"padding", s_attr(kSame)}}),
        ints("sizes", {1, 448, 448, 32}),
        node("deconv", "Conv2DBackpropInput", {"sizes", "f3", "c_same"},
             {{"T", kFloat}, {"strides", list_i({1, 2, 2, 1})}, {"padding", s_attr(kSame)}}),
    });
    QCOMPARE(out(g, "c_same").shape, S({1, 112, 112, 32}));      // ceil(224 / 2)
    QCOMPARE(out(g, "c_valid").shape, S({1, 111, 111, 32}));     // (224 - 3) / 2 + 1
    QCOMPARE(out(g, "c_explicit").shape, S({1, 112, 112, 32}));  // (224 + 2 - 3) / 2 + 1
    QCOMPARE(out(g, "c_dilated").shape, S({1, 110, 110, 32}));   // window 5: (224 - 5) / 2 + 1
    QCOMPARE(out(g, "dw_same").shape, S({1, 112, 112, 64}));     // 32 channels x multiplier 2
    QCOMPARE(out(g, "dw_fused").shape, S({1, 56, 56, 64}));
    QCOMPARE(out(g, "c5_valid").shape, S({1, 36, 36, 8}));  // (112 - 5) / 3 + 1
    QCOMPARE(out(g, "c_nchw").shape, S({2, 32, 31, 23}));   // (64-3)/2+1, (48-3)/2+1
    QCOMPARE(out(g, "pool").shape, S({1, 56, 56, 32}));
    QCOMPARE(out(g, "avg").shape, S({1, 56, 56, 32}));  // ceil(111 / 2)
    QCOMPARE(out(g, "deconv").shape, S({1, 448, 448, 32}));
    QVERIFY(out(g, "pool").dtype == DType::Float32);
  }

  void matmuls() {
    const Graph g = build({
        placeholder("a", {5, 7}),
        placeholder("bt", {9, 7}),
        placeholder("x", {2, 1, 3, 4}),
        placeholder("y", {5, 4, 6}),
        placeholder("yt", {5, 6, 4}),
        node("mm", "MatMul", {"a", "bt"}, {{"T", kFloat}, {"transpose_b", {{"b", true}}}}),
        node("fmm", "_FusedMatMul", {"bt", "a"}, {{"T", kFloat}, {"transpose_b", {{"b", true}}}}),
        node("bmm", "BatchMatMulV2", {"x", "y"}, {{"T", kFloat}}),
        node("bmm_adj", "BatchMatMulV2", {"x", "yt"}, {{"T", kFloat}, {"adj_y", {{"b", true}}}}),
    });
    QCOMPARE(out(g, "mm").shape, S({5, 9}));
    QCOMPARE(out(g, "fmm").shape, S({9, 5}));
    QCOMPARE(out(g, "bmm").shape, S({2, 5, 3, 6}));  // batch [2,1] x [5] -> [2,5]
    QCOMPARE(out(g, "bmm_adj").shape, S({2, 5, 3, 6}));
  }

  void broadcasting_and_dtypes() {
    const Graph g = build({
        placeholder("a", {8, 1, 6, 1}),
        placeholder("b", {7, 1, 5}),
        placeholder("u", {-1, 3}),
        placeholder("r", {}),
        placeholder("n", {2, 3}, "DT_INT32"),
        node("add", "AddV2", {"a", "b"}, {{"T", kFloat}}),
        node("mul_unknown", "Mul", {"u", "r"}, {{"T", kFloat}}),
        node("less", "Less", {"a", "b"}, {{"T", kFloat}}),
        node("cast", "Cast", {"n"}, {{"DstT", kFloat}, {"SrcT", {{"type", "DT_INT32"}}}}),
        node("sel", "Select", {"less", "add", "add"}, {{"T", kFloat}}),
        node("addn", "AddN", {"u", "u", "u"}, {{"T", kFloat}}),
    });
    QCOMPARE(out(g, "add").shape, S({8, 7, 6, 5}));  // NumPy's own example
    QCOMPARE(out(g, "mul_unknown").shape, S({-1, 3}));
    QVERIFY(out(g, "less").dtype == DType::Bool);
    QVERIFY(out(g, "cast").dtype == DType::Float32);
    QCOMPARE(out(g, "cast").shape, S({2, 3}));
    QCOMPARE(out(g, "sel").shape, S({8, 7, 6, 5}));
    QCOMPARE(out(g, "addn").shape, S({-1, 3}));
  }

  void reshape_and_shape_folding() {
    const Graph g = build({
        placeholder("x", {1, 56, 56, 32}),
        placeholder("dyn", {-1, 10}),
        ints("target", {1, -1, 32}),
        node("r", "Reshape", {"x", "target"}, {{"T", kFloat}}),
        // shape(x)[0] packed with -1 and 8: [1, -1, 8] -> 1*56*56*32 / 8 = 12544.
        node("shp", "Shape", {"x"}, {{"T", kFloat}, {"out_type", {{"type", "DT_INT32"}}}}),
        ints("b0", {0}),
        ints("e1", {1}),
        ints("s1", {1}),
        node("batch", "StridedSlice", {"shp", "b0", "e1", "s1"},
             {{"T", {{"type", "DT_INT32"}}},
              {"Index", {{"type", "DT_INT32"}}},
              {"shrink_axis_mask", {{"i", "1"}}}}),
        ints("m1", {-1}, true),
        ints("eight", {8}, true),
        node("packed", "Pack", {"batch", "m1", "eight"},
             {{"T", {{"type", "DT_INT32"}}}, {"N", {{"i", "3"}}}, {"axis", {{"i", "0"}}}}),
        node("r2", "Reshape", {"x", "packed"}, {{"T", kFloat}}),
        // Unknown input: -1 stays -1; the rank still follows the target.
        ints("t2", {-1, 5, 2}),
        node("r3", "Reshape", {"dyn", "t2"}, {{"T", kFloat}}),
        node("shp_dyn", "Shape", {"dyn"}, {{"T", kFloat}}),
        node("r4", "Reshape", {"dyn", "shp_dyn"}, {{"T", kFloat}}),
        node("size", "Size", {"x"}, {{"T", kFloat}}),
    });
    QCOMPARE(out(g, "r").shape, S({1, 3136, 32}));  // 56 * 56
    QCOMPARE(out(g, "shp").shape, S({4}));
    QCOMPARE(out(g, "batch").shape, S({}));
    QCOMPARE(out(g, "packed").shape, S({3}));
    QCOMPARE(out(g, "r2").shape, S({1, 12544, 8}));
    QCOMPARE(out(g, "r3").shape, S({-1, 5, 2}));
    QCOMPARE(out(g, "r4").shape, S({-1, -1}));
    QCOMPARE(out(g, "size").shape, S({}));
    QVERIFY(out(g, "size").dtype == DType::Int32);
  }

  void strided_slices() {
    auto ss = [](std::string name, std::string x, std::string b, std::string e, std::string s,
                 int bm, int em, int ell, int na, int sh) {
      return node(name, "StridedSlice", {x, b, e, s},
                  {{"T", kFloat},
                   {"Index", {{"type", "DT_INT32"}}},
                   {"begin_mask", {{"i", std::to_string(bm)}}},
                   {"end_mask", {{"i", std::to_string(em)}}},
                   {"ellipsis_mask", {{"i", std::to_string(ell)}}},
                   {"new_axis_mask", {{"i", std::to_string(na)}}},
                   {"shrink_axis_mask", {{"i", std::to_string(sh)}}}});
    };
    const Graph g = build({
        placeholder("x", {1, 10, 20, 3}),
        placeholder("v", {10}),
        ints("b1", {0, 2, 0}),
        ints("e1", {0, 8, 0}),
        ints("s1", {1, 2, 1}),
        // dim0 full (masks), dim1 2..8 step 2 -> 3, dim2 shrunk at 0, dim3 implicit -> 3.
        ss("a", "x", "b1", "e1", "s1", 1, 1, 0, 0, 4),
        ints("b2", {0, 0}),
        ints("e2", {0, 0}),
        ints("s2", {1, 1}),
        // ellipsis then a new axis at the end: [1,10,20,3,1].
        ss("b", "x", "b2", "e2", "s2", 0, 0, 1, 2, 0),
        ints("b3", {-1}),
        ints("e3", {0}),
        ints("sm1", {-1}),
        // reversed whole vector: begin -1 -> 9, end masked -> 10 elements.
        ss("c", "v", "b3", "e3", "sm1", 0, 1, 0, 0, 0),
        ints("b4", {-3}),
        ints("e4", {100}),
        ints("s4", {1}),
        // clamped: from 7 to the end -> 3.
        ss("d", "v", "b4", "e4", "s4", 0, 0, 0, 0, 0),
        ints("b5", {0, 0, 15}),
        ints("e5", {0, 0, 2}),
        ints("s5", {1, 1, -4}),
        // dim2 (20) from 15 down to (exclusive) 2 by -4: 15, 11, 7, 3 -> 4.
        ss("e", "x", "b5", "e5", "s5", 3, 3, 0, 0, 0),
        ints("b6", {0, 15}),
        ints("e6", {0, 2}),
        ints("s6", {1, -4}),
        // dim1 (10): begin 15 clamps to 9, then 9, 5 (3 would pass 2) -> 2.
        ss("f", "x", "b6", "e6", "s6", 1, 1, 0, 0, 0),
    });
    QCOMPARE(out(g, "a").shape, S({1, 3, 3}));
    QCOMPARE(out(g, "b").shape, S({1, 10, 20, 3, 1}));
    QCOMPARE(out(g, "c").shape, S({10}));
    QCOMPARE(out(g, "d").shape, S({3}));
    QCOMPARE(out(g, "e").shape, S({1, 10, 4, 3}));
    QCOMPARE(out(g, "f").shape, S({1, 2, 20, 3}));
  }

  void array_ops() {
    const Graph g = build({
        placeholder("x", {1, 8, 8, 16}),
        placeholder("y", {1, 8, 8, 4}),
        ints("axis3", {3}, true),
        ints("axis_m1", {-1}, true),
        ints("axis0", {0}, true),
        node("cat", "ConcatV2", {"x", "y", "axis_m1"}, {{"T", kFloat}, {"N", {{"i", "2"}}}}),
        node("split", "Split", {"axis3", "x"}, {{"T", kFloat}, {"num_split", {{"i", "4"}}}}),
        ints("sizes", {6, -1, 2}),
        node("splitv", "SplitV", {"x", "sizes", "axis3"},
             {{"T", kFloat}, {"num_split", {{"i", "3"}}}}),
        node("unpack", "Unpack", {"y"},
             {{"T", kFloat}, {"num", {{"i", "8"}}}, {"axis", {{"i", "1"}}}}),
        node("pack", "Pack", {"y", "y"},
             {{"T", kFloat}, {"N", {{"i", "2"}}}, {"axis", {{"i", "-1"}}}}),
        ints("perm", {0, 3, 1, 2}),
        node("tr", "Transpose", {"y", "perm"}, {{"T", kFloat}}),
        ints("pads", {0, 0, 1, 2, 3, 4, 0, 0}),
        node("pad", "Pad", {"x", "pads"}, {{"T", kFloat}}),
        ints("axes12", {1, 2}),
        node("mean_keep", "Mean", {"x", "axes12"}, {{"T", kFloat}, {"keep_dims", {{"b", true}}}}),
        node("sum", "Sum", {"x", "axes12"}, {{"T", kFloat}, {"keep_dims", {{"b", false}}}}),
        node("argmax", "ArgMax", {"x", "axis_m1"},
             {{"T", kFloat}, {"output_type", {{"type", "DT_INT32"}}}}),
        ints("size2", {32, 24}),
        node("resize", "ResizeBilinear", {"x", "size2"}, {{"T", kFloat}}),
        node("expand", "ExpandDims", {"y", "axis0"}, {{"T", kFloat}}),
        node("squeeze", "Squeeze", {"mean_keep"},
             {{"T", kFloat}, {"squeeze_dims", list_i({1, 2})}}),
        node("squeeze_all", "Squeeze", {"mean_keep"},
             {{"T", kFloat}, {"squeeze_dims", {{"list", json::object()}}}}),
        ints("mult", {2, 1, 1, 3}),
        node("tile", "Tile", {"y", "mult"}, {{"T", kFloat}}),
        ints("k", {5}, true),
        node("topk", "TopKV2", {"x", "k"}, {{"T", kFloat}}),
        ints("idx", {3, 1}),
        node("gather", "GatherV2", {"x", "idx", "axis3"}, {{"Tparams", kFloat}}),
        node("d2s", "DepthToSpace", {"x"}, {{"T", kFloat}, {"block_size", {{"i", "2"}}}}),
        ints("fill_dims", {2, 3}),
        weights("one", {}),
        node("fill", "Fill", {"fill_dims", "one"}, {{"T", kFloat}}),
        ints("r0", {0}, true),
        ints("r10", {10}, true),
        ints("r3", {3}, true),
        node("range", "Range", {"r0", "r10", "r3"}, {{"Tidx", {{"type", "DT_INT32"}}}}),
        node("mystery", "SomeCustomOp", {"x"}, {{"T", kFloat}}),
        node("uses_mystery", "Identity", {"mystery:2"}, {{"T", kFloat}}),
    });
    QCOMPARE(out(g, "cat").shape, S({1, 8, 8, 20}));
    QCOMPARE(g.nodes[static_cast<std::size_t>(g.find("split"))].outputs.size(), std::size_t{4});
    QCOMPARE(out(g, "split", 3).shape, S({1, 8, 8, 4}));
    QCOMPARE(out(g, "splitv", 1).shape, S({1, 8, 8, 8}));  // 16 - 6 - 2
    QCOMPARE(g.nodes[static_cast<std::size_t>(g.find("unpack"))].outputs.size(), std::size_t{8});
    QCOMPARE(out(g, "unpack", 7).shape, S({1, 8, 4}));
    QCOMPARE(out(g, "pack").shape, S({1, 8, 8, 4, 2}));
    QCOMPARE(out(g, "tr").shape, S({1, 4, 8, 8}));
    QCOMPARE(out(g, "pad").shape, S({1, 11, 15, 16}));
    QCOMPARE(out(g, "mean_keep").shape, S({1, 1, 1, 16}));
    QCOMPARE(out(g, "sum").shape, S({1, 16}));
    QCOMPARE(out(g, "argmax").shape, S({1, 8, 8}));
    QVERIFY(out(g, "argmax").dtype == DType::Int32);
    QCOMPARE(out(g, "resize").shape, S({1, 32, 24, 16}));
    QCOMPARE(out(g, "expand").shape, S({1, 1, 8, 8, 4}));
    QCOMPARE(out(g, "squeeze").shape, S({1, 16}));
    QCOMPARE(out(g, "squeeze_all").shape, S({16}));
    QCOMPARE(out(g, "tile").shape, S({2, 8, 8, 12}));
    QCOMPARE(out(g, "topk", 0).shape, S({1, 8, 8, 5}));
    QVERIFY(out(g, "topk", 1).dtype == DType::Int32);
    QCOMPARE(out(g, "gather").shape, S({1, 8, 8, 2}));
    QCOMPARE(out(g, "d2s").shape, S({1, 16, 16, 4}));
    QCOMPARE(out(g, "fill").shape, S({2, 3}));
    QCOMPARE(out(g, "range").shape, S({4}));  // 0, 3, 6, 9
    // An op no rule knows: never an error; as many outputs as the graph uses, shapes unknown.
    QCOMPARE(g.nodes[static_cast<std::size_t>(g.find("mystery"))].outputs.size(), std::size_t{3});
    QVERIFY(!out(g, "mystery").shape.rank_known);
    QVERIFY(out(g, "mystery").dtype == DType::Float32);
  }

  void hostile_attributes_stay_defined() {
    // Sizes a corrupt file might hold: results become unknown instead of overflowing, and no
    // op gets billions of outputs.
    const Graph g = build({
        placeholder("x", {1, 8, 8, 4}),
        ints("huge", {2000000000, 2000000000, 2000000000, 2000000000}),
        node("tile", "Tile", {"x", "huge"}, {{"T", kFloat}}),
        node("tile2", "Tile", {"tile", "huge"}, {{"T", kFloat}}),
        node("unpack", "Unpack", {"x"}, {{"T", kFloat}, {"num", {{"i", "9000000000000"}}}}),
        ints("axis0", {0}, true),
        node("split", "Split", {"axis0", "x"}, {{"T", kFloat}, {"num_split", {{"i", "-3"}}}}),
        node("d2s", "DepthToSpace", {"x"},
             {{"T", kFloat}, {"block_size", {{"i", "4611686018427387904"}}}}),
        ints("b", {0, 0}),
        ints("e", {0, 0}),
        ints("s", {1, 1}),
        node("two_ellipses", "StridedSlice", {"x", "b", "e", "s"},
             {{"T", kFloat}, {"ellipsis_mask", {{"i", "3"}}}}),
        weights("f", {3, 3, 4, 8}),
        conv("dilated", "Conv2D", "x", "f", {1, 1, 1, 1}, kValid, {1, 1 << 30, 1 << 30, 1}),
    });
    QCOMPARE(out(g, "tile").shape, S({2000000000, 16000000000, 16000000000, 8000000000}));
    // 2e9 * 2e9 = 4e18 still fits under 2^62 (4.6e18); 1.6e10 * 2e9 does not.
    QCOMPARE(out(g, "tile2").shape, S({4000000000000000000, -1, -1, -1}));
    QCOMPARE(g.nodes[static_cast<std::size_t>(g.find("unpack"))].outputs.size(), std::size_t{1});
    QCOMPARE(g.nodes[static_cast<std::size_t>(g.find("split"))].outputs.size(), std::size_t{1});
    QCOMPARE(out(g, "d2s").shape.rank(), 4);
    QCOMPARE(out(g, "two_ellipses").shape, S({1, 8, 8, 4}));
    QCOMPARE(out(g, "dilated").shape, S({1, 0, 0, 8}));  // the window is wider than the input
  }

  void multi_output_and_handles() {
    const Graph g = build({
        placeholder("boxes", {100, 4}),
        placeholder("scores", {100}),
        placeholder("p", {}, "DT_BOOL"),
        ints("max", {20}, true),
        weights("iou", {}),
        weights("thr", {}),
        weights("sigma", {}),
        node("nms", "NonMaxSuppressionV5", {"boxes", "scores", "max", "iou", "thr", "sigma"},
             {{"T", kFloat}, {"pad_to_max_output_size", {{"b", false}}}}),
        node("nms_pad", "NonMaxSuppressionV5", {"boxes", "scores", "max", "iou", "thr", "sigma"},
             {{"T", kFloat}, {"pad_to_max_output_size", {{"b", true}}}}),
        node("nms3", "NonMaxSuppressionV3", {"boxes", "scores", "max", "iou", "thr"},
             {{"T", kFloat}}),
        node("sw", "Switch", {"scores", "p"}, {{"T", kFloat}}),
        node("ta", "TensorArrayV3", {"max"},
             {{"dtype", kFloat}, {"element_shape", {{"shape", {{"unknownRank", true}}}}}}),
        ints("indices", {0, 1, 2}),
        node("gathered", "TensorArrayGatherV3", {"ta", "indices", "ta:1"},
             {{"dtype", kFloat}, {"element_shape", {{"shape", dims_json({4})}}}}),
        node("where", "Where", {"p"}, {{"T", {{"type", "DT_BOOL"}}}}),
        node("noop", "NoOp", {"^nms"}),
        node("after", "Identity", {"scores", "^noop"}),
    });
    const auto& nms = g.nodes[static_cast<std::size_t>(g.find("nms"))].outputs;
    QCOMPARE(nms.size(), std::size_t{3});
    QCOMPARE(nms[0].shape, S({-1}));
    QVERIFY(nms[1].dtype == DType::Float32);
    QCOMPARE(nms[2].shape, S({}));
    QCOMPARE(out(g, "nms_pad").shape, S({20}));
    QCOMPARE(g.nodes[static_cast<std::size_t>(g.find("nms3"))].outputs.size(), std::size_t{1});
    QCOMPARE(out(g, "sw", 1).shape, S({100}));
    QVERIFY(!out(g, "ta", 0).dtype);  // a handle, not a tensor
    QVERIFY(out(g, "ta", 1).dtype == DType::Float32);
    QCOMPARE(out(g, "gathered").shape, S({3, 4}));
    QCOMPARE(out(g, "where").shape, S({-1, 0}));
    QCOMPARE(g.nodes[static_cast<std::size_t>(g.find("noop"))].outputs.size(), std::size_t{0});
  }

  // Issue #26's scatter, search, set, counting ops and Einsum. Sizes that depend on the values
  // (Unique's distinct count, ListDiff's) are -1.
  void scatter_search_unique_bincount_einsum() {
    const json kInt = {{"type", "DT_INT32"}};
    const json equation = {{"s", "YmhxZCxiaGtkLT5iaHFr"}};  // "bhqd,bhkd->bhqk"
    const Graph g = build({
        placeholder("idx", {5, 2}, "DT_INT32"),
        placeholder("upd", {5, 7}),
        ints("shape", {4, 3, 7}),
        node("scatter", "ScatterNd", {"idx", "upd", "shape"}, {{"T", kFloat}}),
        placeholder("t", {4, 3, 7}),
        node("tsu", "TensorScatterUpdate", {"t", "idx", "upd"}, {{"T", kFloat}}),
        placeholder("sorted", {3, 10}),
        placeholder("vals", {3, 4}),
        placeholder("vec", {6}),
        node("lower", "LowerBound", {"sorted", "vals"}, {{"T", kFloat}}),
        node("upper_vec", "UpperBound", {"vec", "vec"}, {{"T", kFloat}}),  // TF.js: [1, 6]
        node("uniq", "Unique", {"vec"}, {{"T", kFloat}}),
        ints("axis_m1", {-1}),
        node("uniq2", "UniqueV2", {"t", "axis_m1"}, {{"T", kFloat}}),
        placeholder("ix", {9}, "DT_INT32"),
        node("diff", "ListDiff", {"ix", "ix"}, {{"T", kInt}}),
        ints("size", {5}, true),
        placeholder("nw", {0}),
        placeholder("ix2", {2, 9}, "DT_INT32"),
        node("bin", "Bincount", {"ix", "size", "nw"}, {{"T", kFloat}}),
        node("dense", "DenseBincount", {"ix2", "size", "nw"}, {{"T", kFloat}}),
        placeholder("q", {2, 8, 16, 64}),
        placeholder("k", {2, 8, 32, 64}),
        node("att", "Einsum", {"q", "k"}, {{"T", kFloat}, {"equation", equation}}),
    });
    QCOMPARE(out(g, "scatter").shape, S({4, 3, 7}));
    QVERIFY(out(g, "scatter").dtype == DType::Float32);  // the updates', not the indices'
    QCOMPARE(out(g, "tsu").shape, S({4, 3, 7}));
    QCOMPARE(out(g, "lower").shape, S({3, 4}));
    QVERIFY(out(g, "lower").dtype == DType::Int32);
    QCOMPARE(out(g, "upper_vec").shape, S({1, 6}));
    QCOMPARE(out(g, "uniq", 0).shape, S({-1}));
    QCOMPARE(out(g, "uniq", 1).shape, S({6}));
    QVERIFY(out(g, "uniq", 1).dtype == DType::Int32);
    QCOMPARE(out(g, "uniq2", 0).shape, S({4, 3, -1}));
    QCOMPARE(out(g, "uniq2", 1).shape, S({7}));
    QCOMPARE(out(g, "diff", 0).shape, S({-1}));
    QCOMPARE(out(g, "diff", 1).shape, S({-1}));
    QCOMPARE(out(g, "bin").shape, S({5}));
    QVERIFY(out(g, "bin").dtype == DType::Float32);  // the weights' type
    QCOMPARE(out(g, "dense").shape, S({2, 5}));
    QCOMPARE(out(g, "att").shape, S({2, 8, 16, 32}));
  }
};

QTEST_GUILESS_MAIN(ShapeTest)
#include "shape_test.moc"
