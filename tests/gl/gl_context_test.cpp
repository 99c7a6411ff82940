// The headless context, texture tensors and readback: availability, limits, the float32 probe,
// PHWC4 round trips on odd shapes, int32 host data and fenced readback.
#include <QProcess>
#include <QtTest>
#include <thread>

#include "backends/gl/gl_backend.h"
#include "gl/gl_test_util.h"

using namespace tfjsi;

class GlContextTest : public QObject {
  Q_OBJECT
  test::GlFixture f;

 private slots:
  void available_with_reason() {
    const auto a = f.gl->availability();
    QVERIFY2(a.available, ("gl must start on this machine (Mesa llvmpipe): " + a.reason).c_str());
    QVERIFY(a.reason.empty());
    QCOMPARE(f.gl->name(), std::string_view("gl"));
    QCOMPARE(f.gl->priority(), 300);
  }

  void headless_context_and_limits() {
    const auto& ctx = f.gl->context();
    QVERIFY(ctx);
    QVERIFY(!ctx->renderer().empty());
    QVERIFY(ctx->surface_kind() == "surfaceless" || ctx->surface_kind() == "pbuffer");
    const auto& l = ctx->limits();
    QVERIFY(l.max_group_invocations >= 1024);  // the GL 4.3 minimum
    QVERIFY(l.max_texture_size >= 1024);
    QVERIFY(l.max_image_units >= 8);
    QVERIFY(l.max_compute_texture_units >= 16);
    QVERIFY(l.max_shared_bytes >= 32768);
  }

  void flags_declared() {
    QVERIFY(f.flags.has("gl.float32_capable"));
    QVERIFY(f.flags.has("gl.float32_enabled"));
    QCOMPARE(f.flags.get_bool("gl.float32_capable"), f.gl->float32_capable());
    // llvmpipe stores RGBA32F exactly; the probe must find that.
    QVERIFY(f.gl->float32_capable());
    bool read_only = false;
    for (const auto& fl : f.flags.list())
      if (fl.name == "gl.float32_capable") read_only = fl.read_only;
    QVERIFY(read_only);
  }

  void round_trip_data() {
    QTest::addColumn<QString>("shape");
    QTest::addColumn<bool>("fp16");
    for (const char* s :
         {"", "7", "3,5", "2,3,7", "1,5,6,3", "2,4,3,9", "3,1,1,1", "1,17,13,8", "0,4,4,3"})
      for (bool h : {false, true})
        QTest::newRow((std::string(s) + (h ? " fp16" : " fp32")).c_str()) << QString(s) << h;
  }
  void round_trip() {
    QFETCH(QString, shape);
    QFETCH(bool, fp16);
    Shape sh;
    for (const QString& d : shape.split(',', Qt::SkipEmptyParts)) sh.push_back(d.toLongLong());
    f.set_fp16(fp16);
    // Values a half float holds exactly, so both precisions must give them back unchanged.
    HostTensor t = HostTensor::zeros(DType::Float32, sh);
    auto v = t.mutable_values<float>();
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 2000) * 0.25f - 100.f;
    auto data = f.gl->upload(t);
    HostTensor back = f.gl->download({data, DType::Float32, sh});
    QCOMPARE(back.shape, sh);
    const auto b = back.values<float>();
    for (std::size_t i = 0; i < v.size(); ++i) QCOMPARE(b[i], v[i]);
    QCOMPARE(static_cast<gl::GlTensorData*>(data.get())->fp16(), fp16);
    f.set_fp16(false);
  }

  void fp16_storage_rounds() {
    // Not assuming the driver's rule (Mesa truncates, others round to nearest): any of them is off
    // by less than one half-float step, and large values saturate or become inf.
    f.set_fp16(true);
    HostTensor t = HostTensor::zeros(DType::Float32, {4});
    auto v = t.mutable_values<float>();
    v[0] = 1.0f + 1.0f / 4096.f, v[1] = 3.14159265f, v[2] = 1e6f, v[3] = -1e6f;
    HostTensor back = f.gl->download({f.gl->upload(t), DType::Float32, {4}});
    const auto b = back.values<float>();
    QVERIFY(std::fabs(b[0] - v[0]) <= 1.f / 1024.f && b[0] != v[0]);
    QVERIFY(std::fabs(b[1] - v[1]) <= 4.f / 1024.f);
    QVERIFY(b[2] == 65504.f || std::isinf(b[2]) || std::isnan(b[2]));
    QVERIFY(b[3] == -65504.f || std::isinf(b[3]) || std::isnan(b[3]));
    f.set_fp16(false);
  }

  void int32_stays_on_host() {
    HostTensor t = test::int_tensor({1, -2, 3, 40000});
    auto data = f.gl->upload(t);
    auto* d = static_cast<gl::GlTensorData*>(data.get());
    QVERIFY(d->on_host());
    HostTensor back = f.gl->download({data, DType::Int32, t.shape});
    QCOMPARE(back.dtype, DType::Int32);
    QCOMPARE(back.values<std::int32_t>()[3], 40000);
  }

  void async_readback() {
    HostTensor t = test::random_tensor({1, 64, 64, 5}, 7);
    auto data = f.gl->upload(t);
    gl::PendingRead r = f.gl->begin_read({data, DType::Float32, t.shape});
    // Polling never blocks; it turns true within a generous time on any driver.
    QElapsedTimer timer;
    timer.start();
    while (!r.ready() && timer.elapsed() < 10000) QTest::qWait(1);
    QVERIFY(r.ready());
    HostTensor back = f.gl->finish_read(r);
    const auto a = t.values<float>(), b = back.values<float>();
    QVERIFY(std::equal(a.begin(), a.end(), b.begin()));
  }

  void works_from_another_thread() {
    // Started on this thread, then driven from a worker (as the GUI does), then back here.
    HostTensor t = test::random_tensor({2, 3, 5}, 11);
    auto ctx = f.gl->context();
    ctx->release();
    HostTensor back;
    std::string error;
    std::thread worker([&] {
      try {
        back = f.gl->download({f.gl->upload(t), DType::Float32, t.shape});
      } catch (const std::exception& e) {
        error = e.what();
      }
      ctx->release();
    });
    worker.join();
    QVERIFY2(error.empty(), error.c_str());
    const auto a = t.values<float>(), b = back.values<float>();
    QVERIFY(std::equal(a.begin(), a.end(), b.begin()));
  }

  void supports_only_float_nodes() {
    graph::Node n = test::make_node("Relu");
    QVERIFY(f.gl->supports(n));
    n.outputs[0].dtype = DType::Int32;
    QVERIFY(!f.gl->supports(n));
    graph::Node add = test::make_node("AddV2", 2);
    add.attrs["T"] = graph::TypeAttr{"DT_INT32"};
    QVERIFY(!f.gl->supports(add));
    graph::Node r5 = test::make_node("Relu");
    r5.outputs[0].shape = PartialShape::of({1, 2, 3, 4, 5});
    QVERIFY(!f.gl->supports(r5));
    graph::Node nchw = test::make_node("Conv2D", 2);
    nchw.attrs["data_format"] = std::string("NCHW");
    QVERIFY(!f.gl->supports(nchw));
    QVERIFY(!f.gl->supports(test::make_node("NonMaxSuppressionV5", 3)));
  }

  void unavailable_is_reported_not_fatal() {
    // A child process where EGL cannot find any driver: the backend must say why, not crash.
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("TFJSI_GL_PROBE", "1");
    env.insert("__EGL_VENDOR_LIBRARY_FILENAMES", "/nonexistent.json");
    env.insert("__EGL_VENDOR_LIBRARY_DIRS", "/nonexistent");
    p.setProcessEnvironment(env);
    p.start(QCoreApplication::applicationFilePath(), {});
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    QVERIFY2(out.startsWith("unavailable: "), qPrintable(out));
    QVERIFY2(out.size() > 14, qPrintable(out));
  }
};

int main(int argc, char** argv) {
  // Probe mode for unavailable_is_reported_not_fatal: print what availability() says.
  if (qEnvironmentVariableIsSet("TFJSI_GL_PROBE")) {
    auto gl = tfjsi::gl::make_gl_backend();
    const auto a = gl->availability();
    std::printf("%s: %s\n", a.available ? "available" : "unavailable", a.reason.c_str());
    return 0;
  }
  QCoreApplication app(argc, argv);
  GlContextTest t;
  return QTest::qExec(&t, argc, argv);
}

#include "gl_context_test.moc"
