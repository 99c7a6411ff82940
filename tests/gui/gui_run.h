// The run-and-wait step the GUI suites share: run the open model with the Run dock's settings, as
// F5 does, and wait for the window to say how it went. A failed run fails the calling test.
#pragma once

#include <QSignalSpy>
#include <QtTest>

#include "main_window.h"

namespace tfjsi::test {

inline constexpr int kGuiRunTimeoutMs = 120000;

// The result, or null (the test has then failed) when the run failed or did not end in time.
inline ui::RunResultPtr run_and_wait(ui::MainWindow& win, bool benchmark = false) {
  QSignalSpy done(&win, &ui::MainWindow::runFinished);
  QSignalSpy failed(&win, &ui::MainWindow::runFailed);
  win.run_model(benchmark);
  [&] { QTRY_VERIFY_WITH_TIMEOUT(done.count() + failed.count() > 0, kGuiRunTimeoutMs); }();
  if (failed.count()) {
    QTest::qFail(qPrintable("run failed: " + failed.at(0).at(0).toString()), __FILE__, __LINE__);
    return nullptr;
  }
  if (done.isEmpty()) return nullptr;
  return done.at(0).at(0).value<ui::RunResultPtr>();
}

}  // namespace tfjsi::test
