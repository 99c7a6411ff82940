#include "precision_dock.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>
#include <cmath>
#include <unordered_map>

#include "graph_view.h"
#include "main_window.h"
#include "reduce_row.h"
#include "result_cells.h"
#include "run_controller.h"
#include "run_dock.h"

namespace tfjsi::ui {
namespace {

using analysis::Fp16NodeReport;
using analysis::Fp16Report;

QString number(double v) {
  if (std::isnan(v)) return QStringLiteral("nan");
  if (std::isinf(v)) return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
  return QString::number(v, 'g', 4);
}

QString rule_text(const analysis::HalfRule& r) {
  const QString rounding = r.rounding == analysis::HalfRounding::NearestEven
                               ? QObject::tr("rounds to nearest even")
                               : QObject::tr("rounds toward zero");
  const QString overflow = r.overflow == analysis::HalfOverflow::Inf
                               ? QObject::tr("a value past 65504 becomes inf")
                               : QObject::tr("a value past 65504 is clamped to 65504");
  return rounding + QStringLiteral(", ") + overflow;
}

const Fp16NodeReport* find_report(const Fp16Report& r, const std::string& name) {
  for (const auto& n : r.nodes)
    if (n.name == name) return &n;
  return nullptr;
}

}  // namespace

PrecisionDock::PrecisionDock(MainWindow& window) : CheckDock(tr("Precision"), window) {
  qRegisterMetaType<Fp16CheckRequest>();
  qRegisterMetaType<Fp16CheckResultPtr>();
  setObjectName("precisionDock");

  auto* body = new QWidget(this);
  auto* v = new QVBoxLayout(body);
  v->setContentsMargins(6, 4, 6, 4);
  v->setSpacing(4);

  auto* run_row = new QHBoxLayout;
  start_ = new QPushButton(tr("Check fp16"), body);
  start_->setObjectName("checkFp16Button");
  start_->setToolTip(
      tr("Runs the model in fp32 on cpu, then with every stored tensor rounded to half (and on gl "
         "fp16 where it runs), compares node by node and looks for the smallest set of nodes to "
         "keep in fp32."));
  cancel_ = new QPushButton(tr("Cancel"), body);
  cancel_->setObjectName("cancelFp16Button");
  cancel_->setToolTip(
      tr("Stops the check before its next node (the short gl driver probe "
         "runs to its end)."));
  progress_ = new QProgressBar(body);
  progress_->setObjectName("fp16Progress");
  progress_->setMaximumWidth(160);
  progress_->setTextVisible(false);
  stage_ = new QLabel(body);
  stage_->setObjectName("fp16Stage");
  stage_->setWordWrap(true);
  run_row->addWidget(start_);
  run_row->addWidget(cancel_);

  const analysis::Fp16CheckOptions defaults;
  rule_ = new QComboBox(body);
  rule_->addItem(tr("IEEE (nearest even, inf)"), 0);
  rule_->addItem(tr("Mesa (toward zero, clamp)"), 1);
  rule_->setToolTip(
      tr("How the cpu emulation stores a float as half. IEEE conversion is what "
         "most GPUs do; Mesa's llvmpipe truncates and clamps at 65504. The gl "
         "driver's own rule is probed and emulated too when it differs."));
  follow_ = new QComboBox(body);
  follow_->setObjectName("fp16FollowCombo");
  follow_->addItem(tr("TF.js webgl"), static_cast<int>(runtime::Fp16Follow::Webgl));
  follow_->addItem(tr("best accuracy"), static_cast<int>(runtime::Fp16Follow::Accuracy));
  follow_->setToolTip(
      tr("Where half floats are stored. Like TF.js webgl: where TF.js 4.22's webgl backend "
         "stores its fp16 textures (every op's output, the stages of its reductions and "
         "softmax), so the error predicts what TF.js users see. Best accuracy: only where this "
         "engine's kernels store. The emulation and the gl fp16 run both follow it."));
  use_gl_ = new QCheckBox(tr("gl fp16 too"), body);
  use_gl_->setChecked(defaults.use_gl);
  use_gl_->setToolTip(
      tr("Also probe the gl driver and run the model on gl with RGBA16F "
         "textures, where gl is available."));
  threshold_ = new QDoubleSpinBox(body);
  threshold_->setDecimals(4);
  threshold_->setRange(1e-4, 1.0);
  threshold_->setSingleStep(0.005);
  threshold_->setValue(defaults.node_threshold);
  threshold_->setToolTip(
      tr("A node is past the threshold when its fp16 error, relative to its "
         "own largest magnitude, is above this."));
  tolerance_ = new QDoubleSpinBox(body);
  tolerance_->setDecimals(4);
  tolerance_->setRange(1e-4, 1.0);
  tolerance_->setSingleStep(0.005);
  tolerance_->setValue(defaults.output_tolerance);
  tolerance_->setToolTip(
      tr("Outputs match fp32 when max |fp16 - fp32| <= tolerance x "
         "max(1, max |fp32|)."));
  // The options on two short rows beside and under the buttons: narrow enough for the summary's
  // half of the dock once the table shows, short enough before a result.
  run_row->addSpacing(8);
  run_row->addWidget(new QLabel(tr("Emulation:"), body));
  run_row->addWidget(rule_);
  run_row->addStretch(1);
  v->addLayout(run_row);
  auto* limits_row = new QHBoxLayout;
  limits_row->addWidget(use_gl_);
  limits_row->addSpacing(8);
  limits_row->addWidget(new QLabel(tr("Node threshold:"), body));
  limits_row->addWidget(threshold_);
  limits_row->addWidget(new QLabel(tr("Tolerance:"), body));
  limits_row->addWidget(tolerance_);
  limits_row->addStretch(1);
  v->addLayout(limits_row);
  auto* progress_row = new QHBoxLayout;
  // The third option shares the row of the progress and the stage text: the dock stays three
  // rows high before a result.
  progress_row->addWidget(new QLabel(tr("Round like:"), body));
  progress_row->addWidget(follow_);
  progress_row->addSpacing(8);
  progress_row->addWidget(progress_);
  progress_row->addWidget(stage_, 1);
  v->addLayout(progress_row);

  auto make_label = [body](const char* name) {
    auto* l = new QLabel(body);
    l->setObjectName(name);
    l->setWordWrap(true);
    l->setTextFormat(Qt::RichText);
    l->setTextInteractionFlags(Qt::TextBrowserInteraction);
    return l;
  };
  verdict_ = make_label("fp16Verdict");
  driver_ = make_label("fp16Driver");
  nodes_ = make_label("fp16Nodes");
  fix_ = make_label("fp16Fix");
  for (QLabel* l : {verdict_, driver_, nodes_, fix_}) {
    v->addWidget(l);
    connect(l, &QLabel::linkActivated, this, [this](const QString& href) {
      if (href.startsWith(QStringLiteral("node:")))
        activate_node(QUrl::fromPercentEncoding(href.mid(5).toLatin1()));
    });
  }

  graph_buttons_ = new QWidget(body);
  auto* graph_row = new QHBoxLayout(graph_buttons_);
  graph_row->setContentsMargins(0, 0, 0, 0);
  // Short labels: the three fit beside each other at 1280x800; the tooltips say the whole.
  colour_status_ = new QPushButton(tr("Colour by status"), body);
  colour_status_->setToolTip(tr("Colour the graph by each node's fp16 status."));
  colour_status_->setObjectName("colourByFp16Status");
  colour_error_ = new QPushButton(tr("Colour by error"), body);
  colour_error_->setObjectName("colourByFp16Error");
  colour_error_->setToolTip(tr("Each node's fp16 error against fp32 (emulation), log scale."));
  jump_ = new QPushButton(tr("Jump to overflow"), body);
  jump_->setToolTip(tr("Select and show the first node whose values pass 65504."));
  jump_->setObjectName("jumpToFirstOverflow");
  graph_row->addWidget(colour_status_);
  graph_row->addWidget(colour_error_);
  graph_row->addWidget(jump_);
  graph_row->addStretch(1);
  // Above the verdict's lines, which wrap long on a narrow screen: the buttons stay in view.
  v->insertWidget(v->indexOf(verdict_), graph_buttons_);

  // Right under the verdict it offers a repro of.
  reduce_row_ = new ReduceRow(window, body);
  v->insertWidget(v->indexOf(driver_), reduce_row_);

  v->addStretch(1);

  // The summary on the left, the table on the right: a bottom dock is wide and short.
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->setObjectName("precisionSplit");
  auto* scroll = new QScrollArea(split);
  scroll->setWidget(body);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  table_ = new QTableWidget(0, kColumns, split);
  table_->setObjectName("fp16NodeTable");
  table_->setHorizontalHeaderLabels({tr("Node"), tr("Op"), tr("max |x|"), tr("> 65504"),
                                     tr("subnormal"), tr("flushed"), tr("error (emul.)"),
                                     tr("error (gl fp16)")});
  table_->horizontalHeaderItem(kMaxAbs)->setToolTip(tr("Largest finite |x| in fp32"));
  table_->horizontalHeaderItem(kOverflow)->setToolTip(
      tr("Values past half's range in fp32: they become inf (or 65504) in half"));
  table_->horizontalHeaderItem(kSubnormal)
      ->setToolTip(
          tr("Values with 0 < |x| < 6.1e-5: subnormal in half, with fewer significant bits"));
  table_->horizontalHeaderItem(kFlushed)->setToolTip(
      tr("Values with 0 < |x| < 6e-8: zero in half"));
  table_->horizontalHeaderItem(kError)->setToolTip(
      tr("max |fp16 - fp32| relative to the node's largest |fp32|, cpu emulation"));
  table_->horizontalHeaderItem(kGlError)->setToolTip(
      tr("The same on gl with RGBA16F textures (empty when gl did not run)"));
  read_only_rows(table_);
  // Node names are long: the column keeps a readable width and the table scrolls sideways.
  table_->horizontalHeader()->setSectionResizeMode(kNode, QHeaderView::Interactive);
  table_->setColumnWidth(kNode, 200);
  table_->setTextElideMode(Qt::ElideMiddle);
  table_->setWordWrap(false);  // else a name breaks after a '/' and only its head shows
  table_->setSortingEnabled(true);
  split->addWidget(scroll);
  split->addWidget(table_);
  // Half each: at 1280x800 the summary's option rows then fit without cutting its lines.
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 1);
  split->setSizes({600, 600});  // scaled to the width the dock gets
  connect(table_, &QTableWidget::cellClicked, this, [this](int row, int) {
    if (auto* it = table_->item(row, kNode)) activate_node(it->text());
  });
  setWidget(split);

  connect(start_, &QPushButton::clicked, this, &PrecisionDock::start_check);
  connect(colour_status_, &QPushButton::clicked, this, &PrecisionDock::colour_by_status);
  connect(colour_error_, &QPushButton::clicked, this, &PrecisionDock::colour_by_error);
  connect(jump_, &QPushButton::clicked, this, &PrecisionDock::jump_to_first_overflow);

  // The run controller lives on the window's worker thread: these connections are queued.
  connect(window.run_controller(), &RunController::checkProgress, this,
          &PrecisionDock::on_progress);
  connect(&window, &MainWindow::checkFinished, this, &PrecisionDock::on_finished);
  connect(&window, &MainWindow::checkFailed, this, &PrecisionDock::on_failed);
  finish_setup();
}

void PrecisionDock::set_model(LoadedModelPtr model) {
  // Opening a model cancels a check under way (MainWindow::open_model); its answer is dropped.
  take_model(std::move(model));
}

void PrecisionDock::start_check() {
  if (busy_ || !model_) return;
  Fp16CheckRequest request;
  request.model = model_;
  if (settings_) {
    const RunRequest run = settings_();
    request.inputs = run.inputs;
    request.threads = run.threads;
  }
  request.options.rule =
      rule_->currentData().toInt() == 1
          ? analysis::HalfRule{analysis::HalfRounding::TowardZero, analysis::HalfOverflow::Clamp}
          : analysis::HalfRule{};
  request.options.use_gl = use_gl_->isChecked();
  request.options.follow = static_cast<runtime::Fp16Follow>(follow_->currentData().toInt());
  request.options.node_threshold = threshold_->value();
  request.options.output_tolerance = tolerance_->value();
  begin_job(window_.check_fp16(std::move(request)), tr("Check once it ends"));
}

void PrecisionDock::cancel_check() {
  cancel_job();
}

std::vector<QWidget*> PrecisionDock::option_widgets() const {
  return {rule_, follow_, use_gl_, threshold_, tolerance_};
}

void PrecisionDock::on_progress(int pass, const QString& stage, int done, int total) {
  if (!busy_) return;
  show_progress(tr("Run"), pass, stage, done, total);
}

void PrecisionDock::on_finished(Fp16CheckResultPtr result) {
  if (!busy_) return;
  set_busy(false);
  if (!result || result->model != model_) {
    // It ended before it saw the cancel that opening another model sent: dropped all the same.
    on_failed(tr("Cancelled"), true);
    return;
  }
  result_ = std::move(result);
  show_result();
  emit checkFinished(result_);
}

void PrecisionDock::on_failed(const QString& message, bool cancelled) {
  set_busy(false);
  show_stopped(cancelled, message, tr("Check cancelled."), tr("Check cancelled: %1."),
               tr("Check failed: %1"));
  emit checkFailed(message, cancelled);
}

void PrecisionDock::clear_result() {
  result_.reset();
  table_->setRowCount(0);
  verdict_->setText(model_ ? tr("Press <b>Check fp16</b> to find out whether this model survives "
                                "half-float storage (mobile WebGL).")
                           : tr("Open a model first."));
  verdict_->setStyleSheet({});
  driver_->clear();
  nodes_->clear();
  fix_->clear();
  for (QLabel* l : {driver_, nodes_, fix_}) l->hide();
  reduce_row_->offer(std::nullopt, QString());
  // Kept: why the last check stopped, when opening this model stopped it.
  if (cancel_reason_.isEmpty() || busy_) stage_->clear();
  colour_status_->setEnabled(false);
  colour_error_->setEnabled(false);
  jump_->setEnabled(false);
  set_compact(true);
}

int PrecisionDock::option_rows_height() const {
  return start_->sizeHint().height() + threshold_->sizeHint().height();
}

std::string PrecisionDock::status_of(const Fp16NodeReport& n, double threshold) {
  if (n.fp32.overflow > 0) return kOverflows;
  if (n.fp32.underflows(threshold)) return kUnderflows;
  if (n.error.relative() > threshold) return kPastThreshold;
  return kOk;
}

void PrecisionDock::show_result() {
  const Fp16Report& r = result_->report;
  const QString tol = QString::number(r.output_tolerance, 'g', 3);

  // The verdict.
  if (r.fp32_nonfinite) {
    verdict_->setText(
        tr("<b>Not checked:</b> %1.")
            .arg(QString::fromStdString(r.fp32_nonfinite->message()).toHtmlEscaped()));
    verdict_->setStyleSheet(QStringLiteral("color: #b00020"));
  } else if (r.fp16_safe) {
    verdict_->setText(tr("<b>fp16-safe.</b> No value leaves half's range and the outputs stay "
                         "within %1 of fp32 (max error %2, emulation).")
                          .arg(tol, error_text(r.max_output_error)));
    verdict_->setStyleSheet(QStringLiteral("color: #1b5e20"));
  } else {
    const QString why = r.first_overflow    ? tr("values pass 65504")
                        : r.first_underflow ? tr("values flush to zero")
                                            : tr("rounding error reaches the outputs");
    verdict_->setText(tr("<b>Not fp16-safe:</b> %1; max output error %2 against fp32 "
                         "(tolerance %3, emulation).")
                          .arg(why, error_text(r.max_output_error), tol));
    verdict_->setStyleSheet(QStringLiteral("color: #b00020"));
  }

  // The driver, the rule the emulation followed, and how each fp16 run did at the outputs.
  QStringList d;
  if (r.probe.available) {
    const bool inf = r.driver_rule && r.driver_rule->overflow == analysis::HalfOverflow::Inf;
    d << tr("<b>gl driver:</b> overflow to <b>%1</b> (%2; probe %3)")
             .arg(inf ? QStringLiteral("inf") : tr("clamp"),
                  r.driver_rule ? rule_text(*r.driver_rule) : QString(),
                  r.probe.store.exact ? tr("exact") : tr("nearest match"));
  } else if (!r.probe.reason.empty()) {
    d << tr("<b>gl driver:</b> not probed (%1)")
             .arg(QString::fromStdString(r.probe.reason).toHtmlEscaped());
  } else {
    d << tr("<b>gl driver:</b> not probed (gl fp16 was not asked for)");
  }
  d << tr("<b>Emulation:</b> %1").arg(rule_text(r.rule));
  d << tr("<b>fp16 follows:</b> %1")
           .arg(r.follow == runtime::Fp16Follow::Webgl
                    ? tr("TF.js webgl (rounds where its fp16 textures store)")
                    : tr("best accuracy (rounds only where this engine's kernels store)"));
  QStringList runs{tr("emulation %1").arg(error_text(r.max_output_error))};
  if (r.driver_rule && *r.driver_rule != r.rule && r.driver_max_output_error)
    runs << tr("emulation under the driver's rule %1").arg(error_text(*r.driver_max_output_error));
  if (r.gl_max_output_error) runs << tr("gl fp16 %1").arg(error_text(*r.gl_max_output_error));
  if (!r.gl_run_error.empty())
    runs
        << tr("gl fp16 run failed: %1").arg(QString::fromStdString(r.gl_run_error).toHtmlEscaped());
  d << tr("<b>Output error:</b> %1").arg(runs.join(QStringLiteral("; ")));
  driver_->setText(d.join(QStringLiteral("<br>")));

  // The named nodes and the path the error takes.
  QStringList n;
  auto detail = [&](const std::optional<std::string>& name) {
    if (!name) return tr("none");
    QString s = node_link(*name);
    if (const auto* nr = find_report(r, *name)) {
      QStringList facts{QString::fromStdString(nr->op),
                        tr("max |x| %1").arg(number(nr->fp32.max_abs))};
      if (nr->fp32.overflow) facts << tr("%1 values past 65504").arg(nr->fp32.overflow);
      if (nr->fp32.flushed) facts << tr("%1 flushed to zero").arg(nr->fp32.flushed);
      facts << tr("error %1").arg(error_text(nr->error.relative()));
      s += QStringLiteral(" <i>(%1)</i>").arg(facts.join(QStringLiteral(", ")));
    }
    return s;
  };
  n << tr("<b>First overflow:</b> %1").arg(detail(r.first_overflow));
  if (r.first_underflow) n << tr("<b>First underflow:</b> %1").arg(detail(r.first_underflow));
  n << tr("<b>First past the threshold (%1):</b> %2")
           .arg(QString::number(r.node_threshold, 'g', 3), detail(r.first_error));
  if (r.gl_first_error && r.gl_first_error != r.first_error)
    n << tr("<b>On gl fp16, first past the threshold:</b> %1").arg(node_link(*r.gl_first_error));
  if (!r.error_path.empty()) {
    QStringList steps;
    for (const auto& s : r.error_path)
      steps << node_link(s.node) + QStringLiteral(" ") + error_text(s.error);
    n << tr("<b>Error path to the outputs:</b> %1").arg(steps.join(QStringLiteral(" &rarr; ")));
  }
  nodes_->setText(n.join(QStringLiteral("<br>")));

  // The fix, as checked by a mixed run.
  if (r.fp32_nodes.empty()) {
    fix_->setText(
        r.fixed ? tr("<b>Fix:</b> none needed.")
                : tr("<b>Fix:</b> no set of fp32 nodes found in %1 mixed runs.").arg(r.fix_runs));
  } else {
    QStringList keep;
    for (const auto& k : r.fp32_nodes) keep << node_link(k);
    fix_->setText(
        tr("<b>Keep in fp32:</b> %1. Checked by a mixed fp16/fp32 run: max output error %2 "
           "(tolerance %3): %4")
            .arg(keep.join(QStringLiteral(", ")), error_text(r.fixed_max_error), tol,
                 r.fixed ? tr("<b>outputs back within tolerance</b>.")
                         : tr("<b>still outside tolerance</b>.")));
  }
  for (QLabel* l : {driver_, nodes_, fix_}) l->show();

  // What a repro can be cut down to: the fp32 run's own NaN or inf when there is one (then that
  // is the verdict), else the first overflow.
  if (r.fp32_nonfinite && !r.fp32_nonfinite->node.empty()) {
    analysis::ReduceCondition c;
    c.kind = analysis::ReduceConditionKind::Nonfinite;
    c.backend = "cpu";
    reduce_row_->offer(c, tr("the first NaN or inf of the fp32 run on cpu"));
  } else if (r.first_overflow) {
    analysis::ReduceCondition c;
    c.kind = analysis::ReduceConditionKind::Fp16Overflow;
    reduce_row_->offer(c, tr("the fp16 overflow at %1")
                              .arg(QString::fromStdString(*r.first_overflow).toHtmlEscaped()));
  } else {
    reduce_row_->offer(std::nullopt, QString());
  }

  set_compact(false);
  fill_table();
  colour_status_->setEnabled(true);
  colour_error_->setEnabled(true);
  jump_->setEnabled(r.first_overflow.has_value());
  jump_->setToolTip(r.first_overflow ? QString::fromStdString(*r.first_overflow)
                                     : tr("No node overflows."));
  stage_->setText(tr("Checked in %1 s (%2 mixed runs in the fix search).")
                      .arg(result_->ms / 1000.0, 0, 'f', 1)
                      .arg(r.fix_runs));
  stage_->setStyleSheet({});
}

void PrecisionDock::fill_table() {
  const Fp16Report& r = result_->report;
  table_->setSortingEnabled(false);
  table_->setRowCount(static_cast<int>(r.nodes.size()));
  int row = 0;
  for (const auto& n : r.nodes) {
    const std::string status = status_of(n, r.node_threshold);
    auto* name = new QTableWidgetItem(QString::fromStdString(n.name));
    name->setToolTip(QString::fromStdString(n.name + "\n" + status));
    table_->setItem(row, kNode, name);
    table_->setItem(row, kOp, new QTableWidgetItem(QString::fromStdString(n.op)));
    if (n.float_outputs) {
      table_->setItem(row, kMaxAbs, new NumberItem(number(n.fp32.max_abs), n.fp32.max_abs));
      table_->setItem(
          row, kOverflow,
          new NumberItem(QString::number(n.fp32.overflow), static_cast<double>(n.fp32.overflow)));
      table_->setItem(
          row, kSubnormal,
          new NumberItem(QString::number(n.fp32.subnormal), static_cast<double>(n.fp32.subnormal)));
      table_->setItem(
          row, kFlushed,
          new NumberItem(QString::number(n.fp32.flushed), static_cast<double>(n.fp32.flushed)));
    } else {
      for (int c : {kMaxAbs, kOverflow, kSubnormal, kFlushed})
        table_->setItem(row, c, new NumberItem(QStringLiteral("-"), -1));
    }
    const double e = n.error.relative();
    table_->setItem(row, kError, new NumberItem(error_text(e), e));
    if (n.gl_error) {
      const double g = n.gl_error->relative();
      auto* gi = new NumberItem(error_text(g), g);
      if (n.gl_backend != "gl")
        gi->setToolTip(tr("Ran on %1 in the gl run").arg(QString::fromStdString(n.gl_backend)));
      table_->setItem(row, kGlError, gi);
    } else {
      table_->setItem(row, kGlError, new NumberItem(QString(), -1));
    }
    QColor tint;
    if (status == kOverflows)
      tint = QColor(230, 60, 60, 70);
    else if (status == kUnderflows)
      tint = QColor(60, 110, 230, 60);
    else if (status == kPastThreshold)
      tint = QColor(240, 160, 40, 70);
    if (tint.isValid())
      for (int c = 0; c < kColumns; ++c) table_->item(row, c)->setBackground(tint);
    ++row;
  }
  table_->setSortingEnabled(true);
  table_->sortItems(kError, Qt::DescendingOrder);  // worst first
}

void PrecisionDock::colour_by_status() {
  if (!result_ || !view_) return;
  const Fp16Report& r = result_->report;
  std::unordered_map<std::string, std::string> status;
  for (const auto& n : r.nodes) status[n.name] = status_of(n, r.node_threshold);
  view_->set_node_categories(
      tr("fp16 status (threshold %1)").arg(QString::number(r.node_threshold, 'g', 3)), status);
}

void PrecisionDock::colour_by_error() {
  if (!result_ || !view_) return;
  std::unordered_map<std::string, double> error;
  for (const auto& n : result_->report.nodes) error[n.name] = n.error.relative();
  view_->set_node_values(tr("fp16 error (relative, emulation)"), error, true);
}

void PrecisionDock::jump_to_first_overflow() {
  if (result_ && result_->report.first_overflow)
    activate_node(QString::fromStdString(*result_->report.first_overflow));
}

}  // namespace tfjsi::ui
