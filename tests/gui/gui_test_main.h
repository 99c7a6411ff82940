// main() of a GUI suite that drives real MainWindows: the app's GL format, and settings (the
// recent-files list) in a throwaway folder so a user's own are never touched.
#pragma once

#include <dlfcn.h>
#include <link.h>

#include <QApplication>
#include <QtTest>
#include <string>
#include <string_view>
#include <vector>

#include "gl_format.h"
#include "support/test_support.h"

namespace tfjsi::test {

// Keeps the GL driver (Mesa's *_dri.so, whichever the display uses) mapped until the process
// ends. Closing the display unloads it, and LeakSanitizer then reports the blocks that only the
// driver's own static data pointed to as leaks of an unknown module: false reports, which vanish
// when the driver stays loaded. Only sanitizer builds call it.
inline void keep_gl_drivers_loaded() {
  std::vector<std::string> drivers;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* out) -> int {
        const std::string_view name = info->dlpi_name ? info->dlpi_name : "";
        if (name.ends_with("_dri.so"))
          static_cast<std::vector<std::string>*>(out)->emplace_back(name);
        return 0;
      },
      &drivers);
  // dlopen outside the iteration, which holds the loader's list lock.
  for (const std::string& d : drivers) dlopen(d.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
}

template <class Suite>
int run_gui_suite(int argc, char** argv, const char* organization) {
  ui::use_app_gl_format();
  TempDir config;
  qputenv("XDG_CONFIG_HOME", QByteArray::fromStdString(config.path.string()));
  QApplication app(argc, argv);
  QApplication::setOrganizationName(organization);
  Suite suite;
  const int failed = QTest::qExec(&suite, argc, argv);
#if TFJSI_TEST_ASAN
  keep_gl_drivers_loaded();
#endif
  return failed;
}

}  // namespace tfjsi::test
