#include "check_dock.h"

#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QTimer>
#include <algorithm>

#include "graph_view.h"
#include "main_window.h"
#include "reduce_row.h"

namespace tfjsi::ui {

CheckDock::CheckDock(const QString& title, MainWindow& window)
    : QDockWidget(title, &window), window_(window), view_(window.graph_view()) {
  // Opening a model cancels the job; say why when the cancel comes back, before the new model.
  connect(&window, &MainWindow::requestOpen, this, [this] {
    if (busy_) cancel_reason_ = tr("another model was opened");
  });
}

void CheckDock::finish_setup() {
  connect(cancel_, &QPushButton::clicked, this, &CheckDock::cancel_job);
  set_busy(false);
  clear_result();
}

void CheckDock::take_model(LoadedModelPtr model) {
  if (busy_) cancel_reason_ = tr("another model was opened");
  model_ = std::move(model);
  reduce_row_->set_model(model_);
  clear_result();
  if (!busy_) cancel_reason_.clear();  // said once, beside the new model
  set_busy(busy_);
}

void CheckDock::set_run_settings(std::function<RunRequest()> settings) {
  settings_ = settings;
  reduce_row_->set_run_settings(std::move(settings));
}

bool CheckDock::activate_node(const QString& name) {
  if (!view_) return false;
  const int n = view_->find_node(name);
  if (n < 0) {
    stage_->setText(tr("%1 is not a node of the main graph.").arg(name));
    return false;
  }
  view_->select_node(n, true);
  if (const int row = row_of_node(name); row >= 0) {
    table_->selectRow(row);
    table_->scrollToItem(table_->item(row, scroll_column()));
  }
  return true;
}

void CheckDock::cancel_job() {
  if (busy_) window_.cancel_run();
}

void CheckDock::set_busy(bool busy) {
  busy_ = busy;
  start_->setEnabled(!busy && model_);
  cancel_->setEnabled(busy);
  progress_->setVisible(busy);
  for (QWidget* w : option_widgets()) w->setEnabled(!busy);
}

void CheckDock::begin_job(bool accepted, const QString& retry) {
  if (!accepted) {
    stage_->setText(tr("Not now: %1. %2.").arg(window_.busy_with(), retry));
    stage_->setStyleSheet({});
    return;
  }
  cancel_reason_.clear();
  set_busy(true);
  progress_->setRange(0, 0);
  stage_->setText(tr("Starting..."));
  stage_->setStyleSheet({});
}

int CheckDock::row_of_node(const QString&) const {
  return -1;
}

int CheckDock::compact_height() const {
  // The title bar, the option rows, and three lines for the verdict and the progress (the
  // labels' own size hints assume a narrow width and would ask for many wrapped lines).
  const int title = 24, margins = 8, spacing = 4 * 4;
  // A note of the reduction that opened this model shows under the verdict.
  const int note = reduce_row_ && !reduce_row_->isHidden() ? 3 * fontMetrics().lineSpacing() : 0;
  return title + margins + option_rows_height() + spacing + 3 * fontMetrics().lineSpacing() + note;
}

void CheckDock::set_compact(bool compact) {
  if (compact == compact_) return;
  compact_ = compact;
  table_->setVisible(!compact);
  graph_buttons_->setVisible(!compact);
  if (isFloating() || window_.dockWidgetArea(this) == Qt::NoDockWidgetArea) return;
  window_.resizeDocks(
      {this}, {compact ? compact_height() : std::min(320, window_.height() * 2 / 5)}, Qt::Vertical);
}

void CheckDock::showEvent(QShowEvent* e) {
  QDockWidget::showEvent(e);
  if (shown_) return;
  shown_ = true;
  // The window lays its docks out from their size hints when first shown, which would give this
  // dock the table's height: once that is done, size it for what it shows.
  QTimer::singleShot(0, this, [this] {
    compact_ = !compact_;
    set_compact(!compact_);
  });
}

void CheckDock::show_progress(const QString& step, int pass, const QString& stage, int done,
                              int total) {
  progress_->setRange(0, total);
  progress_->setValue(done);
  stage_->setText(
      tr("%1 %2: %3, node %4 of %5").arg(step).arg(pass).arg(stage).arg(done).arg(total));
}

void CheckDock::show_stopped(bool cancelled, const QString& message, const QString& cancelled_text,
                             const QString& cancelled_because, const QString& failed) {
  if (!cancelled) {
    show_error(failed.arg(message));
    return;
  }
  stage_->setText(cancel_reason_.isEmpty() ? cancelled_text
                                           : cancelled_because.arg(cancel_reason_));
  stage_->setStyleSheet({});
}

void CheckDock::show_error(const QString& message) {
  stage_->setText(message);
  stage_->setStyleSheet(QStringLiteral("color: #b00020"));
}

}  // namespace tfjsi::ui
