#include "quantize_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

#include "main_window.h"
#include "result_cells.h"
#include "run_controller.h"

namespace tfjsi::ui {
namespace {

QString size_text(std::uint64_t bytes) {
  return QLocale::system().formattedDataSize(static_cast<qint64>(bytes));
}

QString drift_text(double d) {
  if (std::isinf(d)) return QStringLiteral("inf");
  if (std::isnan(d)) return QStringLiteral("nan");
  return QString::number(d, 'g', 3);
}

QString dtype_name(model::Quantization q) {
  return QString::fromLatin1(model::to_string(q).data(),
                             static_cast<qsizetype>(model::to_string(q).size()));
}

}  // namespace

QuantizeDialog::QuantizeDialog(MainWindow& window) : QDialog(&window), window_(window) {
  qRegisterMetaType<QuantizeRequest>();
  qRegisterMetaType<QuantizeResultPtr>();
  setObjectName("quantizeDialog");
  setWindowTitle(tr("Quantize weights"));
  auto* v = new QVBoxLayout(this);

  model_label_ = new QLabel(this);
  model_label_->setObjectName("quantizeModel");
  model_label_->setWordWrap(true);
  v->addWidget(model_label_);

  auto* form = new QFormLayout;
  dtype_ = new QComboBox(this);
  dtype_->setObjectName("quantizeDtype");
  for (const auto q :
       {model::Quantization::Float16, model::Quantization::Uint16, model::Quantization::Uint8})
    dtype_->addItem(dtype_name(q), static_cast<int>(q));
  dtype_->setCurrentIndex(2);
  dtype_->setToolTip(
      tr("float16: 2 bytes a weight; uint16 and uint8: 2 and 1 bytes, affine (scale and min per "
         "weight), as tensorflowjs_converter's --quantize_* options write them."));
  form->addRow(tr("Dtype:"), dtype_);
  keep_ = new QPlainTextEdit(this);
  keep_->setObjectName("quantizeKeepFloat");
  keep_->setPlaceholderText(tr("Optional: weights to keep float32, one glob a line (conv2d_1/*)"));
  keep_->setToolTip(
      tr("Globs on whole weight names (*, ?, [seq]), as the converter's patterns; each must name "
         "at least one weight."));
  keep_->setFixedHeight(3 * fontMetrics().lineSpacing() + 12);
  form->addRow(tr("Keep float32:"), keep_);
  auto* folder_row = new QHBoxLayout;
  folder_ = new QLineEdit(this);
  folder_->setObjectName("quantizeFolder");
  folder_->setToolTip(tr("A new or empty folder for the quantized bundle."));
  browse_ = new QPushButton(tr("Browse..."), this);
  folder_row->addWidget(folder_, 1);
  folder_row->addWidget(browse_);
  form->addRow(tr("Write to:"), folder_row);
  tolerance_ = new QDoubleSpinBox(this);
  tolerance_->setObjectName("quantizeTolerance");
  tolerance_->setDecimals(4);
  tolerance_->setRange(1e-5, 1.0);
  tolerance_->setSingleStep(0.005);
  tolerance_->setValue(analysis::AdviceOptions{}.tolerance);
  tolerance_->setToolTip(
      tr("Advise recommends the smallest bundle whose output drift (max |quantized - float| / "
         "max(1, max |float|), on cpu) is within this."));
  form->addRow(tr("Tolerance:"), tolerance_);
  v->addLayout(form);

  auto* buttons = new QHBoxLayout;
  advise_ = new QPushButton(tr("Advise"), this);
  advise_->setObjectName("quantizeAdvise");
  advise_->setToolTip(
      tr("Measure on cpu every dtype's drift against float32 and the weight groups whose "
         "keeping float32 recovers most of it (several model runs); nothing is written."));
  write_ = new QPushButton(tr("Write"), this);
  write_->setObjectName("quantizeWrite");
  write_->setDefault(true);
  write_->setToolTip(tr("Write the quantized bundle to the folder, then measure its drift."));
  cancel_ = new QPushButton(tr("Cancel"), this);
  cancel_->setObjectName("quantizeCancel");
  progress_ = new QProgressBar(this);
  progress_->setMaximumWidth(120);
  progress_->setTextVisible(false);
  progress_->setRange(0, 0);
  buttons->addWidget(advise_);
  buttons->addWidget(write_);
  buttons->addWidget(cancel_);
  buttons->addWidget(progress_);
  buttons->addStretch(1);
  v->addLayout(buttons);
  status_ = new QLabel(this);
  status_->setObjectName("quantizeStatus");
  status_->setWordWrap(true);
  status_->setTextFormat(Qt::PlainText);  // messages quote names and paths as they are
  v->addWidget(status_);

  table_ = new QTableWidget(0, kColumns, this);
  table_->setObjectName("quantizeAdviceTable");
  table_->setHorizontalHeaderLabels(
      {tr("dtype"), tr("kept float32"), tr("bundle size"), tr("drift")});
  table_->horizontalHeaderItem(kKept)->setToolTip(
      tr("Weight groups (the weights one op reads) kept float32; the row adds the last one"));
  table_->horizontalHeaderItem(kDrift)->setToolTip(
      tr("max over outputs of max |quantized - float| / max(1, max |float|), cpu"));
  read_only_rows(table_);
  table_->horizontalHeader()->setSectionResizeMode(kKept, QHeaderView::Stretch);
  table_->setTextElideMode(Qt::ElideMiddle);
  table_->setWordWrap(false);
  table_->setMinimumHeight(150);
  v->addWidget(table_, 1);

  result_ = new QLabel(this);
  result_->setObjectName("quantizeResult");
  result_->setWordWrap(true);
  result_->setTextFormat(Qt::RichText);
  result_->setTextInteractionFlags(Qt::TextBrowserInteraction);
  v->addWidget(result_);

  auto* bottom = new QDialogButtonBox(this);
  open_ = bottom->addButton(tr("Open It"), QDialogButtonBox::ActionRole);
  open_->setObjectName("quantizeOpen");
  open_->setToolTip(tr("Open the bundle written, as File > Open would."));
  bottom->addButton(QDialogButtonBox::Close);
  v->addWidget(bottom);
  resize(620, 560);

  connect(bottom, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(advise_, &QPushButton::clicked, this, &QuantizeDialog::start_advice);
  connect(write_, &QPushButton::clicked, this, &QuantizeDialog::start_write);
  connect(cancel_, &QPushButton::clicked, this, &QuantizeDialog::cancel);
  connect(open_, &QPushButton::clicked, this, &QuantizeDialog::open_result);
  connect(browse_, &QPushButton::clicked, this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("A new or empty folder for the quantized bundle"),
        QFileInfo(folder_->text()).absolutePath());
    if (!dir.isEmpty()) folder_->setText(dir);
  });
  connect(dtype_, &QComboBox::currentIndexChanged, this, [this] {
    // A folder we proposed follows the dtype; one the user typed stays.
    if (folder_->text() == suggested_) {
      suggested_ = suggested_folder();
      folder_->setText(suggested_);
    }
  });
  connect(table_, &QTableWidget::cellClicked, this, [this](int row, int) { pick_option(row); });

  // The run controller lives on the window's worker thread: these connections are queued.
  connect(window.run_controller(), &RunController::quantizeProgress, this,
          &QuantizeDialog::on_progress);
  connect(&window, &MainWindow::quantizeFinished, this, &QuantizeDialog::on_finished);
  connect(&window, &MainWindow::quantizeFailed, this, &QuantizeDialog::on_failed);
  connect(&window, &MainWindow::requestOpen, this, [this] {
    if (busy_) cancel_reason_ = tr("another model was opened");
  });
  set_busy(false);
}

QString QuantizeDialog::suggested_folder() const {
  if (!model_) return QString();
  // Beside the model's folder, named after it and the dtype (as `tfjsi quantize --advise`
  // proposes).
  const QFileInfo dir(QDir::cleanPath(QString::fromStdString(model_->bundle.dir.string())));
  const QString json =
      QFileInfo(QString::fromStdString(model_->bundle.model_json.string())).completeBaseName();
  const QString name = json == QStringLiteral("model") ? dir.fileName() : json;
  // A model.json beside others (the corpus): the new folder goes beside it, else beside its
  // folder.
  const QString parent =
      json == QStringLiteral("model") ? dir.absolutePath() : dir.absoluteFilePath();
  return QDir(parent).filePath(name + QLatin1Char('-') + dtype_->currentText());
}

void QuantizeDialog::set_model(LoadedModelPtr model) {
  model_ = std::move(model);
  advice_.reset();
  written_.reset();
  table_->setRowCount(0);
  result_->clear();
  if (!busy_ && cancel_reason_.isEmpty()) say(QString());
  keep_->clear();
  if (model_) {
    model_label_->setText(tr("Model: %1 (%2 weights)")
                              .arg(QString::fromStdString(model_->bundle.model_json.string()))
                              .arg(model_->bundle.weights.size()));
    suggested_ = suggested_folder();
    folder_->setText(suggested_);
  } else {
    model_label_->setText(tr("Open a model first."));
  }
  set_busy(busy_);
}

model::Quantization QuantizeDialog::dtype() const {
  return static_cast<model::Quantization>(dtype_->currentData().toInt());
}

std::vector<std::string> QuantizeDialog::keep_float() const {
  std::vector<std::string> out;
  for (const QString& line : keep_->toPlainText().split('\n')) {
    const QString p = line.trimmed();
    if (!p.isEmpty()) out.push_back(p.toStdString());
  }
  return out;
}

bool QuantizeDialog::send(QuantizeRequest request) {
  if (busy_ || !model_) return false;
  const RunRequest run = window_.run_settings();
  request.inputs = run.inputs;
  request.threads = run.threads;
  const bool advise = request.advise;
  if (!window_.quantize(std::move(request))) {
    say(tr("Not now: %1. Try once it ends.").arg(window_.busy_with()));
    return false;
  }
  advising_ = advise;
  cancel_reason_.clear();
  set_busy(true);
  return true;
}

void QuantizeDialog::start_advice() {
  QuantizeRequest request;
  request.advise = true;
  request.tolerance = tolerance_->value();
  if (send(std::move(request))) say(tr("Measuring: the float32 run first..."));
}

void QuantizeDialog::start_write() {
  if (folder_->text().trimmed().isEmpty()) {
    say(tr("Give a folder to write the bundle to."), true);
    return;
  }
  QuantizeRequest request;
  request.dtype = dtype();
  request.keep_float = keep_float();
  request.out = QDir::cleanPath(folder_->text().trimmed());
  if (send(std::move(request))) {
    result_->clear();
    written_.reset();
    open_->setEnabled(false);
    say(tr("Writing %1...").arg(dtype_->currentText()));
  }
}

void QuantizeDialog::cancel() {
  if (busy_) window_.cancel_run();
}

void QuantizeDialog::open_result() {
  if (written_) window_.open_model(written_->out);
}

void QuantizeDialog::set_busy(bool busy) {
  busy_ = busy;
  for (QWidget* w : std::initializer_list<QWidget*>{advise_, write_, dtype_, keep_, folder_,
                                                    browse_, tolerance_, table_})
    w->setEnabled(!busy && model_);
  cancel_->setEnabled(busy);
  progress_->setVisible(busy);
  open_->setEnabled(!busy && written_ != nullptr);
}

void QuantizeDialog::say(const QString& text, bool error) {
  status_->setText(text);
  status_->setStyleSheet(error ? QStringLiteral("color: #b00020") : QString());
}

void QuantizeDialog::on_progress(const QString& line) {
  if (busy_) say(tr("Measured %1").arg(line));
}

void QuantizeDialog::on_finished(QuantizeResultPtr result) {
  if (!busy_) return;
  set_busy(false);
  if (!result || result->model != model_) {
    on_failed(tr("Cancelled"), true);
    return;
  }
  if (result->advise) {
    advice_ = std::move(result);
    show_advice();
    emit adviceFinished(advice_);
    return;
  }
  written_ = std::move(result);
  const analysis::WrittenQuantization& w = written_->written;
  const double ratio = w.float_bytes ? double(w.bytes) / double(w.float_bytes) : 1.0;
  QString text =
      tr("<b>Wrote</b> %1 with %2 weights quantized to %3, %4 kept float32: shards %5, %6x of "
         "float32's %7.")
          .arg(written_->out.toHtmlEscaped())
          .arg(w.quantized)
          .arg(dtype_name(w.dtype))
          .arg(w.kept_float.size() + w.not_quantizable.size())
          .arg(size_text(w.bytes))
          .arg(ratio, 0, 'f', 2)
          .arg(size_text(w.float_bytes));
  if (w.drift)
    text += tr(" Drift against float32 on cpu: <b>%1</b>.").arg(drift_text(*w.drift));
  else
    text += tr(" The drift was not measured: %1.")
                .arg(QString::fromStdString(w.drift_error).toHtmlEscaped());
  if (!w.not_quantizable.empty())
    text += tr(" %n weight(s) hold a NaN or inf and stay float32.", nullptr,
               static_cast<int>(w.not_quantizable.size()));
  result_->setText(text);
  say(tr("Done in %1. Open It opens the bundle here.").arg(duration_text(written_->ms / 1000.0)));
  open_->setEnabled(true);
  emit writeFinished(written_);
}

void QuantizeDialog::on_failed(const QString& message, bool cancelled) {
  if (!busy_) return;
  set_busy(false);
  if (cancelled)
    say(cancel_reason_.isEmpty()
            ? (advising_ ? tr("Advice cancelled.") : tr("Cancelled; no folder was written."))
            : tr("Cancelled: %1.").arg(cancel_reason_));
  else
    say((advising_ ? tr("Advice failed: %1") : tr("Quantizing failed: %1")).arg(message), true);
  emit failed(message, cancelled);
}

void QuantizeDialog::show_advice() {
  const analysis::QuantizeAdvice& a = advice_->advice;
  table_->setRowCount(static_cast<int>(a.options.size()));
  for (std::size_t i = 0; i < a.options.size(); ++i) {
    const analysis::QuantizeOption& o = a.options[i];
    const int row = static_cast<int>(i);
    const bool best = a.recommended == i;
    auto* d =
        new QTableWidgetItem(dtype_name(o.dtype) + (best ? tr("  (recommended)") : QString()));
    QString groups;
    for (const auto& g : o.kept_groups)
      groups += (groups.isEmpty() ? "" : ", ") + QString::fromStdString(g);
    auto* kept = new QTableWidgetItem(
        o.kept_groups.empty() ? tr("none") : tr("%1: %2").arg(o.kept_groups.size()).arg(groups));
    kept->setToolTip(groups.isEmpty() ? tr("every float32 weight quantized") : groups);
    auto* bytes = new NumberItem(size_text(o.bytes), static_cast<double>(o.bytes));
    auto* drift = new NumberItem(drift_text(o.drift), o.drift);
    if (!(o.drift <= a.tolerance)) drift->setForeground(QColor(0xb0, 0x00, 0x20));
    table_->setItem(row, kDtype, d);
    table_->setItem(row, kKept, kept);
    table_->setItem(row, kBytes, bytes);
    table_->setItem(row, kDrift, drift);
    if (best) {
      QFont f = d->font();
      f.setBold(true);
      for (QTableWidgetItem* it :
           {static_cast<QTableWidgetItem*>(d), kept, static_cast<QTableWidgetItem*>(bytes),
            static_cast<QTableWidgetItem*>(drift)})
        it->setFont(f);
    }
  }
  if (a.recommended) {
    const int row = static_cast<int>(*a.recommended);
    table_->selectRow(row);
    pick_option(row);
    say(tr("%1 quantized runs on cpu in %2; float32 weights %3. Recommended: the smallest "
           "bundle within the tolerance %4 (selected; pick another row to change).")
            .arg(a.runs)
            .arg(duration_text(advice_->ms / 1000.0))
            .arg(size_text(a.float_bytes))
            .arg(a.tolerance, 0, 'g', 3));
  } else {
    say(tr("%1 quantized runs on cpu: no option is within the tolerance %2; keep float32, or "
           "raise the tolerance.")
            .arg(a.runs)
            .arg(a.tolerance, 0, 'g', 3),
        true);
  }
}

void QuantizeDialog::pick_option(int row) {
  if (!advice_ || row < 0 || row >= static_cast<int>(advice_->advice.options.size())) return;
  const analysis::QuantizeOption& o = advice_->advice.options[static_cast<std::size_t>(row)];
  dtype_->setCurrentIndex(dtype_->findData(static_cast<int>(o.dtype)));
  QStringList lines;
  for (const auto& p : o.keep_float) lines << QString::fromStdString(p);
  keep_->setPlainText(lines.join('\n'));
}

}  // namespace tfjsi::ui
