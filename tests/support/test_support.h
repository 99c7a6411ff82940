// What every suite needs: where the test data is, and running tfjsi as a user would.
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

// TFJSI_TEST_ASAN is 1 in a build with AddressSanitizer, whichever compiler made it: GCC defines
// __SANITIZE_ADDRESS__, clang 14 only answers __has_feature(address_sanitizer).
#if defined(__SANITIZE_ADDRESS__)
#define TFJSI_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TFJSI_TEST_ASAN 1
#endif
#endif
#ifndef TFJSI_TEST_ASAN
#define TFJSI_TEST_ASAN 0
#endif

namespace tfjsi::test {

// The corpus folder (from TFJSI_CORPUS_DIR); fails the test (QFAIL-style, by throwing) if unset or
// missing, never skips.
std::filesystem::path corpus_dir();
// corpus_dir() / (name + ".json").
std::filesystem::path corpus_model(const std::string& name);
// The reference data folder (TFJSI_REFERENCE_DIR), made by tests/reference/make-data.sh.
std::filesystem::path reference_dir();
// The source tree (TFJSI_SOURCE_DIR).
std::filesystem::path source_dir();
// A fresh temporary folder, removed when the returned guard dies.
struct TempDir {
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::filesystem::path path;
};

struct ProcessResult {
  int exit_code = -1;
  bool crashed = false;  // killed by a signal (a crash is never an acceptable outcome)
  QByteArray out, err;
  nlohmann::json json() const;  // stdout parsed as JSON; throws with stderr in the message
};

// Runs the tfjsi binary (TFJSI_BIN) with `args`; kills it and reports a crash after `timeout_ms`.
ProcessResult run_tfjsi(const QStringList& args, int timeout_ms = 120000);

}  // namespace tfjsi::test
