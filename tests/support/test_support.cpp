#include "support/test_support.h"

#include <QProcess>
#include <random>
#include <stdexcept>

namespace tfjsi::test {
namespace {

std::filesystem::path env_dir(const char* var) {
  const QByteArray v = qgetenv(var);
  if (v.isEmpty())
    throw std::runtime_error(std::string(var) + " is not set: run the suite via ctest");
  std::filesystem::path p(v.toStdString());
  if (!std::filesystem::is_directory(p))
    throw std::runtime_error(std::string(var) + "=" + p.string() + " is not a folder");
  return p;
}

}  // namespace

std::filesystem::path corpus_dir() {
  return env_dir("TFJSI_CORPUS_DIR");
}
std::filesystem::path reference_dir() {
  return env_dir("TFJSI_REFERENCE_DIR");
}
std::filesystem::path source_dir() {
  return env_dir("TFJSI_SOURCE_DIR");
}

std::filesystem::path corpus_model(const std::string& name) {
  auto p = corpus_dir() / (name + ".json");
  if (!std::filesystem::exists(p)) throw std::runtime_error("corpus model missing: " + p.string());
  return p;
}

TempDir::TempDir() {
  std::random_device rd;
  for (int attempt = 0; attempt < 100; ++attempt) {
    auto p = std::filesystem::temp_directory_path() / ("tfjsi-test-" + std::to_string(rd()));
    if (std::filesystem::create_directory(p)) {
      path = p;
      return;
    }
  }
  throw std::runtime_error("cannot create a temporary folder");
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
}

nlohmann::json ProcessResult::json() const {
  try {
    return nlohmann::json::parse(out.toStdString());
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("stdout is not JSON (") + e.what() +
                             "); stderr: " + err.toStdString());
  }
}

ProcessResult run_tfjsi(const QStringList& args, int timeout_ms) {
  const QByteArray bin = qgetenv("TFJSI_BIN");
  if (bin.isEmpty()) throw std::runtime_error("TFJSI_BIN is not set: run the suite via ctest");
  QProcess p;
  p.start(QString::fromLocal8Bit(bin), args);
  ProcessResult r;
  if (!p.waitForStarted()) throw std::runtime_error("cannot start " + bin.toStdString());
  p.closeWriteChannel();
  if (!p.waitForFinished(timeout_ms)) {
    p.kill();
    p.waitForFinished();
    r.crashed = true;
  }
  r.out = p.readAllStandardOutput();
  r.err = p.readAllStandardError();
  if (p.exitStatus() == QProcess::CrashExit) r.crashed = true;
  r.exit_code = p.exitCode();
  return r;
}

}  // namespace tfjsi::test
