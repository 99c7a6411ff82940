#include "run_dock.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

namespace tfjsi::ui {
namespace {

QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

QString bytes_text(std::size_t b) {
  if (b >= (1u << 20))
    return QObject::tr("%1 MiB").arg(static_cast<double>(b) / (1 << 20), 0, 'f', 1);
  return QObject::tr("%1 KiB").arg(static_cast<double>(b) / 1024, 0, 'f', 1);
}

}  // namespace

RunDock::RunDock(QWidget* parent) : QDockWidget(tr("Run"), parent) {
  setObjectName("runDock");
  auto* body = new QWidget(this);
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(4, 4, 4, 4);

  auto* form = new QFormLayout;
  backend_ = new QComboBox(body);
  backend_->setObjectName("backendCombo");
  backend_->setToolTip(tr("The backend the next run uses; switching needs no reload."));
  form->addRow(tr("Backend"), backend_);
  fp16_ = new QCheckBox(tr("fp16 textures"), body);
  fp16_->setObjectName("fp16Box");
  fp16_->setToolTip(
      tr("gl only: fp16 tensors, as on many mobile GPUs (fp32 when off); stored as flag "
         "gl.fp16_storage says (RGBA16F, or RGBA32F rounded the same way), where flag "
         "fp16_follow says (webgl: where TF.js's webgl backend stores half floats)."));
  form->addRow(tr("Precision"), fp16_);
  threads_ = new QSpinBox(body);
  threads_->setObjectName("threadsBox");
  threads_->setRange(0, 256);
  threads_->setSpecialValueText(tr("auto"));
  threads_->setToolTip(tr("Threads for cpu and xnnpack kernels; auto is one per core."));
  form->addRow(tr("Threads"), threads_);
  layout->addLayout(form);

  auto* inputs_group = new QGroupBox(tr("Inputs"), body);
  auto* inputs_layout = new QVBoxLayout(inputs_group);
  inputs_layout->setContentsMargins(2, 2, 2, 2);
  inputs_box_ = new QWidget(inputs_group);
  inputs_form_ = new QFormLayout(inputs_box_);
  inputs_form_->setRowWrapPolicy(QFormLayout::WrapAllRows);
  inputs_form_->setContentsMargins(2, 2, 2, 2);
  auto* scroll = new QScrollArea(inputs_group);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidget(inputs_box_);
  inputs_layout->addWidget(scroll);
  layout->addWidget(inputs_group);

  keep_ = new QCheckBox(tr("Keep intermediates (select a node to see its output)"), body);
  keep_->setObjectName("keepIntermediates");
  layout->addWidget(keep_);
  rerun_ = new QCheckBox(tr("Run again when the backend or precision changes"), body);
  rerun_->setObjectName("rerunOnChange");
  rerun_->setChecked(true);
  layout->addWidget(rerun_);

  auto* bench_row = new QHBoxLayout;
  warmup_ = new QSpinBox(body);
  warmup_->setObjectName("warmupBox");
  warmup_->setRange(0, 10000);
  warmup_->setValue(3);
  warmup_->setPrefix(tr("warmup "));
  runs_ = new QSpinBox(body);
  runs_->setObjectName("runsBox");
  runs_->setRange(1, 1000000);
  runs_->setValue(10);
  runs_->setPrefix(tr("runs "));
  bench_row->addWidget(warmup_);
  bench_row->addWidget(runs_);
  layout->addLayout(bench_row);

  auto* buttons = new QHBoxLayout;
  run_ = new QPushButton(tr("Run"), body);
  run_->setObjectName("runButton");
  run_->setToolTip(tr("Run once (F5)"));
  bench_ = new QPushButton(tr("Benchmark"), body);
  bench_->setObjectName("benchmarkButton");
  bench_->setToolTip(tr("First run, warmup runs, then timed runs: median, min, first"));
  cancel_ = new QPushButton(tr("Cancel"), body);
  cancel_->setObjectName("cancelButton");
  cancel_->setToolTip(tr("Stop at the next node, or while gl builds its kernels (Esc)"));
  buttons->addWidget(run_);
  buttons->addWidget(bench_);
  buttons->addWidget(cancel_);
  layout->addLayout(buttons);
  progress_ = new QProgressBar(body);
  progress_->setObjectName("runProgress");
  progress_->hide();
  layout->addWidget(progress_);
  result_ = new QLabel(body);
  result_->setObjectName("runResult");
  result_->setWordWrap(true);
  result_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(result_);
  auto* colour_row = new QFormLayout;
  colour_ = new QComboBox(body);
  colour_->setObjectName("colourCombo");
  colour_->addItem(tr("Op family"), static_cast<int>(GraphColour::OpFamily));
  colour_->addItem(tr("Backend (gl, xnnpack, cpu fallback)"),
                   static_cast<int>(GraphColour::Backend));
  colour_->addItem(tr("Time per node (log)"), static_cast<int>(GraphColour::Time));
  colour_->addItem(tr("fp16 status (Precision panel)"), static_cast<int>(GraphColour::Fp16Status));
  colour_->addItem(tr("fp16 error (Precision panel)"), static_cast<int>(GraphColour::Fp16Error));
  colour_->addItem(tr("Compare error (Compare panel)"),
                   static_cast<int>(GraphColour::CompareError));
  colour_->addItem(tr("FLOPs per node (log)"), static_cast<int>(GraphColour::Flops));
  colour_->setCurrentIndex(0);  // what the graph shows before any run
  set_fp16_colours_enabled(false);
  set_compare_colours_enabled(false);
  colour_->setToolTip(
      tr("What the graph's colours show: op family until a run, then the "
         "backend, time or fp16 check result you choose; FLOPs (from the shapes) at any time"));
  colour_row->addRow(tr("Colour graph by"), colour_);
  layout->addLayout(colour_row);
  layout->addStretch(1);
  setWidget(body);
  connect(colour_, &QComboBox::currentIndexChanged, this, &RunDock::graphColourChanged);

  connect(run_, &QPushButton::clicked, this, [this] { emit runRequested(false); });
  connect(bench_, &QPushButton::clicked, this, [this] { emit runRequested(true); });
  connect(cancel_, &QPushButton::clicked, this, &RunDock::cancelRequested);
  connect(backend_, &QComboBox::currentIndexChanged, this, [this] {
    update_enabled();
    if (!running_ && !has_outcome_) show_idle();
    emit settingsChanged();
  });
  connect(fp16_, &QCheckBox::toggled, this, [this] {
    if (!running_ && !has_outcome_) show_idle();
    emit settingsChanged();
  });
  update_enabled();
  show_idle();
}

void RunDock::show_idle() {
  result_->setStyleSheet({});
  if (!model_) {
    result_->setText(tr("No model open: File > Open (Ctrl+O), or drop a model.json here."));
    return;
  }
  const QString backend = backend_->currentData().toString();
  if (backend.isEmpty()) {
    result_->setText(tr("Model open; waiting for the backends..."));
    return;
  }
  const QString where =
      backend + (backend == "gl" ? (fp16_->isChecked() ? " fp16" : " fp32") : QString());
  // "model.json" alone says little: a bundle folder's name says which model.
  const auto& json = model_->bundle.model_json;
  const std::string name = json.filename() == "model.json" && json.has_parent_path()
                               ? (json.parent_path().filename() / json.filename()).string()
                               : json.filename().string();
  result_->setText(
      tr("Ready: <b>Run</b> (F5) runs %1 on %2.").arg(qs(name).toHtmlEscaped(), where));
}

void RunDock::set_backends(const BackendList& backends) {
  const QSignalBlocker block(backend_);
  backend_->clear();
  auto* model = qobject_cast<QStandardItemModel*>(backend_->model());
  int best = -1, best_priority = 0;
  for (const auto& b : backends) {
    backend_->addItem(b.name, b.name);
    QStandardItem* item = model->item(backend_->count() - 1);
    if (!b.available) {
      item->setEnabled(false);
      item->setText(tr("%1 (unavailable)").arg(b.name));
      item->setToolTip(tr("%1 cannot run here: %2").arg(b.name, b.reason));
    } else {
      item->setToolTip(tr("%1 is available").arg(b.name));
      // The engine's own default: the available backend of highest priority.
      if (best < 0 || b.priority > best_priority) {
        best = backend_->count() - 1;
        best_priority = b.priority;
      }
    }
  }
  if (best >= 0) backend_->setCurrentIndex(best);
  update_enabled();
  if (!running_ && !has_outcome_) show_idle();
}

void RunDock::set_model(LoadedModelPtr model) {
  model_ = std::move(model);
  while (inputs_form_->rowCount()) inputs_form_->removeRow(0);
  rows_.clear();
  has_outcome_ = false;
  if (!running_) show_idle();
  if (!model_) {
    update_enabled();
    return;
  }
  rows_.reserve(model_->graph->inputs.size());
  for (const auto& e : model_->graph->inputs) {
    auto* line = new QWidget(inputs_box_);
    auto* h = new QHBoxLayout(line);
    h->setContentsMargins(0, 0, 0, 0);
    InputRow row{e.name, new QComboBox(line), new QLineEdit(line), new QPushButton(tr("..."), line),
                 new QComboBox(line)};
    row.source->setObjectName(qs("source:" + e.name));
    row.source->addItem(tr("Generator"), static_cast<int>(InputKind::Generator));
    row.source->addItem(tr("Zeros"), static_cast<int>(InputKind::Zeros));
    row.source->addItem(tr(".npy file"), static_cast<int>(InputKind::Npy));
    row.source->addItem(tr("Image"), static_cast<int>(InputKind::Image));
    row.source->setToolTip(tr("Generator: DESIGN.md's deterministic values, as tfjsi uses"));
    row.path->setObjectName(qs("path:" + e.name));
    row.path->setPlaceholderText(tr("file"));
    row.browse->setMaximumWidth(32);
    row.scale->setObjectName(qs("scale:" + e.name));
    row.scale->addItem(tr("[0,1]"), static_cast<int>(ImageScale::Unit));
    row.scale->addItem(tr("[-1,1]"), static_cast<int>(ImageScale::Signed));
    row.scale->addItem(tr("0..255"), static_cast<int>(ImageScale::Bytes));
    row.scale->setToolTip(tr("How image bytes become values"));
    h->addWidget(row.source);
    h->addWidget(row.path, 1);
    h->addWidget(row.browse);
    h->addWidget(row.scale);
    const QString label = qs(e.name) + "  " + qs(e.shape.to_string()) + " " +
                          qs(std::string(to_string(e.dtype.value_or(DType::Float32))));
    inputs_form_->addRow(label, line);
    rows_.push_back(row);
    const std::size_t i = rows_.size() - 1;
    connect(row.source, &QComboBox::currentIndexChanged, this, [this] { update_enabled(); });
    connect(row.browse, &QPushButton::clicked, this, [this, i] { browse(rows_[i]); });
  }
  update_enabled();
}

void RunDock::browse(InputRow& row) {
  const auto kind = static_cast<InputKind>(row.source->currentData().toInt());
  const QString filter = kind == InputKind::Image
                             ? tr("Images (*.png *.jpg *.jpeg *.bmp *.gif);;All files (*)")
                             : tr("NumPy arrays (*.npy);;All files (*)");
  const QString file =
      QFileDialog::getOpenFileName(this, tr("Values for %1").arg(qs(row.name)), QString(), filter);
  if (!file.isEmpty()) row.path->setText(file);
}

void RunDock::set_input(const QString& input, InputKind kind, const QString& path,
                        ImageScale scale) {
  for (auto& row : rows_) {
    if (qs(row.name) != input) continue;
    row.source->setCurrentIndex(row.source->findData(static_cast<int>(kind)));
    row.path->setText(path);
    row.scale->setCurrentIndex(row.scale->findData(static_cast<int>(scale)));
  }
}

RunRequest RunDock::request(bool benchmark) const {
  RunRequest r;
  r.backend = backend_->currentData().toString().toStdString();
  if (r.backend.empty()) r.backend = "cpu";
  r.fp16 = fp16_->isChecked() && r.backend == "gl";
  r.threads = threads_->value();
  r.keep_intermediates = keep_->isChecked();
  r.benchmark = benchmark;
  r.warmup = warmup_->value();
  r.runs = runs_->value();
  for (const auto& row : rows_)
    r.inputs.push_back({row.name, static_cast<InputKind>(row.source->currentData().toInt()),
                        row.path->text(),
                        static_cast<ImageScale>(row.scale->currentData().toInt())});
  return r;
}

GraphColour RunDock::graph_colour() const {
  return static_cast<GraphColour>(colour_->currentData().toInt());
}

void RunDock::show_graph_colour(GraphColour c) {
  const QSignalBlocker quiet(colour_);
  colour_->setCurrentIndex(colour_->findData(static_cast<int>(c)));
}

void RunDock::set_fp16_colours_enabled(bool enabled) {
  auto* items = qobject_cast<QStandardItemModel*>(colour_->model());
  for (GraphColour c : {GraphColour::Fp16Status, GraphColour::Fp16Error})
    if (QStandardItem* it = items->item(colour_->findData(static_cast<int>(c))))
      it->setEnabled(enabled);
}

void RunDock::set_compare_colours_enabled(bool enabled) {
  auto* items = qobject_cast<QStandardItemModel*>(colour_->model());
  if (QStandardItem* it =
          items->item(colour_->findData(static_cast<int>(GraphColour::CompareError))))
    it->setEnabled(enabled);
}

void RunDock::update_enabled() {
  const bool gl = backend_->currentData().toString() == "gl";
  fp16_->setEnabled(gl);
  fp16_->setToolTip(gl ? tr("fp16 tensors, as on many mobile GPUs (fp32 when off); stored as "
                            "flag gl.fp16_storage says (RGBA16F, or RGBA32F rounded the same way), "
                            "where flag fp16_follow says (webgl: where TF.js's webgl backend "
                            "stores half floats)")
                       : tr("Only the gl backend has a texture precision"));
  const bool can_run = model_ && backend_->count() > 0 && !running_;
  run_->setEnabled(can_run);
  bench_->setEnabled(can_run);
  cancel_->setEnabled(running_);
  for (auto& row : rows_) {
    const auto kind = static_cast<InputKind>(row.source->currentData().toInt());
    const bool file = kind == InputKind::Npy || kind == InputKind::Image;
    row.path->setEnabled(file);
    row.browse->setEnabled(file);
    row.scale->setVisible(kind == InputKind::Image);
  }
}

void RunDock::set_running(bool running, const QString& what) {
  if (running && !running_) {
    before_busy_ = result_->text();
    before_busy_style_ = result_->styleSheet();
  }
  if (running) {
    progress_->setRange(0, 0);  // busy until a benchmark says how far it is
    progress_->setFormat(tr("%p%"));
    progress_->show();
    result_->setText(what.isEmpty() ? tr("Running...") : what.toHtmlEscaped() + "...");
    result_->setStyleSheet({});
  } else {
    progress_->hide();
    if (running_) {  // show_result or show_error may follow and say more
      if (has_outcome_) {
        result_->setText(before_busy_);
        result_->setStyleSheet(before_busy_style_);
      } else {
        running_ = false;
        show_idle();
      }
    }
  }
  running_ = running;
  update_enabled();
}

void RunDock::show_progress(int done, int total) {
  progress_->setFormat(tr("%p%"));
  progress_->setRange(0, total);
  progress_->setValue(done);
}

void RunDock::show_compile_progress(const QString& stage, int done, int total) {
  if (!running_) return;
  if (total > 0) {
    progress_->setRange(0, total);
    progress_->setValue(done);
    progress_->setFormat(tr("%v of %m"));
    result_->setText(tr("%1 %2 of %3 gl kernels...").arg(stage).arg(done).arg(total));
  } else {
    progress_->setRange(0, 0);
    result_->setText(tr("%1 gl kernels: %2 done...").arg(stage).arg(done));
  }
  result_->setStyleSheet({});
}

void RunDock::show_result(const RunResult& r) {
  const QString where = qs(r.backend) + (r.backend == "gl" ? (r.fp16 ? " fp16" : " fp32") : "") +
                        tr(", %1 threads").arg(r.threads);
  QString text;
  if (r.benchmark)
    text = tr("<b>Benchmark</b> on %1: median %2 ms, min %3 ms, max %4 ms, first %5 ms "
              "(%6 runs after %7 warmup)")
               .arg(where)
               .arg(r.median_ms, 0, 'f', 2)
               .arg(r.min_ms, 0, 'f', 2)
               .arg(r.max_ms, 0, 'f', 2)
               .arg(r.first_ms, 0, 'f', 2)
               .arg(r.runs)
               .arg(r.warmup);
  else if (r.gl_first.present && r.gl_first.compile_ms > 0)
    // Compiling is not the run's time: say how much of the first run it was.
    // A cold gl run is two runs: the first builds the programs, the second is the run's time.
    text = r.first_ms > 0 ? tr("<b>Ran</b> on %1: first run %2 ms (%3 ms compiling %4 kernels), "
                               "then %5 ms")
                                .arg(where)
                                .arg(r.first_ms, 0, 'f', 0)
                                .arg(r.gl_first.compile_ms, 0, 'f', 0)
                                .arg(r.gl_first.new_programs)
                                .arg(r.run_ms, 0, 'f', 2)
                          : tr("<b>Ran</b> on %1: first run %2 ms (%3 ms compiling %4 kernels)")
                                .arg(where)
                                .arg(r.run_ms, 0, 'f', 0)
                                .arg(r.gl_first.compile_ms, 0, 'f', 0)
                                .arg(r.gl_first.new_programs);
  else
    text = tr("<b>Ran</b> on %1 in %2 ms").arg(where).arg(r.run_ms, 0, 'f', 2);
  if (r.benchmark && r.gl_first.present && r.gl_first.compile_ms > 0)
    text += tr("<br>The first run includes %1 ms compiling %2 kernels")
                .arg(r.gl_first.compile_ms, 0, 'f', 0)
                .arg(r.gl_first.new_programs);
  text += tr("<br>Peak tensor memory %1; live after: %2 tensors, %3")
              .arg(bytes_text(r.peak_bytes))
              .arg(r.memory.total.num_tensors)
              .arg(bytes_text(r.memory.total.num_bytes));
  if (!r.fallbacks.empty())
    text += tr("<br>%1 nodes fell back to cpu (first: %2)")
                .arg(r.fallbacks.size())
                .arg(qs(r.fallbacks.front()).toHtmlEscaped());
  if (!r.intermediates_note.empty()) text += "<br>" + qs(r.intermediates_note).toHtmlEscaped();
  result_->setText(text);
  result_->setStyleSheet({});
  has_outcome_ = true;
}

void RunDock::show_error(const QString& message, bool cancelled) {
  result_->setText(cancelled ? tr("Cancelled.")
                             : tr("<b>Run failed:</b> %1").arg(message.toHtmlEscaped()));
  result_->setStyleSheet(cancelled ? QString() : QStringLiteral("color: #b00020"));
  has_outcome_ = true;
}

}  // namespace tfjsi::ui
