// GraphDef JSON attribute decoding and node input parsing, on hand-written snippets whose
// expected values are worked out by hand (base64 of known bytes, IEEE encodings).
#include "attr_decode_test.h"

#include <QtTest>
#include <cmath>
#include <limits>

#include "core/error.h"
#include "graph/attr_decode.h"
#include "graph/input_name.h"

using nlohmann::json;
using namespace tfjsi;
using namespace tfjsi::graph;
using namespace tfjsi::graph::detail;

namespace {

AttrValue attr(const char* text, std::string_view name = "x") {
  auto v = decode_attr(json::parse(text), name);
  if (!v) throw std::runtime_error(std::string("no value for ") + text);
  return *v;
}

template <class T>
T as(const AttrValue& v) {
  if (!std::holds_alternative<T>(v)) throw std::runtime_error("attribute has another type");
  return std::get<T>(v);
}

std::vector<float> floats(const HostTensor& t) {
  auto s = t.values<float>();
  return {s.begin(), s.end()};
}
std::vector<std::int32_t> ints(const HostTensor& t) {
  auto s = t.values<std::int32_t>();
  return {s.begin(), s.end()};
}

}  // namespace

void AttrDecodeTest::base64() {
  QCOMPARE(decode_base64("TkhXQw=="), std::string("NHWC"));
  QCOMPARE(decode_base64("U0FNRQ=="), std::string("SAME"));
  QCOMPARE(decode_base64("VkFMSUQ="), std::string("VALID"));
  QCOMPARE(decode_base64("AP8Q"), std::string("\x00\xff\x10", 3));
  QCOMPARE(decode_base64(""), std::string());
  QCOMPARE(decode_base64("aGk"), std::string("hi"));           // padding is optional
  QCOMPARE(decode_base64("_-8"), std::string("\xff\xef", 2));  // URL-safe alphabet
  QVERIFY_THROWS_EXCEPTION(ModelError, decode_base64("a*b="));
  QVERIFY_THROWS_EXCEPTION(ModelError, decode_base64("abcde"));
}

void AttrDecodeTest::scalars() {
  QCOMPARE(as<std::int64_t>(attr(R"({"i": "-5"})")), std::int64_t{-5});
  QCOMPARE(as<std::int64_t>(attr(R"({"i": 7})")), std::int64_t{7});
  QCOMPARE(as<std::int64_t>(attr(R"({"i": "9223372036854775807"})")),
           std::numeric_limits<std::int64_t>::max());
  QVERIFY_THROWS_EXCEPTION(ModelError, attr(R"({"i": "12abc"})"));
  QVERIFY_THROWS_EXCEPTION(ModelError, attr(R"({"i": 1.5})"));
  QVERIFY_THROWS_EXCEPTION(ModelError, attr(R"({"i": "99999999999999999999"})"));

  QCOMPARE(as<float>(attr(R"({"f": 0.1})")), 0.1f);
  QCOMPARE(as<float>(attr(R"({"f": 0})")), 0.0f);
  QVERIFY(std::isnan(as<float>(attr(R"({"f": "NaN"})"))));
  QCOMPARE(as<float>(attr(R"({"f": "Infinity"})")), std::numeric_limits<float>::infinity());
  QCOMPARE(as<float>(attr(R"({"f": "-Infinity"})")), -std::numeric_limits<float>::infinity());
  QCOMPARE(as<float>(attr(R"({"f": "2.5"})")), 2.5f);
  QVERIFY_THROWS_EXCEPTION(ModelError, attr(R"({"f": "fast"})"));

  QCOMPARE(as<bool>(attr(R"({"b": true})")), true);
  QCOMPARE(as<bool>(attr(R"({"b": false})")), false);
  QVERIFY_THROWS_EXCEPTION(ModelError, attr(R"({"b": "yes"})"));

  QCOMPARE(as<std::string>(attr(R"({"s": "TkhXQw=="})")), std::string("NHWC"));
  QCOMPARE(as<std::string>(attr(R"({"s": ""})")), std::string());
  QCOMPARE(as<std::string>(attr(R"({"s": "AP8Q"})")), std::string("\x00\xff\x10", 3));
}

void AttrDecodeTest::types() {
  QCOMPARE(as<TypeAttr>(attr(R"({"type": "DT_FLOAT"})")).tf, std::string("DT_FLOAT"));
  QCOMPARE(as<TypeAttr>(attr(R"({"type": 1})")).tf, std::string("DT_FLOAT"));
  QCOMPARE(as<TypeAttr>(attr(R"({"type": 9})")).tf, std::string("DT_INT64"));
  QCOMPARE(as<TypeAttr>(attr(R"({"type": 19})")).tf, std::string("DT_HALF"));
  QCOMPARE(as<TypeAttr>(attr(R"({"type": 21})")).tf, std::string("DT_VARIANT"));
  QVERIFY(as<TypeAttr>(attr(R"({"type": "DT_INT64"})")).dtype() == DType::Int32);
  QVERIFY(!as<TypeAttr>(attr(R"({"type": "DT_RESOURCE"})")).dtype());
  QVERIFY_THROWS_EXCEPTION(ModelError, attr(R"({"type": "float32"})"));
  QVERIFY_THROWS_EXCEPTION(ModelError, attr(R"({"type": 999})"));
}

void AttrDecodeTest::shapes() {
  const auto s = as<PartialShape>(
      attr(R"({"shape": {"dim": [{"size": "-1"}, {"size": "3"}, {}, {"size": 4}]}})"));
  QVERIFY(s.rank_known);
  QCOMPARE(s.dims, (std::vector<std::int64_t>{-1, 3, 0, 4}));  // a missing size is 0
  QCOMPARE(as<PartialShape>(attr(R"({"shape": {"unknownRank": true}})")), PartialShape::unknown());
  QCOMPARE(as<PartialShape>(attr(R"({"shape": {}})")), PartialShape::of({}));  // a scalar
  QVERIFY_THROWS_EXCEPTION(ModelError, attr(R"({"shape": {"dim": [{"size": "-7"}]}})"));
}

void AttrDecodeTest::func() {
  QCOMPARE(as<FuncAttr>(attr(R"({"func": {"name": "while_body_7", "attr": {}}})")).name,
           std::string("while_body_7"));
  QVERIFY_THROWS_EXCEPTION(ModelError, attr(R"({"func": {}})"));
}

void AttrDecodeTest::lists() {
  QCOMPARE(as<std::vector<std::int64_t>>(attr(R"({"list": {"i": ["1", "2", 3, "-4"]}})")),
           (std::vector<std::int64_t>{1, 2, 3, -4}));
  QCOMPARE(as<std::vector<float>>(attr(R"({"list": {"f": [0.5, "NaN", -2]}})")).size(),
           std::size_t{3});
  QCOMPARE(as<std::vector<float>>(attr(R"({"list": {"f": [0.5, "Infinity", -2]}})"))[1],
           std::numeric_limits<float>::infinity());
  QCOMPARE(as<std::vector<bool>>(attr(R"({"list": {"b": [true, false]}})")),
           (std::vector<bool>{true, false}));
  QCOMPARE(as<std::vector<std::string>>(attr(R"({"list": {"s": ["Qmlhc0FkZA==", "aGk="]}})")),
           (std::vector<std::string>{"BiasAdd", "hi"}));
  const auto types = as<std::vector<TypeAttr>>(attr(R"({"list": {"type": ["DT_INT32", 10]}})"));
  QCOMPARE(types.size(), std::size_t{2});
  QCOMPARE(types[1].tf, std::string("DT_BOOL"));
  const auto shapes = as<std::vector<PartialShape>>(
      attr(R"({"list": {"shape": [{"dim": [{"size": "2"}]}, {"unknownRank": true}]}})"));
  QCOMPARE(shapes.size(), std::size_t{2});
  QCOMPARE(shapes[0], PartialShape::of({2}));
  QCOMPARE(shapes[1], PartialShape::unknown());
  const auto tensors = as<std::vector<HostTensor>>(attr(
      R"({"list": {"tensor": [{"dtype": "DT_INT32", "tensorShape": {"dim": [{"size": "2"}]}, "intVal": [4, 5]}]}})"));
  QCOMPARE(tensors.size(), std::size_t{1});
  QCOMPARE(ints(tensors[0]), (std::vector<std::int32_t>{4, 5}));
  const auto funcs =
      as<std::vector<FuncAttr>>(attr(R"({"list": {"func": [{"name": "a"}, {"name": "b"}]}})"));
  QCOMPARE(funcs.size(), std::size_t{2});
  QCOMPARE(funcs[1].name, std::string("b"));

  // An empty list cannot say its element type; ints unless the attribute name says otherwise.
  QCOMPARE(as<std::vector<std::int64_t>>(attr(R"({"list": {}})", "explicit_paddings")).size(),
           std::size_t{0});
  QCOMPARE(as<std::vector<std::string>>(attr(R"({"list": {}})", "fused_ops")).size(),
           std::size_t{0});
  QCOMPARE(as<std::vector<TypeAttr>>(attr(R"({"list": {}})", "Tout")).size(), std::size_t{0});
  QCOMPARE(as<std::vector<PartialShape>>(attr(R"({"list": {}})", "_output_shapes")).size(),
           std::size_t{0});
  QVERIFY_THROWS_EXCEPTION(ModelError, attr(R"({"list": {"i": ["1"], "s": ["aGk="]}})"));
  QVERIFY(!decode_attr(json::parse(R"({"placeholder": "T"})"), "x"));
}

void AttrDecodeTest::tensor_content() {
  // float32 1.0, 2.0 little endian: 00 00 80 3f 00 00 00 40.
  auto t = as<HostTensor>(attr(
      R"({"tensor": {"dtype": "DT_FLOAT", "tensorShape": {"dim": [{"size": "2"}]}, "tensorContent": "AACAPwAAAEA="}})"));
  QVERIFY(t.dtype == DType::Float32);
  QCOMPARE(t.shape, (Shape{2}));
  QCOMPARE(floats(t), (std::vector<float>{1.0f, 2.0f}));
  // int64 -1, 5 narrow to int32.
  // (A plain literal: moc would take the slashes in a raw string for a comment.)
  t = as<HostTensor>(attr(
      "{\"tensor\": {\"dtype\": \"DT_INT64\", \"tensorShape\": {\"dim\": [{\"size\": \"2\"}]}, "
      "\"tensorContent\": \"//////////8FAAAAAAAAAA==\"}}"));
  QVERIFY(t.dtype == DType::Int32);
  QCOMPARE(ints(t), (std::vector<std::int32_t>{-1, 5}));
  // int32 7, -8, 9 as a [3,1] tensor.
  t = as<HostTensor>(attr(
      R"({"tensor": {"dtype": "DT_INT32", "tensorShape": {"dim": [{"size": "3"}, {"size": "1"}]}, "tensorContent": "BwAAAPj///8JAAAA"}})"));
  QCOMPARE(t.shape, (Shape{3, 1}));
  QCOMPARE(ints(t), (std::vector<std::int32_t>{7, -8, 9}));
  // float16 1.5 (0x3e00), -0.25 (0xb400).
  t = as<HostTensor>(attr(
      R"({"tensor": {"dtype": "DT_HALF", "tensorShape": {"dim": [{"size": "2"}]}, "tensorContent": "AD4AtA=="}})"));
  QVERIFY(t.dtype == DType::Float32);
  QCOMPARE(floats(t), (std::vector<float>{1.5f, -0.25f}));
  // bool 1, 0, 1.
  t = as<HostTensor>(attr(
      R"({"tensor": {"dtype": "DT_BOOL", "tensorShape": {"dim": [{"size": "3"}]}, "tensorContent": "AQAB"}})"));
  QVERIFY(t.dtype == DType::Bool);
  auto b = t.values<std::uint8_t>();
  QCOMPARE((std::vector<std::uint8_t>(b.begin(), b.end())), (std::vector<std::uint8_t>{1, 0, 1}));
  // Three bytes cannot be two floats.
  QVERIFY_THROWS_EXCEPTION(
      ModelError,
      attr(
          R"({"tensor": {"dtype": "DT_FLOAT", "tensorShape": {"dim": [{"size": "2"}]}, "tensorContent": "AQAB"}})"));
}

void AttrDecodeTest::tensor_typed_values() {
  // A single value fills the whole shape (TF's rule).
  auto t = as<HostTensor>(attr(
      R"({"tensor": {"dtype": "DT_FLOAT", "tensorShape": {"dim": [{"size": "2"}, {"size": "3"}]}, "floatVal": [7]}})"));
  QCOMPARE(floats(t), (std::vector<float>(6, 7.0f)));
  // Fewer values than elements: the last one repeats.
  t = as<HostTensor>(attr(
      R"({"tensor": {"dtype": "DT_INT32", "tensorShape": {"dim": [{"size": "4"}]}, "intVal": [1, 2]}})"));
  QCOMPARE(ints(t), (std::vector<std::int32_t>{1, 2, 2, 2}));
  // No values at all: zeros.
  t = as<HostTensor>(
      attr(R"({"tensor": {"dtype": "DT_INT32", "tensorShape": {"dim": [{"size": "3"}]}}})"));
  QCOMPARE(ints(t), (std::vector<std::int32_t>{0, 0, 0}));
  // A scalar (no tensorShape).
  t = as<HostTensor>(attr(R"({"tensor": {"dtype": "DT_FLOAT", "floatVal": ["-Infinity"]}})"));
  QCOMPARE(t.shape, Shape{});
  QCOMPARE(floats(t), (std::vector<float>{-std::numeric_limits<float>::infinity()}));
  // int64 values as decimal strings; INT64_MAX (a StridedSlice "to the end") saturates.
  t = as<HostTensor>(attr(
      R"({"tensor": {"dtype": "DT_INT64", "tensorShape": {"dim": [{"size": "2"}]}, "int64Val": ["-3", "9223372036854775807"]}})"));
  QCOMPARE(ints(t), (std::vector<std::int32_t>{-3, std::numeric_limits<std::int32_t>::max()}));
  t = as<HostTensor>(attr(
      R"({"tensor": {"dtype": "DT_BOOL", "tensorShape": {"dim": [{"size": "2"}]}, "boolVal": [true, false]}})"));
  QCOMPARE(t.values<std::uint8_t>()[0], std::uint8_t{1});
  QCOMPARE(t.values<std::uint8_t>()[1], std::uint8_t{0});
  t = as<HostTensor>(attr(R"({"tensor": {"dtype": "DT_DOUBLE", "doubleVal": [0.25]}})"));
  QCOMPARE(floats(t), (std::vector<float>{0.25f}));
  // halfVal holds the fp16 bits: 0x3c00 = 1.0, 0xc000 = -2.0, 0x7c00 = inf, 1 = 2^-24.
  t = as<HostTensor>(attr(
      R"({"tensor": {"dtype": "DT_HALF", "tensorShape": {"dim": [{"size": "4"}]}, "halfVal": [15360, 49152, 31744, 1]}})"));
  const auto h = floats(t);
  QCOMPARE(h[0], 1.0f);
  QCOMPARE(h[1], -2.0f);
  QCOMPARE(h[2], std::numeric_limits<float>::infinity());
  QCOMPARE(h[3], std::ldexp(1.0f, -24));
  // uint8 through intVal.
  t = as<HostTensor>(attr(R"({"tensor": {"dtype": "DT_UINT8", "intVal": [255]}})"));
  QCOMPARE(ints(t), (std::vector<std::int32_t>{255}));
  // Strings: base64 per element.
  t = as<HostTensor>(attr(
      R"({"tensor": {"dtype": "DT_STRING", "tensorShape": {"dim": [{"size": "2"}]}, "stringVal": ["aGk=", "AP8Q"]}})"));
  QVERIFY(t.dtype == DType::String);
  QCOMPARE((*t.strings)[0], std::string("hi"));
  QCOMPARE((*t.strings)[1], std::string("\x00\xff\x10", 3));
  // Enum number dtype, snake_case fields.
  t = as<HostTensor>(
      attr(R"({"tensor": {"dtype": 3, "tensor_shape": {"dim": [{"size": 2}]}, "int_val": [6]}})"));
  QCOMPARE(ints(t), (std::vector<std::int32_t>{6, 6}));
}

// complex64 elements as (real, imag) float pairs, from each way TF writes them.
void AttrDecodeTest::tensor_complex() {
  auto parts = [](const HostTensor& t) {
    const float* p = reinterpret_cast<const float*>(t.buffer->data());
    return std::vector<float>(p, p + 2 * t.num_elements());
  };
  // tensorContent: 1.5-2i, 0.25+4i as little-endian floats.
  auto t = as<HostTensor>(attr(
      R"({"tensor": {"dtype": "DT_COMPLEX64", "tensorShape": {"dim": [{"size": "2"}]}, "tensorContent": "AADAPwAAAMAAAIA+AACAQA=="}})"));
  QVERIFY(t.dtype == DType::Complex64);
  QCOMPARE(parts(t), (std::vector<float>{1.5f, -2.0f, 0.25f, 4.0f}));
  // scomplexVal lists the parts in turn; the last pair fills the shape.
  t = as<HostTensor>(attr(
      R"({"tensor": {"dtype": "DT_COMPLEX64", "tensorShape": {"dim": [{"size": "3"}]}, "scomplexVal": [1, 2, -3, 0.5]}})"));
  QCOMPARE(parts(t), (std::vector<float>{1, 2, -3, 0.5f, -3, 0.5f}));
  // complex128 narrows to complex64, as TF.js does: doubles 0.5, -1.
  t = as<HostTensor>(attr(
      R"({"tensor": {"dtype": "DT_COMPLEX128", "tensorContent": "AAAAAAAA4D8AAAAAAADwvw=="}})"));
  QVERIFY(t.dtype == DType::Complex64);
  QCOMPARE(parts(t), (std::vector<float>{0.5f, -1.0f}));
  // An odd count of parts is no list of pairs.
  QVERIFY_THROWS_EXCEPTION(
      ModelError, attr(R"({"tensor": {"dtype": "DT_COMPLEX64", "scomplexVal": [1, 2, 3]}})"));
  QVERIFY(as<TypeAttr>(attr(R"({"type": "DT_COMPLEX64"})")).dtype() == DType::Complex64);
}

void AttrDecodeTest::tensor_errors() {
  // More values than elements.
  QVERIFY_THROWS_EXCEPTION(
      ModelError,
      attr(
          R"({"tensor": {"dtype": "DT_INT32", "tensorShape": {"dim": [{"size": "1"}]}, "intVal": [1, 2]}})"));
  // Types TF.js cannot hold, unknown shapes, absurd sizes.
  QVERIFY_THROWS_EXCEPTION(ModelError, attr(R"({"tensor": {"dtype": "DT_VARIANT"}})"));
  QVERIFY_THROWS_EXCEPTION(ModelError, attr(R"({"tensor": {"tensorShape": {}}})"));
  QVERIFY_THROWS_EXCEPTION(
      ModelError,
      attr(R"({"tensor": {"dtype": "DT_FLOAT", "tensorShape": {"dim": [{"size": "-1"}]}}})"));
  QVERIFY_THROWS_EXCEPTION(
      ModelError,
      attr(
          R"({"tensor": {"dtype": "DT_FLOAT", "tensorShape": {"dim": [{"size": "100000"}, {"size": "100000"}, {"size": "100000"}]}, "floatVal": [1]}})"));
  QVERIFY(!tensor_has_content(
      json::parse(R"({"dtype": "DT_FLOAT", "tensorShape": {"dim": [{"size": "2"}]}})")));
  QVERIFY(tensor_has_content(json::parse(R"({"dtype": "DT_FLOAT", "floatVal": [1]})")));
}

void AttrDecodeTest::input_names() {
  auto in = parse_input_name("conv/Relu");
  QCOMPARE(in.node, std::string("conv/Relu"));
  QCOMPARE(in.output, 0);
  QVERIFY(!in.control);
  in = parse_input_name("split:3");
  QCOMPARE(in.node, std::string("split"));
  QCOMPARE(in.output, 3);
  in = parse_input_name("^init");
  QCOMPARE(in.node, std::string("init"));
  QVERIFY(in.control);
  in = parse_input_name("while/body:output:2");
  QCOMPARE(in.node, std::string("while/body"));
  QCOMPARE(in.output_arg, std::string("output"));
  QCOMPARE(in.output, 2);
  QVERIFY_THROWS_EXCEPTION(ModelError, parse_input_name(""));
  QVERIFY_THROWS_EXCEPTION(ModelError, parse_input_name("^"));
  QVERIFY_THROWS_EXCEPTION(ModelError, parse_input_name(":1"));
  QVERIFY_THROWS_EXCEPTION(ModelError, parse_input_name("a:x"));
  QVERIFY_THROWS_EXCEPTION(ModelError, parse_input_name("a:-1"));
  QVERIFY_THROWS_EXCEPTION(ModelError, parse_input_name("^a:1"));
  QVERIFY_THROWS_EXCEPTION(ModelError, parse_input_name("a::1"));
  QVERIFY_THROWS_EXCEPTION(ModelError, parse_input_name("a:99999999"));

  QCOMPARE(resolve_output_arg("TopKV2", "indices", 0), 1);
  QCOMPARE(resolve_output_arg("Switch", "output_true", 0), 1);
  QCOMPARE(resolve_output_arg("NonMaxSuppressionV5", "valid_outputs", 0), 2);
  QCOMPARE(resolve_output_arg("UniqueV2", "idx", 0), 1);
  QCOMPARE(resolve_output_arg("ListDiff", "idx", 0), 1);
  QCOMPARE(resolve_output_arg("Split", "output", 3), 3);
  QCOMPARE(resolve_output_arg("Mul", "z", 0), 0);
}

QTEST_GUILESS_MAIN(AttrDecodeTest)
