#include "gl_format.h"

#include <QApplication>
#include <QSurfaceFormat>

namespace tfjsi::ui {

void use_app_gl_format() {
  QSurfaceFormat fmt;
  fmt.setVersion(4, 3);
  fmt.setProfile(QSurfaceFormat::CoreProfile);
  QSurfaceFormat::setDefaultFormat(fmt);
  QApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
}

}  // namespace tfjsi::ui
