// The Memory panel: the engine's tensors, data buffers and bytes per backend, plus what the buffer
// pool keeps cached, as plots over the samples the RunController sends (after every run and every
// second while idle); a verdict whether memory stayed flat across the last runs on a backend; the
// tensors alive after the last run with the node that made each; and Reset.
#pragma once

#include <QDockWidget>
#include <string>
#include <vector>

#include "loaded_model.h"
#include "run_result.h"

class QLabel;
class QPushButton;
class QTreeWidget;

namespace tfjsi::ui {

class LinePlot;

class MemoryDock : public QDockWidget {
  Q_OBJECT
 public:
  // The series keep at most this many samples (the oldest go first).
  static constexpr std::size_t kMaxSamples = 3000;
  // How far byte counts may move between runs and still be "the same memory": a backend's
  // bookkeeping (a program cache entry, a driver object) moves them by a few hundred bytes; a
  // leaked tensor also shows in the tensor count, which must not move at all.
  static constexpr std::size_t kByteSlack = 64 * 1024;

  explicit MemoryDock(QWidget* parent = nullptr);

  // Clears the plots, the live tensors and the verdict: they were the last model's.
  void set_model(LoadedModelPtr model);
  // A new reading; a reset one clears the plots first.
  void add_sample(MemorySample sample);
  // Clears the plots and asks for the engine-side reset (resetRequested).
  void reset();

  // Every sample plotted, oldest first (their `live` lists are not kept).
  const std::vector<MemorySample>& samples() const { return samples_; }
  // The backends the byte plot has a series for, in registration order.
  const std::vector<std::string>& backends() const { return backends_; }
  LinePlot* bytes_plot() const { return bytes_; }
  LinePlot* counts_plot() const { return counts_; }
  QTreeWidget* live_tree() const { return live_; }
  QLabel* verdict_label() const { return verdict_; }
  QPushButton* reset_button() const { return reset_; }

  // Whether the samples taken after runs on `backend`, from the second such run on (the first
  // allocates weights copies, programs and the pool's cache), all hold the same tensors and
  // buffers and bytes within kByteSlack; false when fewer than three runs were sampled. `why` says
  // what moved. (The verdict line judges the last two of these runs only.)
  bool flat_after_first_run(const std::string& backend, QString* why = nullptr) const;

 signals:
  void resetRequested();
  void nodeActivated(const QString& name);  // a live tensor's creator was double-clicked

 private:
  void replot();
  void show_live(const MemorySample& s);
  void update_verdict();
  // The latest stretch of samples taken after runs on `backend`, oldest first.
  std::vector<const MemorySample*> latest_runs(const std::string& backend) const;

  LoadedModelPtr model_;
  std::vector<MemorySample> samples_;
  std::vector<std::string> backends_;
  QLabel* summary_;
  QLabel* verdict_;
  LinePlot* bytes_;
  LinePlot* counts_;
  QTreeWidget* live_;
  QPushButton* reset_;
};

}  // namespace tfjsi::ui
