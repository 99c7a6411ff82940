#include "memory_dock.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <set>

#include "backend_colour.h"
#include "line_plot.h"

namespace tfjsi::ui {
namespace {

// What "the same memory" compares between two samples: tensor and buffer counts exactly (a
// leak adds to them), bytes within MemoryDock::kByteSlack (a backend's bookkeeping, a program
// cache entry or a driver object, moves its byte count by a few hundred bytes without a leak).
QString difference(const runtime::MemoryInfo& a, const runtime::MemoryInfo& b) {
  auto moved = [](std::size_t x, std::size_t y) {
    return (x > y ? x - y : y - x) > MemoryDock::kByteSlack;
  };
  if (a.total.num_tensors != b.total.num_tensors)
    return QObject::tr("tensors %1 -> %2").arg(a.total.num_tensors).arg(b.total.num_tensors);
  if (a.total.num_data_buffers != b.total.num_data_buffers)
    return QObject::tr("data buffers %1 -> %2")
        .arg(a.total.num_data_buffers)
        .arg(b.total.num_data_buffers);
  if (moved(a.total.num_bytes, b.total.num_bytes))
    return QObject::tr("bytes %1 -> %2").arg(a.total.num_bytes).arg(b.total.num_bytes);
  if (moved(a.cached_bytes, b.cached_bytes))
    return QObject::tr("pool cache %1 -> %2 bytes").arg(a.cached_bytes).arg(b.cached_bytes);
  for (std::size_t i = 0; i < a.backends.size() && i < b.backends.size(); ++i) {
    const auto &x = a.backends[i], &y = b.backends[i];
    if (moved(x.use.num_bytes + x.extra.bytes, y.use.num_bytes + y.extra.bytes))
      return QObject::tr("%1 bytes %2 -> %3")
          .arg(QString::fromStdString(x.backend))
          .arg(x.use.num_bytes + x.extra.bytes)
          .arg(y.use.num_bytes + y.extra.bytes);
  }
  return {};
}

}  // namespace

MemoryDock::MemoryDock(QWidget* parent) : QDockWidget(tr("Memory"), parent) {
  setObjectName("memoryDock");
  auto* w = new QWidget(this);
  auto* v = new QVBoxLayout(w);
  v->setContentsMargins(4, 4, 4, 4);
  auto* top = new QHBoxLayout;
  summary_ = new QLabel(tr("No samples yet"), w);
  summary_->setObjectName("memorySummary");
  summary_->setWordWrap(true);
  reset_ = new QPushButton(tr("Reset"), w);
  reset_->setObjectName("memoryReset");
  reset_->setToolTip(
      tr("Clear the plots, dispose the tensors runs left behind (weights stay) and free the "
         "storage the buffer pool keeps for reuse"));
  top->addWidget(summary_, 1);
  top->addWidget(reset_);
  v->addLayout(top);
  verdict_ = new QLabel(w);
  verdict_->setObjectName("memoryVerdict");
  verdict_->setWordWrap(true);
  v->addWidget(verdict_);

  auto* split = new QSplitter(Qt::Vertical, w);
  bytes_ = new LinePlot(tr("Bytes"), LinePlot::Unit::Bytes, split);
  bytes_->setObjectName("memoryBytesPlot");
  counts_ = new LinePlot(tr("Count"), LinePlot::Unit::Count, split);
  counts_->setObjectName("memoryCountsPlot");
  live_ = new QTreeWidget(split);
  live_->setObjectName("liveTensors");
  live_->setHeaderLabels({tr("Made by"), tr("Kind"), tr("Shape"), tr("Backends"), tr("Id")});
  live_->setRootIsDecorated(false);
  live_->setSortingEnabled(true);
  live_->setAlternatingRowColors(true);
  live_->header()->setSectionResizeMode(0, QHeaderView::Interactive);
  live_->setColumnWidth(0, 150);
  split->addWidget(bytes_);
  split->addWidget(counts_);
  split->addWidget(live_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  split->setStretchFactor(2, 2);
  v->addWidget(split, 1);
  setWidget(w);

  connect(reset_, &QPushButton::clicked, this, &MemoryDock::reset);
  connect(live_, &QTreeWidget::itemDoubleClicked, this,
          [this](QTreeWidgetItem* item, int) { emit nodeActivated(item->text(0)); });
}

void MemoryDock::set_model(LoadedModelPtr model) {
  model_ = std::move(model);
  // The last model's plots, leaks and verdict say nothing about this one.
  samples_.clear();
  replot();
  live_->clear();
  live_->setToolTip({});
  verdict_->clear();
  verdict_->setStyleSheet({});
  summary_->setText(tr("No samples yet"));
}

void MemoryDock::reset() {
  samples_.clear();
  replot();
  live_->clear();
  verdict_->clear();
  summary_->setText(tr("Resetting..."));
  emit resetRequested();
}

void MemoryDock::add_sample(MemorySample sample) {
  if (sample.reset) samples_.clear();
  if (backends_.empty())
    for (const auto& b : sample.info.backends) backends_.push_back(b.backend);
  const auto& t = sample.info.total;
  QString text = tr("%1 tensors, %2 data buffers, %3 live; pool cache %4")
                     .arg(t.num_tensors)
                     .arg(t.num_data_buffers)
                     .arg(format_bytes(static_cast<double>(t.num_bytes)),
                          format_bytes(static_cast<double>(sample.info.cached_bytes)));
  if (sample.reset) text += tr(" (reset disposed %1 tensors)").arg(sample.disposed);
  summary_->setText(text);
  MemorySample live;
  const bool has_live = !sample.live.empty() || sample.run_id || sample.reset;
  if (has_live) live.live = std::move(sample.live);
  sample.live = {};
  samples_.push_back(std::move(sample));
  if (samples_.size() > kMaxSamples)
    samples_.erase(samples_.begin(),
                   samples_.begin() + static_cast<std::ptrdiff_t>(samples_.size() - kMaxSamples));
  replot();
  update_verdict();
  // After the verdict: tensors left behind are said there too.
  if (has_live) show_live(live);
}

void MemoryDock::show_live(const MemorySample& s) {
  std::set<std::string> consts;
  if (model_)
    for (const auto& n : model_->graph->nodes)
      if (n.op == "Const") consts.insert(n.name);
  live_->setSortingEnabled(false);
  live_->clear();
  int left = 0;
  for (const auto& l : s.live) {
    auto* item = new QTreeWidgetItem(live_);
    const bool weight = consts.count(l.creator) > 0;
    left += weight ? 0 : 1;
    QStringList where;
    for (const auto& b : l.backends) where << QString::fromStdString(b);
    item->setText(0, QString::fromStdString(l.creator));
    item->setText(1, weight ? tr("weight") : tr("left by a run"));
    item->setText(2, QString::fromStdString(std::string(to_string(l.dtype)) + " " +
                                            shape_to_string(l.shape)));
    item->setText(3, where.join(", "));
    item->setData(4, Qt::DisplayRole, static_cast<qulonglong>(l.id));
    if (!weight)
      for (int c = 0; c < 5; ++c) item->setForeground(c, QColor(200, 40, 40));
  }
  live_->setSortingEnabled(true);
  live_->sortByColumn(1, Qt::AscendingOrder);  // "left by a run" before "weight"
  live_->setToolTip(tr("%1 tensors alive after the last run, %2 of them left behind by runs "
                       "(the rest are weights, resident between runs). Double-click to find the "
                       "node that made one.")
                        .arg(s.live.size())
                        .arg(left));
  if (left)
    verdict_->setText(tr("<b>%1 tensors left behind</b> by runs (red in the list).").arg(left));
}

void MemoryDock::replot() {
  std::vector<LinePlot::Series> bytes, counts;
  bytes.push_back({tr("total"), palette().text().color(), {}, false});
  for (const auto& b : backends_)
    bytes.push_back({QString::fromStdString(b), backend_colour(b), {}, false});
  bytes.push_back({tr("pool cache"), QColor(150, 110, 200), {}, true});
  counts.push_back({tr("tensors"), QColor(40, 120, 200), {}, false});
  counts.push_back({tr("data buffers"), QColor(200, 80, 60), {}, true});
  std::vector<LinePlot::Marker> markers;
  for (std::size_t i = 0; i < samples_.size(); ++i) {
    const auto& info = samples_[i].info;
    bytes[0].values.push_back(static_cast<double>(info.total.num_bytes));
    for (std::size_t k = 0; k < backends_.size(); ++k)
      bytes[k + 1].values.push_back(
          k < info.backends.size() ? static_cast<double>(info.backends[k].use.num_bytes) : 0);
    bytes.back().values.push_back(static_cast<double>(info.cached_bytes));
    counts[0].values.push_back(static_cast<double>(info.total.num_tensors));
    counts[1].values.push_back(static_cast<double>(info.total.num_data_buffers));
    if (samples_[i].run_id)
      markers.push_back({static_cast<int>(i), backend_colour(samples_[i].backend)});
  }
  bytes_->set_data(std::move(bytes), markers);
  counts_->set_data(std::move(counts), std::move(markers));
}

std::vector<const MemorySample*> MemoryDock::latest_runs(const std::string& backend) const {
  // The latest stretch of runs on `backend` (idle samples in between do not break it).
  std::vector<const MemorySample*> runs;
  for (auto it = samples_.rbegin(); it != samples_.rend(); ++it) {
    if (!it->run_id) continue;
    if (it->backend != backend) {
      if (!runs.empty()) break;
      continue;
    }
    runs.push_back(&*it);
  }
  std::reverse(runs.begin(), runs.end());
  return runs;
}

bool MemoryDock::flat_after_first_run(const std::string& backend, QString* why) const {
  const auto runs = latest_runs(backend);
  if (runs.size() < 3) {
    if (why)
      *why = tr("%1 runs on %2 sampled").arg(runs.size()).arg(QString::fromStdString(backend));
    return false;
  }
  for (std::size_t i = 2; i < runs.size(); ++i) {
    const QString d = difference(runs[1]->info, runs[i]->info);
    if (!d.isEmpty()) {
      if (why) *why = tr("run %1: %2").arg(runs[i]->run_id).arg(d);
      return false;
    }
  }
  if (why) *why = tr("%1 runs").arg(runs.size());
  return true;
}

void MemoryDock::update_verdict() {
  const MemorySample* last = nullptr;
  for (auto it = samples_.rbegin(); it != samples_.rend() && !last; ++it)
    if (it->run_id) last = &*it;
  if (!last) {
    verdict_->clear();
    return;
  }
  const auto runs = latest_runs(last->backend);
  const int n = static_cast<int>(runs.size());
  const QString backend = QString::fromStdString(last->backend);
  const QString rule =
      tr("Judged on the last two runs: tensors and data buffers equal, bytes within %1 (a "
         "backend's bookkeeping moves a few hundred bytes).")
          .arg(format_bytes(static_cast<double>(kByteSlack)));
  if (n < 3) {
    verdict_->setText(tr("%1 run(s) on %2: run it a few more times to see whether memory stays "
                         "flat.")
                          .arg(n)
                          .arg(backend));
    verdict_->setStyleSheet({});
    verdict_->setToolTip(rule);
    return;
  }
  // The last run against the one before it (the first run, which allocates weight copies,
  // programs and the pool's cache, is never one of them): a leak shows on every run, and a run
  // that is flat again clears a verdict that one odd run turned red.
  const MemorySample& prev = *runs[static_cast<std::size_t>(n - 2)];
  const QString d = difference(prev.info, last->info);
  if (d.isEmpty()) {
    verdict_->setText(tr("<b>Flat</b>: run %1 on %2 left what run %3 left: %4 tensors, %5 "
                         "(pool cache %6).<br><small>%7</small>")
                          .arg(last->run_id)
                          .arg(backend)
                          .arg(prev.run_id)
                          .arg(last->info.total.num_tensors)
                          .arg(format_bytes(static_cast<double>(last->info.total.num_bytes)),
                               format_bytes(static_cast<double>(last->info.cached_bytes)), rule));
    verdict_->setStyleSheet("color: #2a7a2a;");
  } else {
    verdict_->setText(tr("<b>Not flat</b> on %1: run %2 against run %3: %4<br><small>%5</small>")
                          .arg(backend)
                          .arg(last->run_id)
                          .arg(prev.run_id)
                          .arg(d, rule));
    verdict_->setStyleSheet("color: #b02020;");
  }
  verdict_->setToolTip(rule);
}

}  // namespace tfjsi::ui
