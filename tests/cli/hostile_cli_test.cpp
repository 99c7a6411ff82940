// Hostile inputs, round two (issue #25), through tfjsi as a user meets them: a model whose names
// carry terminal escapes, an output folder with symlinks planted in it, a FIFO or a folder given
// as an input, an input the model's signature makes 1.2 TB, an fp32 reference that is already
// inf, a Const of an unknown dtype, duplicate JSON keys and .npy files with bytes after the data.
// Each ends with the exit code DESIGN.md gives and a message naming the culprit, never a crash or
// a hang; the good case beside each must still pass.
#include <sys/stat.h>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <limits>

#include "core/host_tensor.h"
#include "core/terminal_text.h"
#include "io/npy.h"
#include "support/test_support.h"

namespace fs = std::filesystem;
using tfjsi::DType;
using tfjsi::HostTensor;

namespace {

// Names with ESC, BEL and newline: a title change, a red colour, a forged line.
const std::string kEvilInput = "x\x1b]0;pwned\x07";
const std::string kEvilOutput = "y\x1b[31mRED\nFORGED: all good";
const std::string kEvilSource = "conv\x1b[2J\x1b[H";

nlohmann::json placeholder(const std::string& name, std::vector<std::int64_t> dims) {
  nlohmann::json dim = nlohmann::json::array();
  for (auto d : dims) dim.push_back({{"size", std::to_string(d)}});
  return {{"name", name},
          {"op", "Placeholder"},
          {"attr", {{"dtype", {{"type", "DT_FLOAT"}}}, {"shape", {{"shape", {{"dim", dim}}}}}}}};
}

nlohmann::json unary(const std::string& name, const std::string& op, const std::string& in) {
  return {{"name", name}, {"op", op}, {"input", {in}}, {"attr", {{"T", {{"type", "DT_FLOAT"}}}}}};
}

nlohmann::json graph_model(nlohmann::json nodes) {
  return {{"format", "graph-model"},
          {"generatedBy", "test"},
          {"modelTopology", {{"node", std::move(nodes)}, {"versions", {{"producer", 1}}}}},
          {"weightsManifest", nlohmann::json::array()}};
}

bool has_control_bytes(const QByteArray& text) {
  for (char c : text) {
    const auto b = static_cast<unsigned char>(c);
    if ((b < 0x20 && b != '\n' && b != '\t') || b == 0x7f) return true;
  }
  return false;
}

}  // namespace

class HostileCliTest : public QObject {
  Q_OBJECT

  tfjsi::test::TempDir tmp_;
  QString sample_;  // resources/sample: one input conv1_input float32 [?,28,28,1]

  QString write_model(const std::string& folder, const nlohmann::json& j) {
    fs::create_directories(tmp_.path / folder);
    std::ofstream(tmp_.path / folder / "model.json") << j.dump();
    return QString::fromStdString((tmp_.path / folder).string());
  }
  QString write_text(const std::string& folder, const std::string& text) {
    fs::create_directories(tmp_.path / folder);
    std::ofstream(tmp_.path / folder / "model.json") << text;
    return QString::fromStdString((tmp_.path / folder).string());
  }
  QString npy(const std::string& name, const HostTensor& t) {
    const fs::path p = tmp_.path / name;
    tfjsi::io::write_npy(p, t);
    return QString::fromStdString(p.string());
  }
  static HostTensor filled(tfjsi::Shape shape, float v) {
    HostTensor t = HostTensor::zeros(DType::Float32, std::move(shape));
    for (float& x : t.mutable_values<float>()) x = v;
    return t;
  }

  // Exit code `code`, no crash, and stderr names each of `culprits`.
  static tfjsi::test::ProcessResult expect_exit(const QStringList& args, int code,
                                                const QStringList& culprits) {
    auto r = tfjsi::test::run_tfjsi(args, 60000);
    const QString err = QString::fromUtf8(r.err);
    [&] {
      QVERIFY2(!r.crashed, qPrintable("crashed or hung: " + err));
      QVERIFY2(r.exit_code == code, qPrintable(QString("exit %1: %2").arg(r.exit_code).arg(err)));
      for (const auto& c : culprits)
        QVERIFY2(err.contains(c), qPrintable("'" + c + "' not named in: " + err));
    }();
    return r;
  }

 private slots:
  void initTestCase() {
    sample_ = QString::fromStdString((tfjsi::test::source_dir() / "resources" / "sample").string());
  }

  // Item 7: the escaping function itself.
  void terminalSafeEscapesControlsAndKeepsUtf8() {
    QCOMPARE(tfjsi::terminal_safe("a\x1b[31mb\x07\nc"), std::string("a\\x1b[31mb\\x07\\x0ac"));
    QCOMPARE(tfjsi::terminal_safe_lines("a\x1b\nb\tc"), std::string("a\\x1b\nb\tc"));
    // U+009B (8-bit CSI) and a lone 0x9b byte; U+00E9 and U+4E2D stay.
    QCOMPARE(tfjsi::terminal_safe("\xc2\x9b"
                                  "2J \x9b \xc3\xa9\xe4\xb8\xad"),
             std::string("\\xc2\\x9b2J \\x9b \xc3\xa9\xe4\xb8\xad"));
  }

  // Item 7: names and generatedBy from the model reach no terminal raw, in info, run and errors;
  // --json still carries them exactly.
  void modelTextIsEscapedOnTheTerminal() {
    nlohmann::json m =
        graph_model({placeholder(kEvilInput, {1, 2}), unary(kEvilOutput, "Relu", kEvilInput)});
    m["generatedBy"] = kEvilSource;
    const QString model = write_model("evil", m);

    auto info = expect_exit({"info", model}, 0, {});
    QVERIFY2(!has_control_bytes(info.out), info.out.constData());
    QVERIFY(info.out.contains("x\\x1b]0;pwned\\x07"));
    QVERIFY(info.out.contains("conv\\x1b[2J"));
    QVERIFY2(!info.out.contains("\nFORGED"), info.out.constData());

    auto json = expect_exit({"info", model, "--json"}, 0, {});
    QVERIFY(!has_control_bytes(json.out));
    const auto j = json.json();
    QCOMPARE(j["producer"]["generated_by"].get<std::string>(), kEvilSource);
    QCOMPARE(j["inputs"][0]["name"].get<std::string>(), kEvilInput);

    auto run = expect_exit({"run", model, "--backend", "cpu"}, 0, {});
    QVERIFY2(!has_control_bytes(run.out), run.out.constData());
    QVERIFY2(!run.out.contains("\nFORGED"), run.out.constData());
    QVERIFY(!has_control_bytes(run.err));

    // An error message that quotes a node name and op.
    const QString bad = write_model(
        "evil_op",
        graph_model({placeholder("x", {1, 2}), unary("bad\x1b[2J", "NoSuchOp\x1b]0;t\x07", "x")}));
    auto err = expect_exit({"run", bad, "--backend", "cpu"}, 1, {"bad\\x1b[2J"});
    QVERIFY2(!has_control_bytes(err.err), err.err.constData());
  }

  // Item 6: files already in --out DIR that are symlinks are replaced, not written through.
  void outputFolderSymlinksAreNotFollowed() {
    const fs::path out = tmp_.path / "out";
    fs::create_directories(out);
    const fs::path victim = tmp_.path / "victim.txt", victim_json = tmp_.path / "victim.json";
    std::ofstream(victim) << "precious";
    std::ofstream(victim_json) << "precious json";
    fs::create_symlink(victim, out / "output_0.npy");
    fs::create_symlink(victim_json, out / "outputs.json");
    expect_exit({"run", sample_, "--backend", "cpu", "--out", QString::fromStdString(out.string())},
                0, {});
    std::string text;
    std::getline(std::ifstream(victim), text);
    QCOMPARE(text, std::string("precious"));
    std::getline(std::ifstream(victim_json), text);
    QCOMPARE(text, std::string("precious json"));
    QVERIFY(!fs::is_symlink(out / "output_0.npy"));
    QVERIFY(!fs::is_symlink(out / "outputs.json"));
    QCOMPARE(tfjsi::io::read_npy(out / "output_0.npy").shape.size(), std::size_t{2});
    std::ifstream list(out / "outputs.json");
    QVERIFY(nlohmann::json::parse(list).is_array());
  }

  // Item 9: inputs must be regular files: a FIFO is refused at once (no writer ever comes), a
  // folder is named as one.
  void inputsMustBeRegularFiles() {
    const fs::path fifo = tmp_.path / "fifo.npy";
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    expect_exit({"run", sample_, "--input", QString::fromStdString(fifo.string())}, 1,
                {"fifo.npy", "not a regular file"});
    fs::create_directories(tmp_.path / "folder.npy");
    expect_exit(
        {"run", sample_, "--input", QString::fromStdString((tmp_.path / "folder.npy").string())}, 1,
        {"folder.npy", "is a directory"});
  }

  // Item 11: bytes after a .npy file's data are warned about, as shards' are.
  void npyTrailingBytesAreWarnedAbout() {
    const QString good = npy("trail.npy", filled({1, 28, 28, 1}, 0.5f));
    std::ofstream(good.toStdString(), std::ios::app | std::ios::binary) << "1234567";
    expect_exit({"run", sample_, "--backend", "cpu", "--input", good}, 0,
                {"trail.npy", "7 bytes after the array's data"});
  }

  // Item 8: an input the signature makes larger than the machine is refused before trying, with
  // the input, its shape and its bytes.
  void hugeGeneratedInputNamesItsShapeAndBytes() {
    const QString model = write_model(
        "huge", graph_model({placeholder("x", {300000, 1000, 1000}), unary("y", "Relu", "x")}));
    expect_exit({"run", model, "--backend", "cpu"}, 1,
                {"input 'x'", "[300000,1000,1000]", "1200000000000 bytes", "out of memory"});
  }

  // Items 4 and 5: an fp32 reference that is inf is its own verdict, naming the first node that
  // produced it and the input, with exit code 1; a dequantization that overflows is refused at
  // load, naming the weight.
  void nonfiniteReferenceIsItsOwnVerdict() {
    const QString model =
        write_model("square", graph_model({placeholder("x", {1, 2}),
                                           unary("relu", "Relu", "x"),
                                           {{"name", "square"},
                                            {"op", "Mul"},
                                            {"input", {"relu", "relu"}},
                                            {"attr", {{"T", {{"type", "DT_FLOAT"}}}}}}}));
    HostTensor in = filled({1, 2}, 2.f);
    in.mutable_values<float>()[1] = std::numeric_limits<float>::infinity();
    const QString input = npy("inf.npy", in);
    auto r = expect_exit({"check-fp16", model, "--input", input, "--no-gl", "--json"}, 1,
                         {"not finite", "'relu'"});
    const auto j = r.json();
    QCOMPARE(j["verdict"].get<std::string>(), std::string("fp32-nonfinite"));
    QCOMPARE(j["fp16_safe"].get<bool>(), false);
    QCOMPARE(j["fp32_nonfinite"]["first_node"].get<std::string>(), std::string("relu"));
    QCOMPARE(j["fp32_nonfinite"]["input"].get<std::string>(), std::string("x"));
    auto text = expect_exit({"check-fp16", model, "--input", input, "--no-gl"}, 1, {});
    QVERIFY2(text.out.contains("NOT CHECKED") && !text.out.contains("fp16-safe"),
             text.out.constData());
    // The same model on a finite input: a verdict, exit 0.
    auto fine = expect_exit(
        {"check-fp16", model, "--input", npy("two.npy", filled({1, 2}, 2.f)), "--no-gl", "--json"},
        0, {});
    QCOMPARE(fine.json()["verdict"].get<std::string>(), std::string("fp16-safe"));

    // uint8 with scale 1e39: 200 * 1e39 does not fit in float32.
    nlohmann::json q = graph_model(
        {placeholder("x", {1, 2}),
         {{"name", "w"}, {"op", "Const"}, {"attr", {{"dtype", {{"type", "DT_FLOAT"}}}}}},
         {{"name", "y"},
          {"op", "Mul"},
          {"input", {"x", "w"}},
          {"attr", {{"T", {{"type", "DT_FLOAT"}}}}}}});
    q["weightsManifest"] = {
        {{"paths", {"w.bin"}},
         {"weights",
          {{{"name", "w"},
            {"shape", {2}},
            {"dtype", "float32"},
            {"quantization", {{"dtype", "uint8"}, {"scale", 1e39}, {"min", 0.0}}}}}}}};
    const QString quant = write_model("overflow", q);
    std::ofstream(tmp_.path / "overflow" / "w.bin", std::ios::binary) << std::string("\x00\xc8", 2);
    expect_exit({"run", quant, "--backend", "cpu"}, 1, {"weight 'w'", "element 1", "scale"});
  }

  // Item 5, stored infinities: a float32 weight holding inf is accepted (real models keep -inf
  // on purpose), but an output that goes non-finite is not left as a bare count: `run` names the
  // first node that produced it and the weight it read.
  void storedInfWeightIsNamedWhenAnOutputGoesNonfinite() {
    nlohmann::json g = graph_model(
        {placeholder("x", {1, 2}),
         {{"name", "w"}, {"op", "Const"}, {"attr", {{"dtype", {{"type", "DT_FLOAT"}}}}}},
         unary("relu", "Relu", "x"),
         {{"name", "y"},
          {"op", "Mul"},
          {"input", {"relu", "w"}},
          {"attr", {{"T", {{"type", "DT_FLOAT"}}}}}}});
    g["weightsManifest"] = {{{"paths", {"w.bin"}},
                             {"weights", {{{"name", "w"}, {"shape", {2}}, {"dtype", "float32"}}}}}};
    const QString model = write_model("stored-inf", g);
    const float w[2] = {1.f, std::numeric_limits<float>::infinity()};
    std::ofstream(tmp_.path / "stored-inf" / "w.bin", std::ios::binary)
        .write(reinterpret_cast<const char*>(w), sizeof w);
    const QString input = npy("ones.npy", filled({1, 2}, 1.f));
    auto r = expect_exit({"run", model, "--input", input, "--backend", "cpu", "--json"}, 0, {});
    const auto j = r.json();
    QVERIFY2(j.contains("nonfinite_origin"), r.out.constData());
    QCOMPARE(j["nonfinite_origin"]["value"].get<std::string>(), std::string("inf"));
    QCOMPARE(j["nonfinite_origin"]["node"].get<std::string>(), std::string("y"));
    QCOMPARE(j["nonfinite_origin"]["weight"].get<std::string>(), std::string("w"));
    const auto text = expect_exit({"run", model, "--input", input, "--backend", "cpu"}, 0, {});
    QVERIFY2(
        text.out.contains("inf first appears at node 'y' (Mul)") && text.out.contains("weight 'w'"),
        text.out.constData());
    // A finite run says nothing of the kind.
    const QString relu =
        write_model("finite", graph_model({placeholder("x", {1, 2}), unary("y", "Relu", "x")}));
    auto fine = expect_exit({"run", relu, "--input", input, "--backend", "cpu", "--json"}, 0, {});
    QVERIFY(!fine.json().contains("nonfinite_origin"));
  }

  // Item 10: a Const whose dtype is no TF dtype is refused, naming the node and the dtype.
  void unknownConstDtypeIsRefused() {
    nlohmann::json m = graph_model({placeholder("x", {1}),
                                    {{"name", "c"},
                                     {"op", "Const"},
                                     {"attr",
                                      {{"dtype", {{"type", "DT_WHATEVER"}}},
                                       {"value",
                                        {{"tensor",
                                          {{"dtype", "DT_FLOAT"},
                                           {"tensorShape", {{"dim", {{{"size", "1"}}}}}},
                                           {"floatVal", {1.0}}}}}}}}},
                                    {{"name", "y"},
                                     {"op", "AddV2"},
                                     {"input", {"x", "c"}},
                                     {"attr", {{"T", {{"type", "DT_FLOAT"}}}}}}});
    expect_exit({"run", write_model("whatever", m), "--backend", "cpu"}, 1, {"'c'", "DT_WHATEVER"});
  }

  // Item 11: a key written twice in model.json is refused, naming it.
  void duplicateJsonKeysAreRefused() {
    const std::string text = graph_model({placeholder("x", {1}), unary("y", "Relu", "x")}).dump();
    // The same object with "format" said twice, differently.
    const std::string twice = "{\"format\": \"layers-model\"," + text.substr(1);
    expect_exit({"info", write_text("dup", twice)}, 1, {"model.json", "\"format\"", "twice"});
    expect_exit({"info", write_text("nodup", text)}, 0, {});
  }
};

QTEST_GUILESS_MAIN(HostileCliTest)
#include "hostile_cli_test.moc"
