// Every corpus model loads, and what the loader reports matches an independent read of its
// model.json and shard bytes done here.
#include <QtTest>
#include <bit>
#include <cmath>
#include <cstring>
#include <map>

#include "bundle_files.h"
#include "model/bundle.h"
#include "support/test_support.h"

using nlohmann::json;
using tfjsi::model::Quantization;

namespace {

// The half-precision value of `h`, from the IEEE definition (not bit tricks).
float half_value(std::uint16_t h) {
  const int sign = h >> 15, exp = (h >> 10) & 31, mant = h & 1023;
  double v;
  if (exp == 0)
    v = std::ldexp(static_cast<double>(mant), -24);
  else if (exp == 31)
    v = mant ? std::nan("") : INFINITY;
  else
    v = std::ldexp(static_cast<double>(mant + 1024), exp - 25);
  return static_cast<float>(sign ? -v : v);
}

bool same_float(float a, float b) {
  return (std::isnan(a) && std::isnan(b)) ||
         std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}

std::uint64_t elements_of(const json& shape) {
  std::uint64_t n = 1;
  for (const auto& d : shape) n *= d.get<std::uint64_t>();
  return n;
}

}  // namespace

class CorpusBundleTest : public QObject {
  Q_OBJECT

 private slots:
  void loads_data() {
    QTest::addColumn<QString>("name");
    const auto names = QString(TFJSI_CORPUS_MODEL_NAMES).split(',', Qt::SkipEmptyParts);
    QCOMPARE(names.size(), qsizetype(41));
    for (const auto& n : names) QTest::newRow(n.toUtf8().constData()) << n;
  }

  void loads() {
    QFETCH(QString, name);
    try {
      check_model(name.toStdString());
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
  }

  // The corpus exercises borrowing and both dequantizations; counted over all models here so the
  // check holds even when loads() runs for a single row.
  void corpus_covers_borrowing_and_dequantization() {
    try {
      borrowed_seen_ = float16_checked_ = uint8_checked_ = 0;
      for (const auto& n : QString(TFJSI_CORPUS_MODEL_NAMES).split(',', Qt::SkipEmptyParts))
        check_model(n.toStdString());
    } catch (const std::exception& e) {
      QFAIL(e.what());
    }
    qInfo("borrowed weights: %d, float16 weights checked: %d, uint8 weights checked: %d",
          borrowed_seen_, float16_checked_, uint8_checked_);
    QVERIFY2(borrowed_seen_ > 0, "no corpus weight was borrowed from its mapping");
    QVERIFY(float16_checked_ > 0);
    QVERIFY(uint8_checked_ > 0);
  }

 private:
  int borrowed_seen_ = 0, float16_checked_ = 0, uint8_checked_ = 0;

  void check_model(const std::string& name) {
    const auto file = tfjsi::test::corpus_model(name);
    const json j = tfjsi::test::read_json(file);
    const auto b = tfjsi::model::load_bundle(file);

    QCOMPARE(b.model_json, file);
    QCOMPARE(b.kind, tfjsi::model::ModelKind::Graph);
    QCOMPARE(b.format, j.at("format").get<std::string>());
    QCOMPARE(b.generated_by, j.value("generatedBy", std::string()));
    QCOMPARE(b.converted_by, j.value("convertedBy", std::string()));
    QVERIFY(b.topology == j.at("modelTopology"));
    json signature = j.value("signature", json());
    if (j.contains("userDefinedMetadata") && j["userDefinedMetadata"].contains("signature"))
      signature = j["userDefinedMetadata"]["signature"];
    QVERIFY(b.signature == signature);
    QVERIFY(b.signature.is_object());  // every corpus model says what its inputs are

    // Independent read of the manifest.
    std::size_t count = 0;
    std::map<std::string, int> quantized;
    std::uint64_t on_disk = 0, decoded = 0;
    std::size_t shard_count = 0;
    for (const auto& g : j.at("weightsManifest")) {
      shard_count += g.at("paths").size();
      for (const auto& w : g.at("weights")) {
        ++count;
        const auto n = elements_of(w.at("shape"));
        const auto dtype = w.at("dtype").get<std::string>();
        decoded += n * (dtype == "bool" ? 1 : 4);
        if (w.contains("quantization")) {
          const auto q = w["quantization"]["dtype"].get<std::string>();
          ++quantized[q];
          on_disk += n * (q == "uint8" ? 1 : 2);
        } else {
          on_disk += n * (dtype == "bool" ? 1 : 4);
        }
      }
    }
    QCOMPARE(b.weights.size(), count);
    std::map<std::string, int> loaded_quantized;
    for (const auto& w : b.weights)
      if (w.quantization != Quantization::None)
        ++loaded_quantized[std::string(tfjsi::model::to_string(w.quantization))];
    QVERIFY(loaded_quantized == quantized);
    QCOMPARE(b.bytes_on_disk(), on_disk);
    QCOMPARE(b.bytes_decoded(), decoded);
    QCOMPARE(b.shards.size(), shard_count);

    std::uint64_t shard_bytes = 0;
    for (const auto& s : b.shards) {
      QCOMPARE(s.bytes, static_cast<std::uint64_t>(std::filesystem::file_size(s.path)));
      QCOMPARE(s.path.parent_path(), std::filesystem::canonical(file.parent_path()));
      shard_bytes += s.bytes;
    }
    QCOMPARE(shard_bytes, on_disk);  // converter output has no slack
    QVERIFY2(b.warnings.empty(), b.warnings.empty() ? "" : b.warnings.front().c_str());

    check_values(j, b);
  }

  // Compares decoded values with the raw bytes of the shards, read here.
  void check_values(const json& j, const tfjsi::model::Bundle& b) {
    std::size_t index = 0;
    for (std::size_t g = 0; g < j.at("weightsManifest").size(); ++g) {
      const auto& group = j["weightsManifest"][g];
      std::string raw;
      std::vector<std::uint64_t> shard_ends;
      for (const auto& p : group.at("paths")) {
        raw += tfjsi::test::read_file(b.dir / p.get<std::string>());
        shard_ends.push_back(raw.size());
      }
      std::uint64_t offset = 0;
      for (const auto& jw : group.at("weights")) {
        const auto& w = b.weights[index++];
        QCOMPARE(w.name, jw.at("name").get<std::string>());
        QCOMPARE(w.group, g);
        QCOMPARE(w.offset, offset);
        QCOMPARE(static_cast<std::uint64_t>(w.value.num_elements()), elements_of(jw.at("shape")));
        QCOMPARE(std::string(tfjsi::to_string(w.value.dtype)), jw.at("dtype").get<std::string>());
        const auto n = elements_of(jw.at("shape"));
        const char* at = raw.data() + offset;
        // Sample every 7th weight for the per-element comparison, to bound the run time.
        const bool sample = index % 7 == 1;
        if (jw.contains("quantization")) {
          const auto& q = jw["quantization"];
          const auto qd = q.at("dtype").get<std::string>();
          if (sample && qd == "float16") {
            const auto v = w.value.values<float>();
            for (std::uint64_t i = 0; i < n; ++i) {
              std::uint16_t h;
              std::memcpy(&h, at + 2 * i, 2);
              if (!same_float(v[i], half_value(h)))
                QFAIL(qPrintable(QString("%1[%2]").arg(w.name.c_str()).arg(i)));
            }
            ++float16_checked_;
          } else if (sample && qd == "uint8") {
            const double scale = q.at("scale").get<double>(), min = q.at("min").get<double>();
            const auto v = w.value.values<float>();
            for (std::uint64_t i = 0; i < n; ++i) {
              const auto qv = static_cast<unsigned char>(at[i]);
              if (!same_float(v[i], static_cast<float>(qv * scale + min)))
                QFAIL(qPrintable(QString("%1[%2]").arg(w.name.c_str()).arg(i)));
            }
            ++uint8_checked_;
          }
          QVERIFY(w.value.buffer->owned());
        } else {
          const std::uint64_t bytes = w.stored_bytes;
          QCOMPARE(bytes, n * (jw["dtype"] == "bool" ? 1 : 4));
          QVERIFY(std::memcmp(w.value.buffer->data(), at, bytes) == 0);
          // Whole in one shard and 4-aligned there: must be borrowed, not copied.
          std::uint64_t start = 0;
          bool one_shard = false;
          for (auto end : shard_ends) {
            if (offset >= start && offset + bytes <= end) one_shard = (offset - start) % 4 == 0;
            start = end;
          }
          if (jw["dtype"] != "bool" && one_shard && bytes > 0) {
            QVERIFY2(!w.value.buffer->owned(), w.name.c_str());
            ++borrowed_seen_;
          }
        }
        offset += w.stored_bytes;
      }
    }
  }
};

QTEST_GUILESS_MAIN(CorpusBundleTest)
#include "corpus_bundle_test.moc"
