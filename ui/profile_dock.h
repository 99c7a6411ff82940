// The Profile panel: where a run's time went, per node and per op, from the RunController's
// Profiler records. For each backend and precision it keeps the first run's profile (programs
// built, weights uploaded or packed) and the last warm one side by side; a sortable table, slowest
// first by default, with the slowest node named above it; the gl backend's shader compile and
// upload time and disk-cache hit; a bar chart of the top 15 rows. Double-clicking a row selects
// its node in the graph.
#pragma once

#include <QDockWidget>
#include <map>
#include <string>
#include <vector>

#include "loaded_model.h"
#include "run_result.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;

namespace tfjsi::ui {

class BarChart;

class ProfileDock : public QDockWidget {
  Q_OBJECT
 public:
  // Builds: the gl programs the first run built from source, each with the node that needed it.
  enum class View { Nodes, Ops, Builds };
  // Columns of the table in each view. The time columns sort by value.
  // Times come right after the name, so that a narrow dock still shows them.
  enum NodeColumn { NodeName, NodeWarmMs, NodeFirstMs, NodeShare, NodeOp, NodeBackend, NodeCalls };
  enum OpColumn { OpName, OpWarmMs, OpFirstMs, OpShare, OpCalls, OpNodes };
  enum BuildColumn { BuildKernel, BuildMs, BuildWhere, BuildVariant, BuildNode };
  static constexpr int kChartBars = 15;

  explicit ProfileDock(QWidget* parent = nullptr);

  void set_model(LoadedModelPtr model);  // forgets every profile
  void show_result(const RunResultPtr& result);
  void set_view(View v);
  View view() const { return view_; }

  QTableView* table() const { return table_; }
  QSortFilterProxyModel* proxy() const { return proxy_; }
  QStandardItemModel* source() const { return model_items_; }
  QComboBox* view_combo() const { return view_combo_; }
  QLineEdit* filter_edit() const { return filter_; }
  BarChart* chart() const { return chart_; }
  QLabel* slowest_label() const { return slowest_; }
  QLabel* gl_label() const { return gl_; }
  QLabel* runs_label() const { return runs_; }
  // The node named on the slowest line (empty before a run).
  const std::string& slowest_node() const { return slowest_node_; }
  // The time column the table is sorted by when the user has not chosen one.
  int default_sort_column() const;

 signals:
  void nodeActivated(const QString& name);

 private:
  struct Profile {
    bool present = false;
    std::uint64_t run_id = 0;
    double run_ms = 0;
    std::vector<NodeRun> nodes;
    GlRunStats gl;
  };
  struct Profiles {
    Profile first, warm;
  };
  void rebuild();
  // The table and chart of the Nodes and Ops views, and of the Builds view.
  void show_rows(const Profiles* p);
  void show_builds(const Profiles* p);
  void activate(const QModelIndex& proxy_index);
  const Profiles* current() const;

  LoadedModelPtr model_;
  std::map<std::string, Profiles> by_config_;  // "gl fp16", "cpu", ...
  std::string config_;                         // the last result's
  View view_ = View::Nodes;
  bool user_sorted_ = false;
  std::string slowest_node_;

  QLabel* runs_;
  QLabel* slowest_;
  QPushButton* show_slowest_;
  QLabel* gl_;
  QComboBox* view_combo_;
  QLineEdit* filter_;
  QTableView* table_;
  QStandardItemModel* model_items_;
  QSortFilterProxyModel* proxy_;
  BarChart* chart_;
};

}  // namespace tfjsi::ui
