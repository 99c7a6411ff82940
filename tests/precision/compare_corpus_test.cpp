// tfjsi compare over cpu, xnnpack and gl on one corpus model (the first argument), as a user runs
// it: every backend available here, every node within tolerance, so no divergent node and none
// wrong on its own inputs. gl sums exactly here (flag gl.exact_sums): its default fp32 sums round
// as TF.js webgl's do on llvmpipe and take blazepose-lite's segmentation past the tolerance, as
// they take TF.js webgl's (golden.gl.* hold that output to TF.js webgl's own error).
#include <QtTest>

#include "support/test_support.h"

using nlohmann::json;

namespace {
std::string g_model;
}

class CompareCorpusTest : public QObject {
  Q_OBJECT
 private slots:
  void no_divergence() {
    const auto path = tfjsi::test::corpus_model(g_model);
    const auto res =
        tfjsi::test::run_tfjsi({"compare", QString::fromStdString(path.string()), "--backends",
                                "cpu,xnnpack,gl", "--flag", "gl.exact_sums=true", "--json"},
                               600000);
    QVERIFY2(!res.crashed, res.err.constData());
    QVERIFY2(res.exit_code == 0, res.err.constData());
    const json j = res.json();
    QVERIFY(j.contains("first_divergent") && j.contains("nodes"));
    QCOMPARE(j["backends"].size(), std::size_t{2});
    for (const auto& b : j["backends"]) {
      QVERIFY2(b["available"].get<bool>(), b.dump().c_str());
      QVERIFY2(b["first_divergent"].is_null(), b.dump().c_str());
    }
    QVERIFY2(j["first_divergent"].is_null(), j["first_divergent"].dump().c_str());
    QVERIFY(j["nodes"].size() > 10);
    std::size_t compared = 0;
    for (const auto& n : j["nodes"]) {
      QVERIFY2(!n["isolated"].get<bool>(), n.dump().c_str());
      compared += n["backends"].size();
    }
    QVERIFY(compared > j["nodes"].size());  // both backends reported on most nodes
  }

  // Any backend as the reference (--reference): cpu measured against xnnpack, within tolerance.
  void xnnpackAsReference() {
    const auto path = tfjsi::test::corpus_model(g_model);
    const auto res =
        tfjsi::test::run_tfjsi({"compare", QString::fromStdString(path.string()), "--backends",
                                "cpu", "--reference", "xnnpack", "--json"},
                               600000);
    QVERIFY2(!res.crashed && res.exit_code == 0, res.err.constData());
    const json j = res.json();
    QCOMPARE(j["reference"].get<std::string>(), std::string("xnnpack"));
    QCOMPARE(j["backends"].size(), std::size_t{1});
    QCOMPARE(j["backends"][0]["backend"].get<std::string>(), std::string("cpu"));
    QVERIFY2(j["first_divergent"].is_null(), j["first_divergent"].dump().c_str());
    // A backend the engine does not have is a usage error naming it.
    const auto bad = tfjsi::test::run_tfjsi({"compare", QString::fromStdString(path.string()),
                                             "--backends", "cpu", "--reference", "tpu"});
    QCOMPARE(bad.exit_code, 2);
    QVERIFY2(bad.err.contains("'tpu'"), bad.err.constData());
  }
};

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: compare_corpus_test MODEL [QtTest options]\n");
    return 2;
  }
  g_model = argv[1];
  std::vector<char*> rest{argv[0]};
  for (int i = 2; i < argc; ++i) rest.push_back(argv[i]);
  CompareCorpusTest t;
  return QTest::qExec(&t, static_cast<int>(rest.size()), rest.data());
}

#include "compare_corpus_test.moc"
