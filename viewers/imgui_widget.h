// A QOpenGLWidget that hosts its own Dear ImGui (1.86) context: Qt input is forwarded to ImGui,
// and subclasses draw in draw_frame(). Frames are drawn on demand (after input or update()).
#pragma once

#include <QElapsedTimer>
#include <QOpenGLWidget>
#include <array>
#include <vector>

struct ImGuiContext;
struct ImFont;
struct ImGuiIO;

namespace tfjsi::viewers {

// The canvas's fonts (DejaVu Sans and its bold, else ImGui's own), added to `io`'s atlas and
// built, so text can be measured with them; no GL is needed for that.
struct CanvasFonts {
  ImFont* regular = nullptr;
  ImFont* bold = nullptr;
};
CanvasFonts add_canvas_fonts(ImGuiIO& io);

class ImGuiWidget : public QOpenGLWidget {
  Q_OBJECT
 public:
  explicit ImGuiWidget(QWidget* parent = nullptr);
  ~ImGuiWidget() override;

  // CPU time of the last frames (draw + ImGui render), in milliseconds, newest last.
  const std::vector<double>& frame_times() const { return frame_times_; }
  void set_finish_frames(bool on) { finish_frames_ = on; }  // glFinish in timing, for measuring

 protected:
  // Called between ImGui::NewFrame and ImGui::Render with this widget's context current.
  virtual void draw_frame() = 0;
  // After the GL context and fonts exist; the ImGui context is current.
  virtual void imgui_ready() {}
  // Makes this widget's ImGui context current (for event handlers of subclasses).
  void make_imgui_current() const;
  ImFont* font() const { return font_; }
  ImFont* bold_font() const { return bold_font_; }
  bool imgui_initialized() const { return ctx_ && gl_ready_; }
  // Asks for a few more frames: ImGui settles widgets over one or two frames after input.
  void request_frames(int n = 3);

  void initializeGL() override;
  void paintGL() override;

  void mousePressEvent(QMouseEvent* e) override;
  void mouseReleaseEvent(QMouseEvent* e) override;
  void mouseDoubleClickEvent(QMouseEvent* e) override;
  void mouseMoveEvent(QMouseEvent* e) override;
  void wheelEvent(QWheelEvent* e) override;
  void keyPressEvent(QKeyEvent* e) override;
  void keyReleaseEvent(QKeyEvent* e) override;
  void focusOutEvent(QFocusEvent* e) override;
  bool event(QEvent* e) override;

 private:
  void shutdown();
  void set_mouse(int button, bool down);
  void set_key(int key, bool down);

  ImGuiContext* ctx_ = nullptr;
  ImFont* font_ = nullptr;
  ImFont* bold_font_ = nullptr;
  bool gl_ready_ = false;
  // A press and its release can both arrive between two frames; 1.86 would never see it. A
  // button or key pressed since the last frame keeps reading down until one frame has seen it.
  std::array<bool, 5> mouse_pressed_since_frame_{}, mouse_release_pending_{};
  std::array<bool, 512> key_pressed_since_frame_{}, key_release_pending_{};
  int frames_wanted_ = 0;
  bool finish_frames_ = false;
  std::vector<double> frame_times_;
};

}  // namespace tfjsi::viewers
