#include "imgui_widget.h"

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <QFile>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QWheelEvent>

namespace tfjsi::viewers {
namespace {

// Qt key -> ImGui 1.86 key slot; we use ImGuiKey_ values themselves as KeysDown indices.
int imgui_key(int qt_key) {
  switch (qt_key) {
    case Qt::Key_Tab:
      return ImGuiKey_Tab;
    case Qt::Key_Left:
      return ImGuiKey_LeftArrow;
    case Qt::Key_Right:
      return ImGuiKey_RightArrow;
    case Qt::Key_Up:
      return ImGuiKey_UpArrow;
    case Qt::Key_Down:
      return ImGuiKey_DownArrow;
    case Qt::Key_PageUp:
      return ImGuiKey_PageUp;
    case Qt::Key_PageDown:
      return ImGuiKey_PageDown;
    case Qt::Key_Home:
      return ImGuiKey_Home;
    case Qt::Key_End:
      return ImGuiKey_End;
    case Qt::Key_Insert:
      return ImGuiKey_Insert;
    case Qt::Key_Delete:
      return ImGuiKey_Delete;
    case Qt::Key_Backspace:
      return ImGuiKey_Backspace;
    case Qt::Key_Space:
      return ImGuiKey_Space;
    case Qt::Key_Return:
      return ImGuiKey_Enter;
    case Qt::Key_Enter:
      return ImGuiKey_KeyPadEnter;
    case Qt::Key_Escape:
      return ImGuiKey_Escape;
    case Qt::Key_A:
      return ImGuiKey_A;
    case Qt::Key_C:
      return ImGuiKey_C;
    case Qt::Key_V:
      return ImGuiKey_V;
    case Qt::Key_X:
      return ImGuiKey_X;
    case Qt::Key_Y:
      return ImGuiKey_Y;
    case Qt::Key_Z:
      return ImGuiKey_Z;
    default:
      return -1;
  }
}

int imgui_button(Qt::MouseButton b) {
  switch (b) {
    case Qt::LeftButton:
      return 0;
    case Qt::RightButton:
      return 1;
    case Qt::MiddleButton:
      return 2;
    default:
      return -1;
  }
}

ImFont* load_font(ImGuiIO& io, const char* path, float size) {
  if (QFile::exists(QString::fromUtf8(path))) {
    ImFontConfig cfg;
    cfg.OversampleH = 2;
    cfg.OversampleV = 2;
    if (ImFont* f = io.Fonts->AddFontFromFileTTF(path, size, &cfg)) return f;
  }
  return nullptr;
}

}  // namespace

CanvasFonts add_canvas_fonts(ImGuiIO& io) {
  // DejaVu (Debian's fonts-dejavu-core, always there with Qt) reads far better zoomed than the
  // built-in bitmap font; fall back to the latter when it is missing.
  CanvasFonts f;
  f.regular = load_font(io, "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 15.0f);
  f.bold = load_font(io, "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", 15.0f);
  if (!f.regular) f.regular = io.Fonts->AddFontDefault();
  if (!f.bold) f.bold = f.regular;
  io.FontDefault = f.regular;
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // builds the atlas: text can be measured now
  return f;
}

ImGuiWidget::ImGuiWidget(QWidget* parent) : QOpenGLWidget(parent) {
  setMouseTracking(true);
  setFocusPolicy(Qt::StrongFocus);
  ImGuiContext* previous = ImGui::GetCurrentContext();
  ctx_ = ImGui::CreateContext();
  ImGui::SetCurrentContext(ctx_);
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.LogFilename = nullptr;
  for (int k = 0; k < ImGuiKey_COUNT; ++k) io.KeyMap[k] = k;
  ImGui::StyleColorsLight();
  ImGuiStyle& style = ImGui::GetStyle();
  style.WindowRounding = 4;
  style.FrameRounding = 3;
  const CanvasFonts fonts = add_canvas_fonts(io);
  font_ = fonts.regular;
  bold_font_ = fonts.bold;
  ImGui::SetCurrentContext(previous);
}

ImGuiWidget::~ImGuiWidget() {
  shutdown();
}

void ImGuiWidget::shutdown() {
  if (!ctx_) return;
  if (context()) disconnect(context(), nullptr, this, nullptr);
  if (gl_ready_ && context()) {
    makeCurrent();
    ImGui::SetCurrentContext(ctx_);
    ImGui_ImplOpenGL3_Shutdown();
    doneCurrent();
  }
  gl_ready_ = false;
  ImGui::DestroyContext(ctx_);
  ctx_ = nullptr;
}

void ImGuiWidget::make_imgui_current() const {
  ImGui::SetCurrentContext(ctx_);
}

void ImGuiWidget::request_frames(int n) {
  frames_wanted_ = std::max(frames_wanted_, n);
  update();
}

void ImGuiWidget::initializeGL() {
  make_imgui_current();
  ImGui_ImplOpenGL3_Init("#version 330 core");
  gl_ready_ = true;
  // The backend's GL objects die with this GL context (re-parenting a QOpenGLWidget makes a new
  // one): shut it down while the old context is still current.
  connect(
      context(), &QOpenGLContext::aboutToBeDestroyed, this,
      [this] {
        if (!gl_ready_) return;
        makeCurrent();
        make_imgui_current();
        ImGui_ImplOpenGL3_Shutdown();
        gl_ready_ = false;
        doneCurrent();
      },
      Qt::DirectConnection);
  imgui_ready();
}

void ImGuiWidget::paintGL() {
  if (!gl_ready_) return;
  QElapsedTimer timer;
  timer.start();
  make_imgui_current();
  ImGuiIO& io = ImGui::GetIO();
  const qreal dpr = devicePixelRatioF();
  io.DisplaySize = ImVec2(static_cast<float>(width()), static_cast<float>(height()));
  io.DisplayFramebufferScale = ImVec2(static_cast<float>(dpr), static_cast<float>(dpr));
  io.DeltaTime = 1.0f / 60.0f;

  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();
  draw_frame();
  ImGui::Render();

  QOpenGLFunctions* gl = context()->functions();
  gl->glViewport(0, 0, static_cast<int>(width() * dpr), static_cast<int>(height() * dpr));
  gl->glClearColor(0.97f, 0.97f, 0.975f, 1.0f);
  gl->glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  if (finish_frames_) gl->glFinish();

  // This frame has seen every press: releases that were held back may now happen.
  for (int b = 0; b < 5; ++b) {
    mouse_pressed_since_frame_[static_cast<size_t>(b)] = false;
    if (mouse_release_pending_[static_cast<size_t>(b)]) {
      mouse_release_pending_[static_cast<size_t>(b)] = false;
      io.MouseDown[b] = false;
      frames_wanted_ = std::max(frames_wanted_, 2);
    }
  }
  for (int k = 0; k < 512; ++k) {
    key_pressed_since_frame_[static_cast<size_t>(k)] = false;
    if (key_release_pending_[static_cast<size_t>(k)]) {
      key_release_pending_[static_cast<size_t>(k)] = false;
      io.KeysDown[k] = false;
      frames_wanted_ = std::max(frames_wanted_, 2);
    }
  }
  frame_times_.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
  if (frame_times_.size() > 240) frame_times_.erase(frame_times_.begin());
  if (frames_wanted_ > 0) {
    --frames_wanted_;
    update();
  }
}

void ImGuiWidget::set_mouse(int button, bool down) {
  if (button < 0) return;
  make_imgui_current();
  ImGuiIO& io = ImGui::GetIO();
  auto b = static_cast<size_t>(button);
  if (down) {
    io.MouseDown[button] = true;
    mouse_pressed_since_frame_[b] = true;
    mouse_release_pending_[b] = false;
  } else if (mouse_pressed_since_frame_[b]) {
    mouse_release_pending_[b] = true;
  } else {
    io.MouseDown[button] = false;
  }
  request_frames();
}

void ImGuiWidget::set_key(int key, bool down) {
  if (key < 0) return;
  make_imgui_current();
  ImGuiIO& io = ImGui::GetIO();
  auto k = static_cast<size_t>(key);
  if (down) {
    io.KeysDown[key] = true;
    key_pressed_since_frame_[k] = true;
    key_release_pending_[k] = false;
  } else if (key_pressed_since_frame_[k]) {
    key_release_pending_[k] = true;
  } else {
    io.KeysDown[key] = false;
  }
  request_frames();
}

void ImGuiWidget::mousePressEvent(QMouseEvent* e) {
  make_imgui_current();
  ImGui::GetIO().MousePos =
      ImVec2(static_cast<float>(e->position().x()), static_cast<float>(e->position().y()));
  set_mouse(imgui_button(e->button()), true);
}

void ImGuiWidget::mouseReleaseEvent(QMouseEvent* e) {
  make_imgui_current();
  ImGui::GetIO().MousePos =
      ImVec2(static_cast<float>(e->position().x()), static_cast<float>(e->position().y()));
  set_mouse(imgui_button(e->button()), false);
}

void ImGuiWidget::mouseDoubleClickEvent(QMouseEvent* e) {
  mousePressEvent(e);
}

void ImGuiWidget::mouseMoveEvent(QMouseEvent* e) {
  make_imgui_current();
  ImGui::GetIO().MousePos =
      ImVec2(static_cast<float>(e->position().x()), static_cast<float>(e->position().y()));
  request_frames(1);
}

void ImGuiWidget::wheelEvent(QWheelEvent* e) {
  make_imgui_current();
  ImGuiIO& io = ImGui::GetIO();
  io.MouseWheel += static_cast<float>(e->angleDelta().y()) / 120.0f;
  io.MouseWheelH += static_cast<float>(e->angleDelta().x()) / 120.0f;
  request_frames();
}

void ImGuiWidget::keyPressEvent(QKeyEvent* e) {
  make_imgui_current();
  ImGuiIO& io = ImGui::GetIO();
  io.KeyCtrl = e->modifiers() & Qt::ControlModifier;
  io.KeyShift = e->modifiers() & Qt::ShiftModifier;
  io.KeyAlt = e->modifiers() & Qt::AltModifier;
  set_key(imgui_key(e->key()), true);
  const QString text = e->text();
  if (!text.isEmpty() && text.at(0).isPrint() && !io.KeyCtrl)
    io.AddInputCharactersUTF8(text.toUtf8().constData());
  request_frames();
}

void ImGuiWidget::keyReleaseEvent(QKeyEvent* e) {
  make_imgui_current();
  ImGuiIO& io = ImGui::GetIO();
  io.KeyCtrl = e->modifiers() & Qt::ControlModifier;
  io.KeyShift = e->modifiers() & Qt::ShiftModifier;
  io.KeyAlt = e->modifiers() & Qt::AltModifier;
  if (!e->isAutoRepeat()) set_key(imgui_key(e->key()), false);
}

void ImGuiWidget::focusOutEvent(QFocusEvent* e) {
  make_imgui_current();
  ImGuiIO& io = ImGui::GetIO();
  for (bool& k : io.KeysDown) k = false;
  io.KeyCtrl = io.KeyShift = io.KeyAlt = false;
  QOpenGLWidget::focusOutEvent(e);
  request_frames();
}

bool ImGuiWidget::event(QEvent* e) {
  // Tab must reach ImGui's text fields, not move Qt's focus away.
  if (e->type() == QEvent::KeyPress) {
    auto* k = static_cast<QKeyEvent*>(e);
    if (k->key() == Qt::Key_Tab || k->key() == Qt::Key_Backtab) {
      keyPressEvent(k);
      return true;
    }
  }
  if (e->type() == QEvent::Leave) {
    make_imgui_current();
    ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    request_frames(1);
  }
  return QOpenGLWidget::event(e);
}

}  // namespace tfjsi::viewers
