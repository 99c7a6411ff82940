#include "graph_export.h"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "graph_layout.h"
#include "graph_png.h"
#include "graph_scene.h"
#include "graph_style.h"
#include "imgui_widget.h"
#include "svg_export.h"

namespace tfjsi::viewers {
namespace {

std::string extension(const std::filesystem::path& file) {
  std::string e = file.extension().string();
  std::transform(e.begin(), e.end(), e.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return e;
}

// An ImGui context of its own, only to measure text with the canvas's fonts.
class Measurer {
 public:
  Measurer() : previous_(ImGui::GetCurrentContext()), ctx_(ImGui::CreateContext()) {
    ImGui::SetCurrentContext(ctx_);
    ImGui::GetIO().IniFilename = nullptr;
    fonts_ = add_canvas_fonts(ImGui::GetIO());
  }
  ~Measurer() {
    ImGui::DestroyContext(ctx_);
    ImGui::SetCurrentContext(previous_);
  }
  Measurer(const Measurer&) = delete;
  Measurer& operator=(const Measurer&) = delete;
  std::vector<Vec2> sizes(const Scene& scene) const {
    return measure_items(scene, fonts_.regular, fonts_.bold);
  }
  std::vector<float> titles(const Scene& scene) const {
    return measure_cluster_titles(scene, fonts_.bold);
  }

 private:
  ImGuiContext* previous_;
  ImGuiContext* ctx_;
  CanvasFonts fonts_;
};

}  // namespace

bool is_graph_export_file(const std::filesystem::path& file) {
  const std::string e = extension(file);
  return e == ".png" || e == ".svg";
}

QString export_graph(const graph::Graph& graph, const std::filesystem::path& file) {
  if (!is_graph_export_file(file))
    throw std::invalid_argument("cannot tell the format of " + file.string() +
                                ": name it .png or .svg");
  // As GraphView::set_graph opens a model.
  const ScopeTree tree(graph, /*show_const=*/false);
  std::set<std::string> open;
  if (tree.visible_node_count() > kCollapseBudget) {
    open = tree.initial_open(kCollapseBudget);
  } else {
    for (const auto& g : tree.groups())
      if (!g.path.empty()) open.insert(g.path);
  }
  const Scene scene = build_scene(graph, tree, open);
  std::vector<Vec2> sizes;
  std::vector<float> titles;
  {
    const Measurer m;
    sizes = m.sizes(scene);
    titles = m.titles(scene);
  }
  const Layout layout = compute_layout(scene, sizes, kClusterHeader, titles);
  if (extension(file) == ".svg") {
    write_svg(file, scene, layout, -1, nullptr);
    return {};
  }
  return write_png(file, scene, layout, -1, nullptr).note;
}

}  // namespace tfjsi::viewers
