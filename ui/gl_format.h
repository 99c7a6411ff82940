// The OpenGL context every QOpenGLWidget of the app gets. Must be called before QApplication is
// made; the app and the GUI test suites both call it so the tests see the app's contexts.
#pragma once

namespace tfjsi::ui {

// GL 4.3 core (compute shaders, what the graph canvas and the gl backend need), contexts shared.
void use_app_gl_format();

}  // namespace tfjsi::ui
