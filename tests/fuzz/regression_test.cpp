// Replays every saved fuzz input through its target: each must end normally (a ModelError is
// the expected outcome for most). A crash or an escaping exception of another type fails.
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_targets.h"
#include "support/test_support.h"

namespace fs = std::filesystem;

class FuzzRegressions : public QObject {
  Q_OBJECT

 private slots:
  void replay_data() {
    QTest::addColumn<QString>("target");
    QTest::addColumn<QString>("file");
    const fs::path root = tfjsi::test::source_dir() / "tests" / "fuzz";
    int found = 0;
    for (const char* kind : {"regressions", "seeds"}) {
      if (!fs::is_directory(root / kind)) continue;
      for (const auto& dir : fs::directory_iterator(root / kind)) {
        const auto target = dir.path().filename().string();
        QVERIFY2(tfjsi::fuzz::find_target(target),
                 ("unknown fuzz target folder " + target).c_str());
        for (const auto& f : fs::directory_iterator(dir.path())) {
          const auto row = std::string(kind) + "/" + target + "/" + f.path().filename().string();
          QTest::newRow(row.c_str())
              << QString::fromStdString(target) << QString::fromStdString(f.path().string());
          ++found;
        }
      }
    }
    QVERIFY2(found > 0, "no saved fuzz inputs found under tests/fuzz");
  }

  void replay() {
    QFETCH(QString, target);
    QFETCH(QString, file);
    std::ifstream in(file.toStdString(), std::ios::binary);
    QVERIFY(in);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto fn = tfjsi::fuzz::find_target(target.toStdString());
    QVERIFY(fn);
    QCOMPARE(fn(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), 0);
  }
};

QTEST_GUILESS_MAIN(FuzzRegressions)
#include "regression_test.moc"
