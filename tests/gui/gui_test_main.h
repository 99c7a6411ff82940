// main() of a GUI suite that drives real MainWindows: the app's GL format, and settings (the
// recent-files list) in a throwaway folder so a user's own are never touched.
#pragma once

#include <QApplication>
#include <QtTest>

#include "gl_format.h"
#include "support/test_support.h"

namespace tfjsi::test {

template <class Suite>
int run_gui_suite(int argc, char** argv, const char* organization) {
  ui::use_app_gl_format();
  TempDir config;
  qputenv("XDG_CONFIG_HOME", QByteArray::fromStdString(config.path.string()));
  QApplication app(argc, argv);
  QApplication::setOrganizationName(organization);
  Suite suite;
  return QTest::qExec(&suite, argc, argv);
}

}  // namespace tfjsi::test
