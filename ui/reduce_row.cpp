#include "reduce_row.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include "main_window.h"
#include "result_cells.h"
#include "run_controller.h"
#include "run_dock.h"

namespace tfjsi::ui {
namespace {

QString canonical(const QString& file) {
  const QFileInfo fi(file);
  const QString c = fi.canonicalFilePath();
  return c.isEmpty() ? fi.absoluteFilePath() : c;
}

QString html(const std::string& s) {
  return QString::fromStdString(s).toHtmlEscaped();
}

}  // namespace

ReduceRow::ReduceRow(MainWindow& window, QWidget* parent) : QWidget(parent), window_(window) {
  setObjectName("reduceRow");
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(0, 0, 0, 0);
  v->setSpacing(2);
  auto* row = new QHBoxLayout;
  reduce_ = new QPushButton(tr("Reduce to a repro..."), this);
  reduce_->setObjectName("reduceButton");
  cancel_ = new QPushButton(tr("Cancel"), this);
  cancel_->setObjectName("cancelReduceButton");
  cancel_->setToolTip(tr("Stops the reduction at its next node; nothing is written."));
  progress_ = new QProgressBar(this);
  progress_->setObjectName("reduceProgress");
  progress_->setMaximumWidth(160);
  progress_->setTextVisible(false);
  row->addWidget(reduce_);
  row->addWidget(cancel_);
  row->addWidget(progress_);
  row->addStretch(1);
  v->addLayout(row);
  status_ = new QLabel(this);
  status_->setObjectName("reduceStatus");
  status_->setWordWrap(true);
  status_->setTextFormat(Qt::RichText);
  status_->setTextInteractionFlags(Qt::TextBrowserInteraction);
  v->addWidget(status_);

  connect(reduce_, &QPushButton::clicked, this, &ReduceRow::start);
  connect(cancel_, &QPushButton::clicked, this, &ReduceRow::cancel);
  // The run controller lives on the window's worker thread: these connections are queued.
  connect(window.run_controller(), &RunController::reduceProgress, this, &ReduceRow::on_progress);
  connect(&window, &MainWindow::reduceFinished, this, &ReduceRow::on_finished);
  connect(&window, &MainWindow::reduceFailed, this, &ReduceRow::on_failed);
  connect(&window, &MainWindow::requestOpen, this, [this] {
    if (reducing_) cancel_reason_ = tr("another model was opened");
  });
  set_reducing(false);
  status_->hide();
}

void ReduceRow::offer(std::optional<analysis::ReduceCondition> condition, const QString& what) {
  condition_ = std::move(condition);
  what_ = what;
  if (condition_)
    reduce_->setToolTip(
        tr("Cut the model down to the smallest subgraph that still shows %1 (condition %2), with "
           "the tensors it cuts at recorded as inputs, and write it to a new folder as a bundle "
           "TF.js loads, with repro.js; then open it here.")
            .arg(what_, QString::fromStdString(condition_->text())));
  set_reducing(reducing_);
}

void ReduceRow::set_model(LoadedModelPtr model) {
  model_ = std::move(model);
  const bool written_is_open =
      model_ && !written_.isEmpty() &&
      canonical(QString::fromStdString(model_->bundle.model_json.string())) == written_;
  if (!written_is_open && !reducing_ && cancel_reason_.isEmpty()) {
    status_->clear();
    status_->hide();
  }
  if (written_is_open) feed_written_inputs();
  if (!reducing_) cancel_reason_.clear();
  condition_.reset();  // the dock offers again once it has a finding for this model
  set_reducing(reducing_);
}

void ReduceRow::feed_written_inputs() {
  // The values recorded at the cuts, beside model.json: without them the generator's inputs
  // would not show the condition.
  const QString dir = QFileInfo(written_).absolutePath();
  QFile f(QDir(dir).filePath(QStringLiteral("inputs.json")));
  if (!f.open(QIODevice::ReadOnly)) return;
  for (const QJsonValue& v : QJsonDocument::fromJson(f.readAll()).array()) {
    const QJsonObject in = v.toObject();
    window_.run_dock()->set_input(in.value(QStringLiteral("name")).toString(), InputKind::Npy,
                                  QDir(dir).filePath(in.value(QStringLiteral("file")).toString()));
  }
}

QString ReduceRow::default_folder() const {
  if (!model_) return QDir::homePath();
  // Beside the model's folder: the reduced bundle is a new folder next to it.
  return QFileInfo(QString::fromStdString(model_->bundle.dir.string())).absolutePath();
}

void ReduceRow::start() {
  if (reducing_ || !condition_ || !model_) return;
  const QString folder =
      choose_ ? choose_()
              : QFileDialog::getExistingDirectory(
                    this, tr("Reduce to a repro: a new or empty folder for the bundle"),
                    default_folder());
  if (folder.isEmpty()) return;
  start_in(folder);
}

bool ReduceRow::start_in(const QString& folder) {
  if (reducing_ || !condition_ || !model_) return false;
  ReduceRequest request;
  request.model = model_;
  request.condition = *condition_;
  request.out = folder;
  if (settings_) {
    const RunRequest run = settings_();
    request.inputs = run.inputs;
    request.threads = run.threads;
  }
  if (!window_.reduce(std::move(request))) {
    say(tr("Not now: %1. Reduce once it ends.").arg(window_.busy_with()));
    return false;
  }
  folder_ = folder;
  cancel_reason_.clear();
  result_.reset();
  set_reducing(true);
  progress_->setRange(0, 0);
  say(tr("Running the whole model to find the node that shows %1...").arg(what_));
  return true;
}

void ReduceRow::cancel() {
  if (reducing_) window_.cancel_run();
}

void ReduceRow::set_reducing(bool reducing) {
  reducing_ = reducing;
  reduce_->setVisible(condition_.has_value() || reducing);
  reduce_->setEnabled(!reducing && condition_ && model_);
  cancel_->setVisible(reducing);
  cancel_->setEnabled(reducing);
  progress_->setVisible(reducing);
  setVisible(reduce_->isVisibleTo(this) || !status_->text().isEmpty());
}

void ReduceRow::say(const QString& text, bool error) {
  status_->setText(text);
  status_->setStyleSheet(error ? QStringLiteral("color: #b00020") : QString());
  status_->setVisible(!text.isEmpty());
  setVisible(reduce_->isVisibleTo(this) || !text.isEmpty());
}

void ReduceRow::on_progress(int step, const QString& phase, int nodes, bool holds, int smallest) {
  if (!reducing_) return;
  const int total = model_ ? static_cast<int>(model_->graph->nodes.size()) : 0;
  say(tr("Step %1 (%2): a candidate of %3 nodes %4; <b>%5 nodes left</b> of %6.")
          .arg(step)
          .arg(phase.toHtmlEscaped())
          .arg(nodes)
          .arg(holds ? tr("still shows it") : tr("does not"))
          .arg(smallest)
          .arg(total));
}

void ReduceRow::on_finished(ReduceResultPtr result) {
  if (!reducing_) return;
  set_reducing(false);
  result_ = std::move(result);
  written_ = canonical(result_->model_json);
  const QString files = result_->inputs == 1
                            ? tr("model.json, its input as .npy, repro.js")
                            : tr("model.json, %1 inputs as .npy, repro.js").arg(result_->inputs);
  say(tr("<b>Reduced:</b> %1 of %2 nodes kept, in %3 steps (%4). Culprit: %5. Written to "
         "<b>%6</b> (%7), and opened here with its inputs in the Run panel; run it in TF.js with "
         "<tt>node repro.js</tt> there.")
          .arg(result_->nodes_after)
          .arg(result_->nodes_before)
          .arg(result_->steps)
          .arg(duration_text(result_->seconds))
          .arg(html(result_->summary), result_->out.toHtmlEscaped(), files));
  emit reduceFinished(result_);
  window_.open_model(result_->out);  // as File > Open Folder would
}

void ReduceRow::on_failed(const QString& message, bool cancelled) {
  if (!reducing_) return;
  set_reducing(false);
  if (cancelled)
    say(cancel_reason_.isEmpty()
            ? tr("Reduction cancelled; nothing was written to %1.").arg(folder_.toHtmlEscaped())
            : tr("Reduction cancelled (%1); nothing was written to %2.")
                  .arg(cancel_reason_, folder_.toHtmlEscaped()));
  else
    say(tr("Reduction failed: %1").arg(message.toHtmlEscaped()), true);
  emit reduceFailed(message, cancelled);
}

}  // namespace tfjsi::ui
