// The Environment panel: every engine flag with its value, type and description, editable where
// it can change (a check box for a bool, a spin box for a number, a text field for text; detected
// facts read-only), sent to the RunController to set on the worker thread; the backends with
// whether they can run here and why not; the gl context (vendor, renderer, version) and what its
// RGBA16F stores do with values past half's range (the fp16 probe); every op of TF.js's converter
// with the backends that run it natively (as `tfjsi env --ops`).
#pragma once

#include <QDockWidget>
#include <map>
#include <string>
#include <vector>

#include "run_result.h"

class QLabel;
class QLineEdit;
class QTabWidget;
class QTableWidget;
class QTreeWidget;
class QWidget;

namespace tfjsi::ui {

class EnvDock : public QDockWidget {
  Q_OBJECT
 public:
  // Each flag takes two table rows: name, value and type; then its description across them.
  enum Column { FlagName, FlagValue, FlagType };
  static int name_row(int flag) { return 2 * flag; }
  static int help_row(int flag) { return 2 * flag + 1; }

  explicit EnvDock(QWidget* parent = nullptr);

  // The engine's state as the controller read it; editors follow without emitting flagEdited.
  void show_environment(const EnvInfo& env);
  void show_rejected(const QString& name, const QString& message);

  const EnvInfo& environment() const { return env_; }
  QTableWidget* flags_table() const { return flags_; }
  QTreeWidget* backends_tree() const { return backends_; }
  QTreeWidget* gl_tree() const { return gl_; }
  // One row per op: op, category, then one column per backend ("yes", "cpu", "executor", "-").
  QTreeWidget* ops_tree() const { return ops_; }
  QLineEdit* ops_filter() const { return ops_filter_; }
  // Pages: 0 the engine (flags, backends, gl), 1 the ops.
  QTabWidget* tabs() const { return tabs_; }
  QLabel* message_label() const { return message_; }
  // The editor of a flag (QCheckBox, QSpinBox, QDoubleSpinBox or QLineEdit), or null.
  QWidget* editor(const QString& name) const;

 signals:
  // The user changed a flag: its new value as text, the way Flags::set takes it.
  void flagEdited(const QString& name, const QString& value);

 private:
  void rebuild_flags();
  void update_values();
  void edited(const std::string& name, const QString& text);
  void show_ops();
  void filter_ops(const QString& text);

  EnvInfo env_;
  std::vector<std::string> shown_;  // flag names the table has editors for, in order
  std::map<std::string, QWidget*> editors_;
  QTableWidget* flags_;
  QTreeWidget* backends_;
  QTreeWidget* gl_;
  QTabWidget* tabs_;
  QTreeWidget* ops_;
  QLineEdit* ops_filter_;
  QLabel* ops_summary_;
  QLabel* message_;
};

}  // namespace tfjsi::ui
