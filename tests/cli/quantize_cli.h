// What the suites of `tfjsi quantize` and `tfjsi reduce` share: running tfjsi where it must
// succeed, and paths as QStrings for its arguments.
#pragma once

#include <QString>
#include <QStringList>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "support/test_support.h"

namespace tfjsi::test {

// run_tfjsi with a long timeout; a crash or a non-zero exit throws with tfjsi's stderr.
inline ProcessResult tfjsi_ok(const QStringList& args, int timeout_ms = 600000) {
  auto r = run_tfjsi(args, timeout_ms);
  if (r.crashed || r.exit_code != 0)
    throw std::runtime_error("tfjsi " + args.join(' ').toStdString() + " failed (exit " +
                             std::to_string(r.exit_code) + "): " + r.err.toStdString());
  return r;
}

inline QString q(const std::filesystem::path& p) {
  return QString::fromStdString(p.string());
}

}  // namespace tfjsi::test
