// `tfjsi quantize` as a user runs it (issue #23): the bundle it writes follows
// tensorflowjs_converter's quantization, computed here again from the converter's formulas
// (tfjs-converter python: quantization.py, write_weights.py), not from our output; --keep-float
// leaves weights float32 byte for byte; shards are cut at 4 MiB; bad input is refused with the
// contract's exit codes; --advise measures what it promises.
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <set>

#include "io/npy.h"
#include "model/bundle.h"
#include "quantize_cli.h"
#include "support/test_support.h"

using nlohmann::ordered_json;
namespace fs = std::filesystem;
using tfjsi::test::q;
using tfjsi::test::tfjsi_ok;

namespace {

std::vector<char> read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

ordered_json read_json(const fs::path& p) {
  const auto bytes = read_file(p);
  return ordered_json::parse(bytes.begin(), bytes.end());
}

// NumPy's round: halves to the even neighbour. Written with floor, not nearbyint, to stay apart
// from the implementation under test.
double round_half_even(double t) {
  const double f = std::floor(t);
  const double d = t - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return std::fmod(f, 2.0) == 0 ? f : f + 1;
}

// The converter's uint8/uint16 quantization of one weight (quantization.py, float64 maths).
struct Affine {
  double scale = 1, min = 0;
  std::vector<std::uint32_t> q;
  bool nudged = false;
};
Affine converter_affine(const std::vector<float>& x, std::uint32_t qmax) {
  Affine a;
  double mn = INFINITY, mx = -INFINITY;
  for (float v : x) mn = std::min(mn, double(v)), mx = std::max(mx, double(v));
  a.q.assign(x.size(), 0);
  if (mn == mx) {
    a.min = mn;
    return a;
  }
  a.scale = (mx - mn) / qmax;
  double lo = mn, hi = mx;
  if (mn <= 0 && 0 <= mx) {
    const double zero = round_half_even(-mn / a.scale);
    lo = -zero * a.scale;
    hi = qmax * a.scale + lo;
    a.nudged = true;
  }
  a.min = lo;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double c = std::min(std::max(double(x[i]), lo), hi);
    a.q[i] = static_cast<std::uint32_t>(round_half_even((c - lo) / a.scale));
  }
  return a;
}

// A half's value by the format's definition (sign, 5-bit exponent, 10-bit fraction): the
// expected bits come from neither the engine nor a compiler's half type (clang 14 has none on
// x86).
float half_value(std::uint16_t b) {
  const int e = (b >> 10) & 31, f = b & 1023;
  const float magnitude = e == 0 ? std::ldexp(float(f), -24) : std::ldexp(float(1024 + f), e - 25);
  return (b & 0x8000) ? -magnitude : magnitude;
}

// The half nearest to v, ties to an even fraction, inf from 65520 on (IEEE's rounding).
std::uint16_t half_bits(float v) {
  const std::uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  const float a = std::fabs(v);
  if (std::isnan(v)) return 0x7e00;
  if (a >= 65520.f) return sign | 0x7c00;
  // Positive halves ascend with their bits: the largest finite one not above a, by bisection.
  std::uint16_t lo = 0, hi = 0x7bff;
  while (lo < hi) {
    const auto mid = static_cast<std::uint16_t>((lo + hi + 1) / 2);
    if (half_value(mid) <= a)
      lo = mid;
    else
      hi = static_cast<std::uint16_t>(mid - 1);
  }
  if (lo < 0x7bff) {
    const float below = a - half_value(lo), above = half_value(lo + 1) - a;
    if (above < below || (above == below && (lo & 1))) ++lo;
  }
  return sign | lo;
}

// A weight's bytes in a bundle, read by hand: the group's shards concatenated, the weights laid
// back to back in manifest order.
struct RawWeight {
  ordered_json entry;
  std::vector<char> bytes;
};
std::vector<RawWeight> raw_weights(const fs::path& model_json) {
  const ordered_json j = read_json(model_json);
  std::vector<RawWeight> out;
  for (const auto& group : j["weightsManifest"]) {
    std::vector<char> data;
    for (const auto& p : group["paths"]) {
      const auto b = read_file(model_json.parent_path() / p.get<std::string>());
      data.insert(data.end(), b.begin(), b.end());
    }
    std::size_t off = 0;
    for (const auto& w : group["weights"]) {
      std::size_t n = 1;
      for (const auto& d : w["shape"]) n *= d.get<std::size_t>();
      std::size_t width = w["dtype"] == "bool" ? 1 : 4;
      if (w.contains("quantization")) width = w["quantization"]["dtype"] == "uint8" ? 1 : 2;
      if (off + n * width > data.size()) throw std::runtime_error("shards too short");
      out.push_back({w, std::vector<char>(data.begin() + off, data.begin() + off + n * width)});
      off += n * width;
    }
  }
  return out;
}

std::vector<float> floats_of(const tfjsi::HostTensor& t) {
  const auto v = t.values<float>();
  return {v.begin(), v.end()};
}

fs::path model_file(const QString& name) {
  if (name.startsWith("layers/"))
    return tfjsi::test::reference_dir() / name.toStdString() / "model.json";
  return tfjsi::test::corpus_model(name.toStdString());
}

// DESIGN.md's drift of `test` against `ref` (.npy outputs listed in outputs.json of each folder).
double drift_between(const fs::path& ref, const fs::path& test) {
  const auto list = read_json(ref / "outputs.json");
  double drift = 0;
  for (const auto& o : list) {
    const auto a = tfjsi::io::read_npy(ref / o["file"].get<std::string>());
    const auto b = tfjsi::io::read_npy(test / o["file"].get<std::string>());
    if (a.dtype != tfjsi::DType::Float32) continue;
    double err = 0, mag = 0;
    const auto x = a.values<float>(), y = b.values<float>();
    for (std::size_t i = 0; i < x.size(); ++i) {
      mag = std::max(mag, std::abs(double(x[i])));
      err = std::max(err, std::abs(double(x[i]) - double(y[i])));
    }
    drift = std::max(drift, err / std::max(1.0, mag));
  }
  return drift;
}

}  // namespace

class QuantizeTest : public QObject {
  Q_OBJECT

 private slots:
  void followsTheConverter_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("dtype");
    for (const char* m : {"emotion", "layers/seq_cnn"})
      for (const char* d : {"uint8", "uint16", "float16"})
        QTest::newRow((std::string(m) + " " + d).c_str()) << m << d;
  }
  void followsTheConverter() {
    QFETCH(QString, model);
    QFETCH(QString, dtype);
    const fs::path src = model_file(model);
    tfjsi::test::TempDir tmp;
    const fs::path out = tmp.path / "q";
    const auto report =
        tfjsi_ok({"quantize", q(src), "--dtype", dtype, "--out", q(out), "--json"}).json();
    QCOMPARE(report["dtype"].get<std::string>(), dtype.toStdString());

    const tfjsi::model::Bundle original = tfjsi::model::load_bundle(src);
    const std::vector<RawWeight> before = raw_weights(src), after = raw_weights(out / "model.json");
    QCOMPARE(after.size(), before.size());
    const tfjsi::model::Bundle reread = tfjsi::model::load_bundle(out);  // our loader
    std::size_t shard_bytes = 0, quantized = 0;
    for (std::size_t i = 0; i < after.size(); ++i) {
      const auto& entry = after[i].entry;
      const std::string name = entry["name"];
      QCOMPARE(name, before[i].entry["name"].get<std::string>());
      QCOMPARE(entry["shape"], before[i].entry["shape"]);
      shard_bytes += after[i].bytes.size();
      const tfjsi::model::Weight* w = original.find_weight(name);
      QVERIFY(w);
      if (w->dtype != tfjsi::DType::Float32) {
        // Not float32: entry and bytes exactly as they were.
        QCOMPARE(entry, before[i].entry);
        QVERIFY2(after[i].bytes == before[i].bytes, name.c_str());
        continue;
      }
      ++quantized;
      const std::vector<float> x = floats_of(w->value);
      QCOMPARE(entry["dtype"].get<std::string>(), std::string("float32"));
      const ordered_json& qz = entry["quantization"];
      const std::vector<float> loaded = floats_of(reread.find_weight(name)->value);
      if (dtype == "float16") {
        QCOMPARE(qz, (ordered_json{{"dtype", "float16"}, {"original_dtype", "float32"}}));
        for (std::size_t k = 0; k < x.size(); ++k) {
          std::uint16_t h;
          std::memcpy(&h, after[i].bytes.data() + 2 * k, 2);
          QVERIFY2(h == half_bits(x[k]), (name + " element " + std::to_string(k)).c_str());
          QCOMPARE(loaded[k], half_value(half_bits(x[k])));
        }
        continue;
      }
      const std::uint32_t qmax = dtype == "uint8" ? 255 : 65535;
      const Affine a = converter_affine(x, qmax);
      // Keys in the converter's order, values exactly its doubles.
      std::vector<std::string> keys;
      for (const auto& [k, v] : qz.items()) keys.push_back(k);
      QCOMPARE(keys, (std::vector<std::string>{"dtype", "min", "scale", "original_dtype"}));
      QCOMPARE(qz["dtype"].get<std::string>(), dtype.toStdString());
      QCOMPARE(qz["original_dtype"].get<std::string>(), std::string("float32"));
      QVERIFY2(qz["scale"].get<double>() == a.scale, (name + ": scale").c_str());
      QVERIFY2(qz["min"].get<double>() == a.min, (name + ": min").c_str());
      for (std::size_t k = 0; k < x.size(); ++k) {
        std::uint32_t v = static_cast<unsigned char>(after[i].bytes[k * (qmax == 255 ? 1 : 2)]);
        if (qmax != 255) {
          std::uint16_t h;
          std::memcpy(&h, after[i].bytes.data() + 2 * k, 2);
          v = h;
        }
        QVERIFY2(v == a.q[k], (name + " element " + std::to_string(k) + ": q " + std::to_string(v) +
                               ", converter " + std::to_string(a.q[k]))
                                  .c_str());
        // TF.js: q * scale + min in double, kept as float32.
        QCOMPARE(loaded[k], float(double(v) * a.scale + a.min));
      }
      // The nudge: zero is one of the steps whenever the range covers it.
      if (a.nudged) {
        const double zero_step = round_half_even(-a.min / a.scale);
        QCOMPARE(float(zero_step * a.scale + a.min), 0.0f);
      }
    }
    QVERIFY(quantized > 0);
    QCOMPARE(report["bytes"].get<std::size_t>(), shard_bytes);
    const ordered_json j = read_json(out / "model.json");
    QCOMPARE(j["weightsManifest"].size(), std::size_t(1));
    QCOMPARE(j["weightsManifest"][0]["paths"], (ordered_json{"group1-shard1of1.bin"}));
    // Only the manifest changes.
    ordered_json a = read_json(src), b = j;
    a.erase("weightsManifest");
    b.erase("weightsManifest");
    QCOMPARE(b, a);
  }

  void shardsAreCutAt4MiB() {
    tfjsi::test::TempDir tmp;
    const fs::path out = tmp.path / "q";
    // handdetect's float16 weights, written back float32: about 7 MB in one group.
    const auto report = tfjsi_ok({"quantize", q(tfjsi::test::corpus_model("handdetect")), "--dtype",
                                  "uint8", "--keep-float", "*", "--out", q(out), "--json"})
                            .json();
    const std::size_t total = report["bytes"];
    const std::size_t shard = 4 * 1024 * 1024;
    const std::size_t count = (total + shard - 1) / shard;
    QVERIFY2(count >= 2, std::to_string(total).c_str());
    const ordered_json j = read_json(out / "model.json");
    const auto& paths = j["weightsManifest"][0]["paths"];
    QCOMPARE(paths.size(), count);
    for (std::size_t k = 0; k < count; ++k) {
      const std::string name =
          "group1-shard" + std::to_string(k + 1) + "of" + std::to_string(count) + ".bin";
      QCOMPARE(paths[k].get<std::string>(), name);
      QCOMPARE(std::size_t(fs::file_size(out / name)), k + 1 < count ? shard : total - k * shard);
    }
    QCOMPARE(report["drift"].get<double>(), 0.0);  // nothing was quantized
  }

  void keepFloatLeavesWeightsByteForByte() {
    tfjsi::test::TempDir tmp;
    const fs::path src = model_file("layers/seq_cnn"), out = tmp.path / "q";
    const auto report = tfjsi_ok({"quantize", q(src), "--dtype", "uint8", "--keep-float", "conv2/*",
                                  "--keep-float", "fc?/bias", "--out", q(out), "--json"})
                            .json();
    const std::set<std::string> kept = {"conv2/kernel", "conv2/bias", "fc1/bias", "fc2/bias"};
    std::set<std::string> reported;
    for (const auto& n : report["weights"]["kept_float"]) reported.insert(n.get<std::string>());
    QCOMPARE(reported, kept);
    const auto before = raw_weights(src), after = raw_weights(out / "model.json");
    QCOMPARE(after.size(), before.size());
    for (std::size_t i = 0; i < after.size(); ++i) {
      const std::string name = after[i].entry["name"];
      if (kept.count(name)) {
        QCOMPARE(after[i].entry, before[i].entry);
        QVERIFY2(after[i].bytes == before[i].bytes, name.c_str());
      } else {
        QVERIFY2(after[i].entry["quantization"]["dtype"] == "uint8", name.c_str());
      }
    }
  }

  // An affine range cannot hold -inf (faceboxes' NMS score threshold): such a weight stays
  // float32, said on stderr, and the rest is quantized.
  void leavesNonFiniteWeightsFloat32() {
    tfjsi::test::TempDir tmp;
    const fs::path src = tfjsi::test::corpus_model("faceboxes"), out = tmp.path / "q";
    const auto r = tfjsi::test::run_tfjsi(
        {"quantize", q(src), "--dtype", "uint8", "--out", q(out), "--json"}, 600000);
    QVERIFY2(!r.crashed && r.exit_code == 0, r.err.constData());
    QVERIFY2(r.err.contains("holds a NaN or an infinity"), r.err.constData());
    const auto report = r.json();
    QVERIFY(!report["weights"]["not_quantizable"].empty());
    // faceboxes is stored quantized: its float values are what the loader decodes.
    const tfjsi::model::Bundle original = tfjsi::model::load_bundle(src);
    const auto after = raw_weights(out / "model.json");
    std::size_t nonfinite = 0;
    for (const auto& w : after) {
      const tfjsi::model::Weight* o = original.find_weight(w.entry["name"].get<std::string>());
      QVERIFY(o);
      if (o->dtype != tfjsi::DType::Float32) continue;
      const std::vector<float> x = floats_of(o->value);
      if (std::all_of(x.begin(), x.end(), [](float v) { return std::isfinite(v); })) {
        QVERIFY(w.entry.contains("quantization"));
        continue;
      }
      ++nonfinite;
      QVERIFY(!w.entry.contains("quantization"));
      QCOMPARE(w.entry["dtype"].get<std::string>(), std::string("float32"));
      QCOMPARE(w.bytes.size(), x.size() * 4);
      QVERIFY(std::memcmp(w.bytes.data(), x.data(), w.bytes.size()) == 0);
    }
    QVERIFY(nonfinite > 0);
  }

  void refusesBadInput() {
    tfjsi::test::TempDir tmp;
    const fs::path src = model_file("layers/seq_cnn");
    const QString model = q(src);
    auto expect = [&](const QStringList& args, int code, const char* words) {
      const auto r = tfjsi::test::run_tfjsi(args);
      QVERIFY2(!r.crashed, r.err.constData());
      QVERIFY2(r.exit_code == code,
               qPrintable(args.join(' ') + " -> " + QString::number(r.exit_code) + ": " + r.err));
      QVERIFY2(r.err.contains(words), qPrintable(args.join(' ') + ": " + r.err));
    };
    const QString fresh = q(tmp.path / "fresh");
    expect({"quantize", model, "--dtype", "int4", "--out", fresh}, 2,
           "--dtype expects float16, uint16 or uint8");
    expect({"quantize", model, "--out", fresh}, 2, "--dtype");
    expect({"quantize", model, "--dtype", "uint8"}, 2, "--out");
    expect({"quantize", model, "--dtype", "uint8", "--keep-float", "nosuch*", "--out", fresh}, 2,
           "matches no weight");
    expect({"quantize", model, "--advise", "--dtype", "uint8"}, 2, "does not go with --advise");
    expect({"quantize", model, "--advise", "--tolerance", "-1"}, 2, "--tolerance");
    const auto listing = [&] {
      std::set<std::string> s;
      for (const auto& e : fs::directory_iterator(src.parent_path())) s.insert(e.path().string());
      return s;
    };
    const auto files = listing();
    expect({"quantize", model, "--dtype", "uint8", "--out", q(src.parent_path())}, 2,
           "the model's own folder");
    QCOMPARE(listing(), files);
    fs::create_directories(tmp.path / "full");
    std::ofstream(tmp.path / "full" / "x") << "x";
    expect({"quantize", model, "--dtype", "uint8", "--out", q(tmp.path / "full")}, 2, "not empty");
    std::ofstream(tmp.path / "file") << "x";
    expect({"quantize", model, "--dtype", "uint8", "--out", q(tmp.path / "file" / "sub")}, 1,
           "cannot create the output folder");
    expect({"quantize", q(tmp.path / "missing.json"), "--dtype", "uint8", "--out", fresh}, 1,
           "missing.json");
    QVERIFY(!fs::exists(tmp.path / "fresh"));
  }

  // float16 drifts less than uint8, and the command --advise prints writes a bundle whose drift,
  // measured here from `tfjsi run` outputs, is within the tolerance it was given.
  void adviceHoldsWhenWritten() {
    const fs::path src = tfjsi::test::corpus_model("emotion");
    const auto first = tfjsi_ok({"quantize", q(src), "--advise", "--json"}).json();
    auto drift_of = [](const nlohmann::json& advice, const std::string& dtype) {
      for (const auto& o : advice["options"])
        if (o["dtype"] == dtype && o["kept_groups"].empty()) return o["drift"].get<double>();
      throw std::runtime_error("no " + dtype + " option");
    };
    const double d16 = drift_of(first, "float16"), d8 = drift_of(first, "uint8");
    QVERIFY2(d16 < d8, qPrintable(QString("float16 %1, uint8 %2").arg(d16).arg(d8)));
    QVERIFY(d8 > 0);

    // A tolerance all-uint8 misses, so that the search has to keep groups float32.
    const double tol = 0.7 * d8;
    const auto advice = tfjsi_ok({"quantize", q(src), "--advise", "--json", "--tolerance",
                                  QString::number(tol, 'g', 17)})
                            .json();
    bool recovered = false;
    for (const auto& o : advice["options"])
      if (o["dtype"] == "uint8" && !o["kept_groups"].empty() && o["drift"].get<double>() < d8)
        recovered = true;
    QVERIFY2(recovered, advice.dump().c_str());
    const auto& rec = advice["recommended"];
    QVERIFY2(!rec.is_null(), advice.dump().c_str());
    for (const auto& o : advice["options"])
      if (o["drift"].get<double>() <= tol) QVERIFY(rec["bytes"] <= o["bytes"]);

    tfjsi::test::TempDir tmp;
    QStringList words;
    for (const auto& w : advice["command"]) words << QString::fromStdString(w.get<std::string>());
    QCOMPARE(words.mid(0, 2), (QStringList{"tfjsi", "quantize"}));
    words = words.mid(1);
    const int out_at = words.indexOf("--out");
    QVERIFY(out_at > 0);
    words[out_at + 1] = q(tmp.path / "rec");  // beside the corpus is not ours to write
    const auto written = tfjsi_ok(words << "--json").json();
    QCOMPARE(written["bytes"], rec["bytes"]);

    tfjsi_ok({"run", q(src), "--backend", "cpu", "--out", q(tmp.path / "float")});
    tfjsi_ok({"run", q(tmp.path / "rec"), "--backend", "cpu", "--out", q(tmp.path / "quant")});
    const double measured = drift_between(tmp.path / "float", tmp.path / "quant");
    QVERIFY2(measured <= tol,
             qPrintable(QString("drift %1 > tolerance %2").arg(measured).arg(tol)));
    const double reported = rec["drift"].get<double>();
    QVERIFY2(std::abs(measured - reported) <= std::max(0.1 * reported, 1e-5),
             qPrintable(QString("measured %1, advised %2").arg(measured).arg(reported)));
  }
};

QTEST_GUILESS_MAIN(QuantizeTest)
#include "quantize_test.moc"
