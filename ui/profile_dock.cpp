#include "profile_dock.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <unordered_map>

#include "backend_colour.h"
#include "bar_chart.h"

namespace tfjsi::ui {
namespace {

constexpr int kSortRole = Qt::UserRole;
constexpr int kNodeRole = Qt::UserRole + 1;  // the node a row selects in the graph

struct Row {
  std::string name, op, backend;
  std::string slowest_node;  // ops: their slowest node
  int calls = 0, nodes = 0;
  double warm = -1, first = -1;  // ms; < 0 when that run is not known
  bool fallback = false;
  std::string fused_into;
};

QStandardItem* text_item(const QString& text) {
  auto* it = new QStandardItem(text);
  it->setData(text.toLower(), kSortRole);
  it->setEditable(false);
  return it;
}

QStandardItem* number_item(double v, int decimals, const QString& suffix = {}) {
  auto* it =
      new QStandardItem(v < 0 ? QStringLiteral("-") : QString::number(v, 'f', decimals) + suffix);
  it->setData(v, kSortRole);
  it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  it->setEditable(false);
  return it;
}

QString gl_text(const GlRunStats& s) {
  QString t = QObject::tr("compile %1 ms, upload %2 ms (%3), download %4 ms")
                  .arg(s.compile_ms, 0, 'f', 1)
                  .arg(s.upload_ms, 0, 'f', 1)
                  .arg(s.uploads)
                  .arg(s.download_ms, 0, 'f', 1);
  if (s.new_programs > 0)
    t += QObject::tr("; %1 new programs: %2 built, %3 from the disk cache (%4)")
             .arg(s.new_programs)
             .arg(s.compiled)
             .arg(s.disk_loaded)
             .arg(s.cache_hit ? QObject::tr("cache hit") : QObject::tr("cache miss"));
  else
    t += QObject::tr("; no new programs");
  return t;
}

}  // namespace

ProfileDock::ProfileDock(QWidget* parent) : QDockWidget(tr("Profile"), parent) {
  setObjectName("profileDock");
  auto* w = new QWidget(this);
  auto* v = new QVBoxLayout(w);
  v->setContentsMargins(4, 4, 4, 4);
  runs_ = new QLabel(tr("Run the model to profile it."), w);
  runs_->setObjectName("profileRuns");
  runs_->setWordWrap(true);
  v->addWidget(runs_);
  auto* slow_row = new QHBoxLayout;
  slowest_ = new QLabel(w);
  slowest_->setObjectName("slowestNode");
  slowest_->setWordWrap(true);
  show_slowest_ = new QPushButton(tr("Show in Graph"), w);
  show_slowest_->setObjectName("showSlowest");
  show_slowest_->setEnabled(false);
  slow_row->addWidget(slowest_, 1);
  slow_row->addWidget(show_slowest_);
  v->addLayout(slow_row);
  gl_ = new QLabel(w);
  gl_->setObjectName("profileGl");
  gl_->setWordWrap(true);
  gl_->hide();
  v->addWidget(gl_);

  auto* tools = new QHBoxLayout;
  view_combo_ = new QComboBox(w);
  view_combo_->setObjectName("profileView");
  view_combo_->addItem(tr("Per node"), static_cast<int>(View::Nodes));
  view_combo_->addItem(tr("Per op"), static_cast<int>(View::Ops));
  view_combo_->addItem(tr("gl programs built"), static_cast<int>(View::Builds));
  filter_ = new QLineEdit(w);
  filter_->setObjectName("profileFilter");
  filter_->setPlaceholderText(tr("Filter by name or op"));
  filter_->setClearButtonEnabled(true);
  tools->addWidget(view_combo_);
  tools->addWidget(filter_, 1);
  v->addLayout(tools);

  auto* split = new QSplitter(Qt::Vertical, w);
  table_ = new QTableView(split);
  table_->setObjectName("profileTable");
  model_items_ = new QStandardItemModel(this);
  proxy_ = new QSortFilterProxyModel(this);
  proxy_->setSourceModel(model_items_);
  proxy_->setSortRole(kSortRole);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  proxy_->setFilterKeyColumn(-1);  // name, op and backend alike
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setAlternatingRowColors(true);
  table_->verticalHeader()->hide();
  table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setToolTip(tr("Double-click a row to select its node in the graph"));
  // Node names share long scope prefixes ("StatefulPartitionedCall/model/..."): their ends tell
  // rows apart, so a narrow column cuts out the middle; the cell's tooltip holds the whole.
  // (Word wrap off: it breaks a name after a '/' and elides only the first line's end.)
  table_->setTextElideMode(Qt::ElideMiddle);
  table_->setWordWrap(false);
  chart_ = new BarChart(split);
  chart_->setObjectName("profileChart");
  split->addWidget(table_);
  split->addWidget(chart_);
  // The table first: at 1280x800 it keeps about ten rows, the chart what is left.
  table_->setMinimumHeight(table_->verticalHeader()->defaultSectionSize() * 9 + 24);
  chart_->setMinimumHeight(60);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  split->setCollapsible(0, false);
  v->addWidget(split, 1);
  setWidget(w);

  connect(view_combo_, &QComboBox::currentIndexChanged, this,
          [this](int i) { set_view(static_cast<View>(view_combo_->itemData(i).toInt())); });
  connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
  connect(table_, &QTableView::doubleClicked, this, &ProfileDock::activate);
  connect(table_->horizontalHeader(), &QHeaderView::sectionClicked, this,
          [this] { user_sorted_ = true; });
  connect(show_slowest_, &QPushButton::clicked, this,
          [this] { emit nodeActivated(QString::fromStdString(slowest_node_)); });
  rebuild();
}

void ProfileDock::set_model(LoadedModelPtr model) {
  model_ = std::move(model);
  by_config_.clear();
  config_.clear();
  rebuild();
}

void ProfileDock::set_view(View v) {
  if (v == view_) return;
  view_ = v;
  user_sorted_ = false;
  view_combo_->setCurrentIndex(view_combo_->findData(static_cast<int>(v)));
  rebuild();
}

void ProfileDock::show_result(const RunResultPtr& r) {
  config_ = r->backend + (r->backend == "gl" ? (r->fp16 ? " fp16" : " fp32") : "");
  Profiles& p = by_config_[config_];
  if (r->benchmark) {
    if (r->cold) p.first = {true, r->id, r->first_ms, r->first_nodes, r->gl_first};
    p.warm = {true, r->id, r->run_ms, r->nodes, r->gl_last};
  } else if (r->cold && r->first_ms > 0) {
    // gl's first run built its programs ahead, unprofiled: its total only; the nodes are the
    // profiled run's after it.
    p.first = {true, r->id, r->first_ms, {}, r->gl_first};
    p.warm = {true, r->id, r->run_ms, r->nodes, r->gl_last};
  } else if (r->cold) {
    p.first = {true, r->id, r->run_ms, r->nodes, r->gl_first};
    p.warm = {};
  } else {
    p.warm = {true, r->id, r->run_ms, r->nodes, r->gl_last};
  }
  rebuild();
}

const ProfileDock::Profiles* ProfileDock::current() const {
  auto it = by_config_.find(config_);
  return it == by_config_.end() ? nullptr : &it->second;
}

int ProfileDock::default_sort_column() const {
  const Profiles* p = current();
  const bool warm = !p || p->warm.present;
  if (view_ == View::Builds) return BuildMs;
  if (view_ == View::Nodes) return warm ? NodeWarmMs : NodeFirstMs;
  return warm ? OpWarmMs : OpFirstMs;
}

void ProfileDock::rebuild() {
  const Profiles* p = current();
  const bool have_warm = p && p->warm.present, have_first = p && p->first.present;

  model_items_->clear();
  if (view_ == View::Builds)
    show_builds(p);
  else
    show_rows(p);
  if (!user_sorted_) table_->sortByColumn(default_sort_column(), Qt::DescendingOrder);
  table_->resizeColumnsToContents();
  if (view_ == View::Nodes)
    table_->setColumnWidth(NodeName, std::min(table_->columnWidth(NodeName), 200));
  // The whole variant is in its tooltip: the node that needed the program stays in view.
  if (view_ == View::Builds)
    table_->setColumnWidth(BuildVariant, std::min(table_->columnWidth(BuildVariant), 320));

  // The slowest node, said in words whatever the table shows.
  slowest_node_.clear();
  {
    // From the profile itself: the table may hold ops.
    double best = -1;
    std::unordered_map<std::string, double> ms;
    std::unordered_map<std::string, std::string> op_of;
    auto sum = [&](const std::vector<NodeRun>& nodes) {
      for (const auto& n : nodes) {
        ms[n.node] += n.ms;
        op_of[n.node] = n.op;
      }
    };
    if (have_warm)
      sum(p->warm.nodes);
    else if (have_first)
      sum(p->first.nodes);
    double node_total = 0;
    for (const auto& [name, t] : ms) node_total += t;
    for (const auto& [name, t] : ms)
      if (t > best) {
        best = t;
        slowest_node_ = name;
      }
    if (!slowest_node_.empty())
      slowest_->setText(tr("Slowest node: <b>%1</b> (%2) %3 ms, %4% of the %5 run's kernel time")
                            .arg(QString::fromStdString(slowest_node_).toHtmlEscaped(),
                                 QString::fromStdString(op_of[slowest_node_]))
                            .arg(best, 0, 'f', 3)
                            .arg(node_total > 0 ? 100.0 * best / node_total : 0.0, 0, 'f', 1)
                            .arg(have_warm ? tr("warm") : tr("first")));
    else
      slowest_->clear();
  }
  show_slowest_->setEnabled(!slowest_node_.empty());

  if (!p) {
    runs_->setText(tr("Run the model to profile it."));
  } else {
    QString text = tr("<b>%1</b>").arg(QString::fromStdString(config_));
    text +=
        have_first
            ? tr(" · first run %1 ms (#%2)").arg(p->first.run_ms, 0, 'f', 2).arg(p->first.run_id)
            : tr(" · first run not seen (it ran before this panel's profile was kept)");
    text += have_warm
                ? tr(" · warm run %1 ms (#%2)").arg(p->warm.run_ms, 0, 'f', 2).arg(p->warm.run_id)
                : tr(" · no warm run yet: run again");
    runs_->setText(text);
  }
  const bool gl = p && ((have_first && p->first.gl.present) || (have_warm && p->warm.gl.present));
  gl_->setVisible(gl);
  if (gl) {
    QStringList parts;
    if (have_first && p->first.gl.present)
      parts << tr("<b>gl first run</b>: ") + gl_text(p->first.gl);
    if (have_warm && p->warm.gl.present) parts << tr("<b>gl warm run</b>: ") + gl_text(p->warm.gl);
    gl_->setText(parts.join("<br>"));
  }
}

void ProfileDock::show_rows(const Profiles* p) {
  const bool have_warm = p && p->warm.present, have_first = p && p->first.present;

  // Per node, in execution order; a node a loop runs often adds up.
  std::vector<Row> rows;
  std::unordered_map<std::string, std::size_t> at;
  auto add = [&](const std::vector<NodeRun>& nodes, bool warm) {
    for (const auto& n : nodes) {
      auto [it, fresh] = at.emplace(n.node, rows.size());
      if (fresh)
        rows.push_back({n.node, n.op, n.backend, n.node, 0, 1, -1, -1, n.fallback, n.fused_into});
      Row& row = rows[it->second];
      double& ms = warm ? row.warm : row.first;
      ms = std::max(ms, 0.0) + n.ms;
      if (warm || !have_warm) ++row.calls;
      if (warm) row.backend = n.backend, row.fallback = n.fallback, row.fused_into = n.fused_into;
    }
  };
  if (have_warm) add(p->warm.nodes, true);
  if (have_first) add(p->first.nodes, false);

  if (view_ == View::Ops) {
    std::vector<Row> ops;
    std::unordered_map<std::string, std::size_t> op_at;
    for (const Row& n : rows) {
      auto [it, fresh] = op_at.emplace(n.op, ops.size());
      if (fresh) ops.push_back({n.op, n.op, {}, n.name, 0, 0, -1, -1, false, {}});
      Row& o = ops[it->second];
      const double basis = have_warm ? n.warm : n.first;
      const auto& slowest = rows[at.at(o.slowest_node)];
      if (basis > (have_warm ? slowest.warm : slowest.first)) o.slowest_node = n.name;
      o.calls += n.calls;
      ++o.nodes;
      if (n.warm >= 0) o.warm = std::max(o.warm, 0.0) + n.warm;
      if (n.first >= 0) o.first = std::max(o.first, 0.0) + n.first;
    }
    rows = std::move(ops);
  }
  double total = 0;
  for (const Row& r : rows) total += std::max(0.0, have_warm ? r.warm : r.first);

  if (view_ == View::Nodes)
    model_items_->setHorizontalHeaderLabels(
        {tr("Node"), tr("Warm ms"), tr("First ms"), tr("%"), tr("Op"), tr("Backend"), tr("Calls")});
  else
    model_items_->setHorizontalHeaderLabels(
        {tr("Op"), tr("Warm ms"), tr("First ms"), tr("%"), tr("Calls"), tr("Nodes")});
  for (const Row& r : rows) {
    const double basis = have_warm ? r.warm : r.first;
    const double share = total > 0 && basis >= 0 ? 100.0 * basis / total : -1;
    QList<QStandardItem*> items;
    if (view_ == View::Nodes) {
      QStandardItem* backend = text_item(
          QString::fromStdString(r.backend) + (r.fallback ? tr(" (fallback)") : QString()) +
          (r.fused_into.empty() ? QString()
                                : tr(", fused into %1").arg(QString::fromStdString(r.fused_into))));
      backend->setForeground(backend_colour(r.backend).darker(150));
      items = {text_item(QString::fromStdString(r.name)),
               number_item(r.warm, 3),
               number_item(r.first, 3),
               number_item(share, 1),
               text_item(QString::fromStdString(r.op)),
               backend,
               number_item(r.calls, 0)};
    } else {
      items = {text_item(QString::fromStdString(r.name)),
               number_item(r.warm, 3),
               number_item(r.first, 3),
               number_item(share, 1),
               number_item(r.calls, 0),
               number_item(r.nodes, 0)};
    }
    for (auto* it : items) it->setData(QString::fromStdString(r.slowest_node), kNodeRole);
    items.front()->setToolTip(QString::fromStdString(r.name));
    model_items_->appendRow(items);
  }

  // The chart: the top rows by the time the table is sorted by by default, first run pale.
  std::vector<const Row*> order;
  for (const Row& r : rows) order.push_back(&r);
  auto basis = [&](const Row* r) { return have_warm ? r->warm : r->first; };
  std::sort(order.begin(), order.end(),
            [&](const Row* a, const Row* b) { return basis(a) > basis(b); });
  std::vector<BarChart::Bar> bars;
  for (const Row* r : order) {
    if (static_cast<int>(bars.size()) == kChartBars || basis(r) < 0) break;
    bars.push_back({QString::fromStdString(r->name), basis(r),
                    have_warm && have_first ? r->first : -1.0,
                    view_ == View::Nodes ? backend_colour(r->backend) : QColor(90, 140, 190)});
  }
  const auto shown = bars.size();
  chart_->set_bars(tr("Top %1 %2 (%3 run)")
                       .arg(shown)
                       .arg(view_ == View::Nodes ? tr("nodes") : tr("ops"),
                            have_warm ? tr("warm") : tr("first")),
                   std::move(bars), have_warm && have_first ? tr("first run") : QString());
}

void ProfileDock::show_builds(const Profiles* p) {
  // The first run's: a later run builds nothing (the programs stay in memory and on disk).
  const bool have = p && p->first.present && p->first.gl.present;
  const std::vector<runtime::KernelBuild> none;
  const auto& builds = have ? p->first.gl.builds : none;
  model_items_->setHorizontalHeaderLabels(
      {tr("Kernel"), tr("Build ms"), tr("Where"), tr("Variant"), tr("First needed by")});
  for (const runtime::KernelBuild& b : builds) {
    const QString node = QString::fromStdString(b.node);
    QList<QStandardItem*> items = {
        text_item(QString::fromStdString(b.kernel)), number_item(b.ms, 1),
        // A worker builds while the run goes on; the rest cost the run itself.
        text_item(b.ahead ? tr("worker thread") : tr("in the run")),
        text_item(QString::fromStdString(b.variant)),
        text_item(node.isEmpty() ? QString() : QStringLiteral("%1 (%2)").arg(node, b.op.c_str()))};
    for (auto* it : items) it->setData(node, kNodeRole);
    items[BuildVariant]->setToolTip(QString::fromStdString(b.variant));
    model_items_->appendRow(items);
  }
  std::vector<const runtime::KernelBuild*> order;
  for (const auto& b : builds) order.push_back(&b);
  std::sort(order.begin(), order.end(), [](const auto* a, const auto* b) { return a->ms > b->ms; });
  std::vector<BarChart::Bar> bars;
  for (const auto* b : order) {
    if (static_cast<int>(bars.size()) == kChartBars) break;
    // The kernel and the first two of its #defines (a window, an op): short enough to read.
    QString label = QString::fromStdString(b->kernel).remove(".comp");
    const QStringList defines = QString::fromStdString(b->variant).split(' ', Qt::SkipEmptyParts);
    if (!defines.isEmpty()) label += ' ' + QStringList(defines.mid(0, 2)).join(' ');
    bars.push_back({label, b->ms, -1.0, b->ahead ? QColor(90, 140, 190) : QColor(200, 120, 60)});
  }
  const auto shown = bars.size();
  chart_->set_bars(have ? tr("Top %1 of %2 gl programs the first run built (ms to build; blue on a "
                             "worker thread)")
                              .arg(shown)
                              .arg(builds.size())
                        : tr("No gl run seen yet: the first gl run's builds show here"),
                   std::move(bars), QString());
}

void ProfileDock::activate(const QModelIndex& index) {
  const QString node = index.data(kNodeRole).toString();
  if (!node.isEmpty()) emit nodeActivated(node);
}

}  // namespace tfjsi::ui
