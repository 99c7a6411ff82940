// ops/attr.h, the one family of attribute readers: the forms each type accepts as model.json's
// importer gives them, and the contract of each reader for a missing attribute and for one of
// another form (required and defaulted readers throw ModelError naming node, op and attribute;
// checking readers never throw).
#include <QObject>
#include <QTest>
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "expect_error.h"
#include "graph/ir.h"
#include "ops/attr.h"

using namespace tfjsi;

namespace {

graph::Node node() {
  graph::Node n;
  n.name = "net/split";
  n.op = "Split";
  n.attrs["num_split"] = std::int64_t{3};
  n.attrs["alpha"] = 0.5f;
  n.attrs["two"] = 2.0f;
  n.attrs["half"] = 2.5f;
  n.attrs["flag"] = true;
  n.attrs["mode"] = std::string("REFLECT");
  n.attrs["empty"] = std::vector<float>{};  // an empty JSON list: the importer cannot type it
  n.attrs["dims"] = std::vector<std::int64_t>{1, 2};
  n.attrs["T"] = graph::TypeAttr{"DT_FLOAT"};
  n.attrs["Tbad"] = graph::TypeAttr{"DT_QINT8"};
  return n;
}

// Every error names the node and its op, then says what is wrong.
std::vector<std::string> naming(std::string what) {
  return {"node 'net/split' (Split): ", std::move(what)};
}

}  // namespace

class AttrTest : public QObject {
  Q_OBJECT

 private slots:
  void forms_model_json_gives() {
    const graph::Node n = node();
    QCOMPARE(ops::attr<std::int64_t>(n, "num_split"), std::int64_t{3});
    QCOMPARE(ops::attr<std::int64_t>(n, "two"), std::int64_t{2});  // an integral float
    QCOMPARE(ops::attr<float>(n, "num_split"), 3.f);               // an integer as a number
    QVERIFY(ops::attr<ops::Ints>(n, "empty").empty());
    QVERIFY(ops::attr<ops::Strings>(n, "empty").empty());
    QCOMPARE(ops::attr<ops::Ints>(n, "dims"), (ops::Ints{1, 2}));
    QCOMPARE(ops::attr<DType>(n, "T"), DType::Float32);
  }

  void required_throws_naming_node_and_attribute() {
    const graph::Node n = node();
    expect_error([&] { ops::attr<std::int64_t>(n, "axis"); },
                 naming("attribute 'axis' is missing"));
    expect_error([&] { ops::attr<std::int64_t>(n, "half"); }, naming("'half' must be an integer"));
    expect_error([&] { ops::attr<bool>(n, "num_split"); }, naming("'num_split' must be a boolean"));
    expect_error([&] { ops::attr<ops::Ints>(n, "mode"); },
                 naming("'mode' must be a list of integers"));
    expect_error([&] { ops::attr<DType>(n, "Tbad"); },
                 naming("'Tbad' has unsupported type DT_QINT8"));
  }

  void defaulted_gives_fallback_only_when_missing() {
    const graph::Node n = node();
    QCOMPARE(ops::attr<std::int64_t>(n, "axis", 7), std::int64_t{7});
    QCOMPARE(ops::attr<std::string>(n, "mode", "CONSTANT"), std::string("REFLECT"));
    expect_error([&] { ops::attr<float>(n, "mode", 1.f); }, naming("'mode' must be a number"));
  }

  void optional_is_empty_only_when_missing() {
    const graph::Node n = node();
    QVERIFY(!ops::optional_attr<bool>(n, "keep_dims"));
    QCOMPARE(*ops::optional_attr<bool>(n, "flag"), true);
    expect_error([&] { ops::optional_attr<std::string>(n, "flag"); },
                 naming("'flag' must be a string"));
  }

  void checking_never_throws() {
    const graph::Node n = node();
    QCOMPARE(*ops::try_attr<float>(n, "alpha", 0.2f), 0.5f);
    QCOMPARE(*ops::try_attr<float>(n, "beta", 0.2f), 0.2f);  // missing: the fallback
    QVERIFY(!ops::try_attr<float>(n, "mode", 0.2f));         // another form: nullopt
    QVERIFY(!ops::try_attr<std::int64_t>(n, "half"));
    QVERIFY(!ops::try_attr<DType>(n, "Tbad"));
    QVERIFY(!ops::try_attr<DType>(n, "missing"));
  }
};

QTEST_GUILESS_MAIN(AttrTest)
#include "attr_test.moc"
