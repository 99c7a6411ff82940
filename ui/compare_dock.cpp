#include "compare_dock.h"

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
#include <QVBoxLayout>
#include <algorithm>
#include <unordered_map>

#include "graph_view.h"
#include "main_window.h"
#include "precision_dock.h"
#include "reduce_row.h"
#include "result_cells.h"
#include "run_controller.h"
#include "run_dock.h"

namespace tfjsi::ui {
namespace {

using analysis::CompareBackend;
using analysis::CompareNode;

const CompareSide kSides[] = {{"cpu", false}, {"xnnpack", false}, {"gl", false}, {"gl", true}};

QString side_key(const CompareSide& s) {
  return QString::fromStdString(s.backend) + (s.fp16 ? QStringLiteral(":fp16") : QString());
}

CompareSide side_of(const QComboBox* combo) {
  const QString key = combo->currentData().toString();
  return {key.section(':', 0, 0).toStdString(), key.endsWith(QStringLiteral(":fp16"))};
}

QComboBox* side_combo(QWidget* parent, const char* name, const CompareSide& initial) {
  auto* c = new QComboBox(parent);
  c->setObjectName(name);
  for (const CompareSide& s : kSides) c->addItem(s.label(), side_key(s));
  c->setCurrentIndex(c->findData(side_key(initial)));
  return c;
}

// The node's error on the side under test: compare_backends runs one backend here.
const analysis::BackendNodeResult* result_of(const CompareNode& n) {
  return n.results.empty() ? nullptr : &n.results.front();
}

}  // namespace

CompareDock::CompareDock(MainWindow& window) : CheckDock(tr("Compare"), window) {
  qRegisterMetaType<CompareRequest>();
  qRegisterMetaType<CompareResultPtr>();
  setObjectName("compareDock");

  auto* body = new QWidget(this);
  auto* v = new QVBoxLayout(body);
  v->setContentsMargins(6, 4, 6, 4);
  v->setSpacing(4);

  auto* sides_row = new QHBoxLayout;
  test_ = side_combo(body, "compareTestCombo", {"gl", true});
  test_->setToolTip(tr("The side measured: its every node's output against the other side's."));
  reference_ = side_combo(body, "compareReferenceCombo", {"cpu", false});
  reference_->setToolTip(
      tr("The side measured against (the ground truth): cpu fp32 unless you pick another."));
  start_ = new QPushButton(tr("Compare"), body);
  start_->setObjectName("compareButton");
  start_->setToolTip(
      tr("Runs the model on both sides with the Run panel's inputs and compares every node's "
         "output; then re-runs each divergent node alone, fed the reference's inputs."));
  cancel_ = new QPushButton(tr("Cancel"), body);
  cancel_->setObjectName("cancelCompareButton");
  cancel_->setToolTip(tr("Stops the comparison before its next node."));
  sides_row->addWidget(start_);
  sides_row->addWidget(test_);
  sides_row->addWidget(new QLabel(tr("against"), body));
  sides_row->addWidget(reference_);
  sides_row->addWidget(cancel_);
  sides_row->addStretch(1);
  v->addLayout(sides_row);

  auto* options_row = new QHBoxLayout;
  tolerance_ = new QDoubleSpinBox(body);
  tolerance_->setObjectName("compareTolerance");
  tolerance_->setDecimals(4);
  tolerance_->setRange(1e-4, 1.0);
  tolerance_->setSingleStep(0.001);
  tolerance_->setValue(analysis::CompareOptions{}.tolerance);
  tolerance_->setToolTip(
      tr("A node diverges when max |a - b| > tolerance x max(1, max |b|), b the reference."));
  isolate_ = new QCheckBox(tr("Re-run divergent nodes alone"), body);
  isolate_->setObjectName("compareIsolate");
  isolate_->setChecked(true);
  isolate_->setToolTip(
      tr("Tells a node wrong on its own inputs from one that only inherits error (slower)."));
  options_row->addWidget(new QLabel(tr("Tolerance:"), body));
  options_row->addWidget(tolerance_);
  options_row->addSpacing(8);
  options_row->addWidget(isolate_);
  options_row->addStretch(1);
  v->addLayout(options_row);

  auto* progress_row = new QHBoxLayout;
  progress_ = new QProgressBar(body);
  progress_->setObjectName("compareProgress");
  progress_->setMaximumWidth(160);
  progress_->setTextVisible(false);
  stage_ = new QLabel(body);
  stage_->setObjectName("compareStage");
  stage_->setWordWrap(true);
  stage_->setTextFormat(Qt::PlainText);  // error messages quote names and paths as they are
  progress_row->addWidget(progress_);
  progress_row->addWidget(stage_, 1);
  v->addLayout(progress_row);

  graph_buttons_ = new QWidget(body);
  auto* graph_row = new QHBoxLayout(graph_buttons_);
  graph_row->setContentsMargins(0, 0, 0, 0);
  colour_ = new QPushButton(tr("Colour graph by error"), graph_buttons_);
  colour_->setObjectName("colourByCompareError");
  colour_->setToolTip(tr("Each node's scaled error between the two sides, log scale."));
  show_first_ = new QPushButton(tr("Show first divergent"), graph_buttons_);
  show_first_->setObjectName("showFirstDivergent");
  show_first_->setToolTip(tr("Select and show the first node past the tolerance."));
  graph_row->addWidget(colour_);
  graph_row->addWidget(show_first_);
  graph_row->addStretch(1);
  v->addWidget(graph_buttons_);

  auto make_label = [body](const char* name) {
    auto* l = new QLabel(body);
    l->setObjectName(name);
    l->setWordWrap(true);
    l->setTextFormat(Qt::RichText);
    l->setTextInteractionFlags(Qt::TextBrowserInteraction);
    return l;
  };
  summary_ = make_label("compareSummary");
  first_ = make_label("compareFirst");
  isolated_ = make_label("compareIsolated");
  for (QLabel* l : {summary_, first_, isolated_}) {
    v->addWidget(l);
    connect(l, &QLabel::linkActivated, this, [this](const QString& href) {
      const QString node = linked_node(href);
      if (!node.isEmpty()) activate_node(node);
    });
  }
  // Under the graph buttons, above the summary's lines, which wrap long: it stays in view.
  reduce_row_ = new ReduceRow(window, body);
  v->insertWidget(v->indexOf(summary_), reduce_row_);
  v->addStretch(1);

  // The summary on the left, the table on the right, as in the Precision dock.
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->setObjectName("compareSplit");
  auto* scroll = new QScrollArea(split);
  scroll->setWidget(body);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  table_ = new QTableWidget(0, kColumns, split);
  table_->setObjectName("compareNodeTable");
  table_->setHorizontalHeaderLabels({tr("#"), tr("Node"), tr("error"), tr("Op"), tr("ran on"),
                                     tr("max diff"), tr("max |ref|"), tr("alone")});
  table_->horizontalHeaderItem(kOrder)->setToolTip(tr("Run order on the reference (topological)"));
  table_->horizontalHeaderItem(kError)->setToolTip(
      tr("max |a - b| / max(1, max |b|): a the side under test, b the reference"));
  table_->horizontalHeaderItem(kMaxDiff)->setToolTip(tr("max |a - b| over the node's outputs"));
  table_->horizontalHeaderItem(kRefMax)->setToolTip(tr("max |b|: the reference's largest value"));
  table_->horizontalHeaderItem(kRanOn)->setToolTip(
      tr("Where the node ran on the side under test (cpu: a fallback)"));
  table_->horizontalHeaderItem(kAlone)->setToolTip(
      tr("A divergent node re-run alone on the reference's inputs: wrong on its own, or only "
         "inheriting error from the nodes before it"));
  read_only_rows(table_);
  table_->horizontalHeader()->setSectionResizeMode(kNode, QHeaderView::Interactive);
  table_->setColumnWidth(kNode, 170);
  table_->setTextElideMode(Qt::ElideMiddle);
  table_->setWordWrap(false);
  table_->setSortingEnabled(true);
  split->addWidget(scroll);
  split->addWidget(table_);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 1);
  split->setSizes({560, 640});  // the table's columns need the more
  connect(table_, &QTableWidget::cellClicked, this, [this](int row, int) {
    if (auto* it = table_->item(row, kNode)) activate_node(it->text());
  });
  setWidget(split);

  connect(start_, &QPushButton::clicked, this, &CompareDock::start_compare);
  connect(colour_, &QPushButton::clicked, this, &CompareDock::colour_by_error);
  connect(show_first_, &QPushButton::clicked, this, [this] {
    if (!first_divergent().isEmpty()) activate_node(first_divergent());
  });

  // The run controller lives on the window's worker thread: these connections are queued.
  connect(window.run_controller(), &RunController::compareProgress, this,
          &CompareDock::on_progress);
  connect(&window, &MainWindow::compareFinished, this, &CompareDock::on_finished);
  connect(&window, &MainWindow::compareFailed, this, &CompareDock::on_failed);
  finish_setup();
}

void CompareDock::set_model(LoadedModelPtr model) {
  const bool had = result_ != nullptr;
  take_model(std::move(model));
  if (had) emit resultCleared();
}

void CompareDock::set_backends(const BackendList& backends) {
  for (QComboBox* combo : {test_, reference_})
    for (int i = 0; i < combo->count(); ++i) {
      const QString name = combo->itemData(i).toString().section(':', 0, 0);
      for (const auto& b : backends)
        if (b.name == name)
          combo->setItemData(i,
                             b.available ? QString() : tr("Not available here: %1").arg(b.reason),
                             Qt::ToolTipRole);
    }
}

void CompareDock::set_sides(const CompareSide& test, const CompareSide& reference) {
  test_->setCurrentIndex(test_->findData(side_key(test)));
  reference_->setCurrentIndex(reference_->findData(side_key(reference)));
}

CompareSide CompareDock::test_side() const {
  return side_of(test_);
}
CompareSide CompareDock::reference_side() const {
  return side_of(reference_);
}

void CompareDock::start_compare() {
  if (busy_ || !model_) return;
  CompareRequest request;
  request.model = model_;
  request.test = test_side();
  request.reference = reference_side();
  if (request.test == request.reference) {
    show_error(tr("Pick two different sides: both are %1.").arg(request.test.label()));
    return;
  }
  request.tolerance = tolerance_->value();
  request.isolate = isolate_->isChecked();
  if (settings_) {
    const RunRequest run = settings_();
    request.inputs = run.inputs;
    request.threads = run.threads;
  }
  begin_job(window_.compare(std::move(request)), tr("Compare once it ends"));
}

void CompareDock::cancel_compare() {
  cancel_job();
}

std::vector<QWidget*> CompareDock::option_widgets() const {
  return {test_, reference_, tolerance_, isolate_};
}

void CompareDock::on_progress(int pass, const QString& stage, int done, int total) {
  if (!busy_) return;
  show_progress(tr("Step"), pass, stage, done, total);
}

void CompareDock::on_finished(CompareResultPtr result) {
  if (!busy_) return;
  if (!result || result->model != model_) {
    // It ended before it saw the cancel that opening another model sent: dropped all the same.
    on_failed(tr("Cancelled"), true);
    return;
  }
  set_busy(false);
  result_ = std::move(result);
  show_result();
  emit compareFinished(result_);
}

void CompareDock::on_failed(const QString& message, bool cancelled) {
  if (!busy_) return;
  set_busy(false);
  show_stopped(cancelled, message, tr("Comparison cancelled."), tr("Comparison cancelled: %1."),
               tr("Comparison failed: %1"));
  emit compareFailed(message, cancelled);
}

void CompareDock::clear_result() {
  result_.reset();
  table_->setRowCount(0);
  summary_->setText(model_ ? tr("Pick two sides and press <b>Compare</b> to see, node by node, "
                                "where they part.")
                           : tr("Open a model first."));
  summary_->setStyleSheet({});
  first_->clear();
  isolated_->clear();
  first_->hide();
  isolated_->hide();
  reduce_row_->offer(std::nullopt, QString());
  if (cancel_reason_.isEmpty() || busy_) {
    stage_->clear();
    stage_->setStyleSheet({});
  }
  set_compact(true);
}

int CompareDock::option_rows_height() const {
  return start_->sizeHint().height() + tolerance_->sizeHint().height();
}

int CompareDock::row_of_node(const QString& name) const {
  for (int row = 0; row < table_->rowCount(); ++row)
    if (table_->item(row, kNode) && table_->item(row, kNode)->text() == name) return row;
  return -1;
}

QString CompareDock::first_divergent() const {
  if (!result_ || result_->report.backends.empty()) return QString();
  const auto& first = result_->report.backends.front().first_divergent;
  return first ? QString::fromStdString(*first) : QString();
}

void CompareDock::show_result() {
  const analysis::CompareReport& r = result_->report;
  const QString test = result_->test.label(), ref = result_->reference.label();
  const QString tol = QString::number(r.tolerance, 'g', 3);
  // Nothing of an earlier result stays beside this one.
  table_->setRowCount(0);
  for (QLabel* l : {first_, isolated_}) {
    l->clear();
    l->hide();
  }
  reduce_row_->offer(std::nullopt, QString());
  if (r.backends.empty()) {  // compare_backends skipped the side: the same as the reference
    show_error(tr("Nothing compared: %1 is the reference.").arg(test));
    return;
  }
  const CompareBackend& b = r.backends.front();
  if (!b.available || !b.run_error.empty()) {
    summary_->setText(!b.available
                          ? tr("<b>%1 cannot run here:</b> %2")
                                .arg(test, QString::fromStdString(b.reason).toHtmlEscaped())
                          : tr("<b>The run on %1 failed:</b> %2")
                                .arg(test, QString::fromStdString(b.run_error).toHtmlEscaped()));
    summary_->setStyleSheet(QStringLiteral("color: #b00020"));
    stage_->clear();
    set_compact(true);
    emit resultCleared();  // no error to colour the graph by
    return;
  }
  set_compact(false);
  int compared = 0;
  for (const auto& n : r.nodes) compared += n.results.empty() ? 0 : 1;
  if (b.divergent == 0) {
    summary_->setText(tr("<b>%1 matches %2:</b> no node of %3 past the tolerance %4 of "
                         "max(1, max |%2|); outputs' error %5.")
                          .arg(test, ref)
                          .arg(compared)
                          .arg(tol, error_text(b.max_output_error)));
    summary_->setStyleSheet(QStringLiteral("color: #1b5e20"));
  } else {
    summary_->setText(tr("<b>%1 parts from %2:</b> %3 of %4 nodes past the tolerance %5 of "
                         "max(1, max |%2|); outputs' error %6.")
                          .arg(test, ref)
                          .arg(b.divergent)
                          .arg(compared)
                          .arg(tol, error_text(b.max_output_error)));
    summary_->setStyleSheet(QStringLiteral("color: #b00020"));
  }
  QString first = tr("<b>First divergent node:</b> %1").arg(tr("none"));
  if (b.first_divergent)
    for (const auto& n : r.nodes)
      if (const auto* res = result_of(n); res && n.name == *b.first_divergent) {
        QStringList facts{QString::fromStdString(n.op),
                          tr("error %1").arg(error_text(res->error.normalized()))};
        if (res->isolated)
          facts << (*res->isolated ? tr("wrong on its own inputs") : tr("inherits its error"));
        first = tr("<b>First divergent node:</b> %1 <i>(%2)</i>")
                    .arg(node_link(n.name), facts.join(QStringLiteral(", ")));
      }
  first_->setText(first);
  first_->show();
  if (!b.isolated.empty()) {
    QStringList names;
    for (std::size_t i = 0; i < b.isolated.size() && i < 6; ++i) names << node_link(b.isolated[i]);
    const int count = static_cast<int>(b.isolated.size());
    if (count > 6) names << tr("and %1 more").arg(count - 6);
    isolated_->setText(tr("<b>Wrong on their own inputs (%1):</b> %2")
                           .arg(count)
                           .arg(names.join(QStringLiteral(", "))));
    isolated_->show();
  }
  fill_table();
  show_first_->setEnabled(b.first_divergent.has_value());
  // The reduction measures the reference at fp32, as compare's reference side normally is.
  if (b.first_divergent && !result_->reference.fp16) {
    analysis::ReduceCondition c;
    c.kind = analysis::ReduceConditionKind::Diverge;
    c.reference = result_->reference.backend;
    c.backend = result_->test.backend;
    c.precision = result_->test.fp16 ? runtime::Precision::Fp16 : runtime::Precision::Fp32;
    c.tolerance = r.tolerance;
    reduce_row_->offer(
        c, tr("%1 parting from %2 at %3")
               .arg(test, ref, QString::fromStdString(*b.first_divergent).toHtmlEscaped()));
  }
  stage_->setText(tr("Compared in %1 s.").arg(result_->ms / 1000.0, 0, 'f', 1));
  stage_->setStyleSheet({});
  colour_by_error();  // what the user compared for: the graph shows it at once
}

void CompareDock::fill_table() {
  const analysis::CompareReport& r = result_->report;
  const std::string& backend = result_->test.backend;
  table_->setSortingEnabled(false);
  table_->setRowCount(0);
  int row = 0, order = 0;
  for (const auto& n : r.nodes) {
    ++order;
    const auto* res = result_of(n);
    if (!res) continue;
    table_->insertRow(row);
    table_->setItem(row, kOrder, new NumberItem(QString::number(order), order));
    auto* name = new QTableWidgetItem(QString::fromStdString(n.name));
    name->setToolTip(QString::fromStdString(n.name));
    table_->setItem(row, kNode, name);
    table_->setItem(row, kOp, new QTableWidgetItem(QString::fromStdString(n.op)));
    const bool fallback = res->ran_on != backend && res->ran_on != "executor";
    auto* ran = new QTableWidgetItem(QString::fromStdString(res->ran_on) +
                                     (fallback ? tr(" (fallback)") : QString()));
    table_->setItem(row, kRanOn, ran);
    const double e = res->error.normalized();
    table_->setItem(row, kError, new NumberItem(error_text(e), e));
    table_->setItem(row, kMaxDiff,
                    new NumberItem(error_text(res->error.max_abs_error), res->error.max_abs_error));
    table_->setItem(
        row, kRefMax,
        new NumberItem(QString::number(res->error.ref_max_abs, 'g', 4), res->error.ref_max_abs));
    QString alone;
    if (res->isolated) alone = *res->isolated ? tr("wrong") : tr("inherits");
    auto* alone_item = new QTableWidgetItem(alone);
    if (!res->note.empty()) alone_item->setToolTip(QString::fromStdString(res->note));
    table_->setItem(row, kAlone, alone_item);
    if (res->divergent) {
      const QColor tint =
          res->isolated.value_or(false) ? QColor(230, 60, 60, 70) : QColor(240, 160, 40, 70);
      for (int c = 0; c < kColumns; ++c) table_->item(row, c)->setBackground(tint);
    }
    ++row;
  }
  table_->setSortingEnabled(true);
  table_->sortItems(kOrder, Qt::AscendingOrder);  // run order: the first divergence near the top
}

void CompareDock::colour_by_error() {
  if (!result_ || !view_) return;
  std::unordered_map<std::string, double> error;
  for (const auto& n : result_->report.nodes)
    if (const auto* res = result_of(n)) error[n.name] = res->error.normalized();
  if (error.empty()) return;
  view_->set_node_values(
      tr("Compare error, %1 vs %2").arg(result_->test.label(), result_->reference.label()), error,
      true, result_->report.tolerance / 1000);  // far below the tolerance is all alike
  view_->set_value_mark(result_->report.tolerance,
                        tr("tolerance %1").arg(result_->report.tolerance, 0, 'g', 3));
  emit graphColoured();
}

}  // namespace tfjsi::ui
