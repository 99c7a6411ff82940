// The ops suites' check of an error: it is a ModelError and its message names what it should.
#pragma once

#include <QTest>
#include <string>
#include <vector>

#include "core/error.h"

// Runs `f`, which must throw ModelError with every needle in its message.
template <class F>
void expect_error(F f, std::vector<std::string> needles) {
  try {
    f();
  } catch (const tfjsi::ModelError& e) {
    const std::string m = e.what();
    for (const auto& n : needles)
      if (m.find(n) == std::string::npos)
        QFAIL(("message '" + m + "' does not name '" + n + "'").c_str());
    return;
  }
  QFAIL("no ModelError");
}
