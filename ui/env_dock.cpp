#include "env_dock.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <climits>
#include <cmath>

#include "backend_colour.h"

namespace tfjsi::ui {
namespace {

QString type_name(const runtime::FlagValue& v) {
  switch (v.index()) {
    case 0:
      return QObject::tr("bool");
    case 1:
      return QObject::tr("integer");
    case 2:
      return QObject::tr("number");
    default:
      return QObject::tr("text");
  }
}

// Flags the Run panel also sets, from its own controls, at every run.
bool set_by_run_panel(const std::string& name) {
  return name == "threads" || name == "gl.float32_enabled";
}

QTreeWidgetItem* pair(QTreeWidget* tree, const QString& key, const QString& value) {
  auto* it = new QTreeWidgetItem(tree, {key, value});
  it->setToolTip(1, value);
  return it;
}

}  // namespace

EnvDock::EnvDock(QWidget* parent) : QDockWidget(tr("Environment"), parent) {
  setObjectName("envDock");
  auto* w = new QWidget(this);
  auto* v = new QVBoxLayout(w);
  v->setContentsMargins(4, 4, 4, 4);
  message_ = new QLabel(w);
  message_->setObjectName("envMessage");
  message_->setWordWrap(true);
  message_->hide();
  v->addWidget(message_);
  // Two pages: the engine (flags, backends, gl) and the op table, which needs the dock's height.
  tabs_ = new QTabWidget(w);
  tabs_->setObjectName("envTabs");
  tabs_->setDocumentMode(true);
  auto* split = new QSplitter(Qt::Vertical);
  flags_ = new QTableWidget(0, 3, split);
  flags_->setObjectName("flagsTable");
  flags_->setHorizontalHeaderLabels({tr("Flag"), tr("Value"), tr("Type")});
  flags_->verticalHeader()->hide();
  flags_->horizontalHeader()->setSectionResizeMode(FlagValue, QHeaderView::Stretch);
  flags_->setSelectionMode(QAbstractItemView::NoSelection);
  flags_->setWordWrap(true);
  // Descriptions wrap: rows follow the width the dock gives them.
  connect(flags_->horizontalHeader(), &QHeaderView::sectionResized, flags_,
          &QTableWidget::resizeRowsToContents);
  backends_ = new QTreeWidget(split);
  backends_->setObjectName("envBackends");
  backends_->setHeaderLabels({tr("Backend"), tr("Status")});
  backends_->setRootIsDecorated(false);
  gl_ = new QTreeWidget(split);
  gl_->setObjectName("envGl");
  gl_->setHeaderLabels({tr("OpenGL"), tr("Value")});
  auto* ops = new QWidget;
  auto* ov = new QVBoxLayout(ops);
  ov->setContentsMargins(0, 0, 0, 0);
  ops_summary_ = new QLabel(ops);
  ops_summary_->setObjectName("envOpsSummary");
  ops_summary_->setWordWrap(true);
  ops_filter_ = new QLineEdit(ops);
  ops_filter_->setObjectName("envOpsFilter");
  ops_filter_->setPlaceholderText(tr("Find an op or a category"));
  ops_filter_->setClearButtonEnabled(true);
  connect(ops_filter_, &QLineEdit::textChanged, this, &EnvDock::filter_ops);
  ops_ = new QTreeWidget(ops);
  ops_->setObjectName("envOps");
  ops_->setRootIsDecorated(false);
  ops_->setSortingEnabled(true);
  ov->addWidget(ops_summary_);
  ov->addWidget(ops_filter_);
  ov->addWidget(ops_, 1);
  split->addWidget(flags_);
  split->addWidget(backends_);
  split->addWidget(gl_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  split->setStretchFactor(2, 2);
  tabs_->addTab(split, tr("Engine"));
  tabs_->addTab(ops, tr("Ops"));
  v->addWidget(tabs_, 1);
  setWidget(w);
}

QWidget* EnvDock::editor(const QString& name) const {
  auto it = editors_.find(name.toStdString());
  return it == editors_.end() ? nullptr : it->second;
}

void EnvDock::show_rejected(const QString& name, const QString& message) {
  message_->setText(tr("Flag %1 not changed: %2").arg(name, message));
  message_->setStyleSheet("color: #b02020;");
  message_->show();
}

void EnvDock::edited(const std::string& name, const QString& text) {
  message_->hide();
  emit flagEdited(QString::fromStdString(name), text);
}

void EnvDock::show_environment(const EnvInfo& env) {
  env_ = env;
  std::vector<std::string> names;
  for (const auto& f : env_.flags) names.push_back(f.name);
  if (names != shown_)
    rebuild_flags();
  else
    update_values();

  backends_->clear();
  for (const auto& b : env_.backends) {
    const bool active = b.name.toStdString() == env_.active;
    auto* it = pair(backends_, b.name + (active ? tr(" (active)") : QString()),
                    b.available ? tr("available (priority %1)").arg(b.priority)
                                : tr("unavailable: %1").arg(b.reason));
    it->setForeground(0, backend_colour(b.name.toStdString()).darker(150));
    if (!b.available) it->setForeground(1, QColor(176, 32, 32));
  }
  backends_->resizeColumnToContents(0);

  gl_->clear();
  if (env_.gl) {
    pair(gl_, tr("Vendor"), QString::fromStdString(env_.gl_vendor));
    pair(gl_, tr("Renderer"), QString::fromStdString(env_.gl_renderer));
    pair(gl_, tr("Version"), QString::fromStdString(env_.gl_version));
    pair(gl_, tr("Surface"), QString::fromStdString(env_.gl_surface));
    pair(gl_, tr("Max texture size"), QString::number(env_.gl_max_texture_size));
    pair(gl_, tr("Timer queries"), env_.gl_timer_queries ? tr("yes") : tr("no"));
  } else {
    pair(gl_, tr("Context"), tr("none (gl is not available)"));
  }
  if (env_.probe_done) {
    auto rule = [](const std::string& rounding, const std::string& overflow, bool exact) {
      return tr("%1; %2%3")
          .arg(overflow == "inf" ? tr("overflows to inf") : tr("clamps to 65504"),
               rounding == "nearest-even" ? tr("rounds to nearest even") : tr("rounds toward zero"),
               exact ? QString() : tr(" (some reads matched no rule)"));
    };
    QTreeWidgetItem* store = pair(gl_, tr("fp16 store (kernels)"),
                                  rule(env_.store_rounding, env_.store_overflow, env_.store_exact));
    pair(gl_, tr("fp16 upload"),
         rule(env_.upload_rounding, env_.upload_overflow, env_.upload_exact));
    for (const auto& [written, read] : env_.store_samples) {
      auto* s = new QTreeWidgetItem(
          store, {QString::number(written, 'g', 9), tr("reads back %1").arg(read, 0, 'g', 9)});
      Q_UNUSED(s);
    }
  } else {
    pair(gl_, tr("fp16 probe"),
         env_.probe_reason.empty() ? tr("not run") : QString::fromStdString(env_.probe_reason));
  }
  gl_->resizeColumnToContents(0);
  show_ops();
}

void EnvDock::show_ops() {
  // The list is fixed for a build: made once, so the user's sort and filter stay.
  if (ops_->topLevelItemCount() == static_cast<int>(env_.ops.size())) return;
  ops_->setSortingEnabled(false);
  ops_->clear();
  QStringList header = {tr("Op"), tr("Category")};
  if (!env_.ops.empty())
    for (const auto& [backend, native] : env_.ops.front().native)
      header << QString::fromStdString(backend);
  ops_->setHeaderLabels(header);
  int converter = 0, runs = 0;
  std::map<std::string, int> own;
  for (const auto& op : env_.ops) {
    QStringList cells = {QString::fromStdString(op.op), QString::fromStdString(op.category)};
    for (const auto& [backend, native] : op.native) {
      // The same words as `tfjsi env --ops` and docs/ops.md.
      cells << (op.executor                   ? tr("executor")
                : native                      ? tr("yes")
                : op.runs && backend != "cpu" ? tr("cpu")
                                              : QStringLiteral("-"));
      if (op.category != "not in the converter") own[backend] += native;
    }
    auto* it = new QTreeWidgetItem(ops_, cells);
    it->setToolTip(0, cells[0]);
    // An op we decline on purpose says why on every cell of its row.
    if (!op.refused.empty())
      for (int c = 0; c < cells.size(); ++c)
        it->setToolTip(c, tr("Not run: %1").arg(QString::fromStdString(op.refused)));
    for (int c = 2; c < cells.size(); ++c) {
      it->setTextAlignment(c, Qt::AlignCenter);
      if (cells[c] == "-") it->setForeground(c, QColor(176, 32, 32));
      if (cells[c] == tr("yes"))
        it->setForeground(c, backend_colour(header[c].toStdString()).darker(150));
    }
    if (op.category != "not in the converter") {
      ++converter;
      runs += op.runs;
    }
  }
  QStringList per;
  if (!env_.ops.empty())
    for (const auto& [backend, native] : env_.ops.front().native)
      per << tr("%1 %2").arg(QString::fromStdString(backend)).arg(own[backend]);
  ops_summary_->setText(tr("TF.js converter %1: %2 ops, %3 run here. Own kernels: %4. "
                           "\"cpu\": through the cpu kernel; \"-\": a model holding it does "
                           "not run.")
                            .arg(QString::fromStdString(env_.converter_version))
                            .arg(converter)
                            .arg(runs)
                            .arg(per.join(", ")));
  ops_->setSortingEnabled(true);
  ops_->sortByColumn(0, Qt::AscendingOrder);
  // The backend columns always in view; the op's name takes what is left (elided when long).
  QHeaderView* h = ops_->header();
  h->setStretchLastSection(false);
  h->setSectionResizeMode(0, QHeaderView::Stretch);
  for (int c = 1; c < ops_->columnCount(); ++c)
    h->setSectionResizeMode(c, QHeaderView::ResizeToContents);
  filter_ops(ops_filter_->text());
}

void EnvDock::filter_ops(const QString& text) {
  for (int i = 0; i < ops_->topLevelItemCount(); ++i) {
    QTreeWidgetItem* it = ops_->topLevelItem(i);
    it->setHidden(!text.isEmpty() && !it->text(0).contains(text, Qt::CaseInsensitive) &&
                  !it->text(1).contains(text, Qt::CaseInsensitive));
  }
}

void EnvDock::rebuild_flags() {
  editors_.clear();
  shown_.clear();
  flags_->setRowCount(0);
  flags_->setRowCount(2 * static_cast<int>(env_.flags.size()));
  int flag = 0;
  for (const auto& f : env_.flags) {
    const int row = name_row(flag);
    shown_.push_back(f.name);
    auto* name = new QTableWidgetItem(QString::fromStdString(f.name));
    name->setFlags(Qt::ItemIsEnabled);
    flags_->setItem(row, FlagName, name);
    QString type = type_name(f.value);
    if (f.read_only) type += tr(", detected");
    auto* t = new QTableWidgetItem(type);
    t->setFlags(Qt::ItemIsEnabled);
    flags_->setItem(row, FlagType, t);
    QString help = QString::fromStdString(f.help);
    if (set_by_run_panel(f.name)) help += tr(" (also set by the Run panel)");
    auto* h = new QTableWidgetItem(help);
    h->setFlags(Qt::ItemIsEnabled);
    h->setToolTip(help);
    h->setForeground(palette().placeholderText());
    flags_->setItem(help_row(flag), 0, h);
    flags_->setSpan(help_row(flag), 0, 1, 3);
    QFont bold = name->font();
    bold.setBold(true);
    name->setFont(bold);

    const std::string key = f.name;
    QWidget* ed = nullptr;
    if (std::holds_alternative<bool>(f.value)) {
      auto* box = new QCheckBox;
      connect(box, &QCheckBox::toggled, this,
              [this, key](bool on) { edited(key, on ? "true" : "false"); });
      ed = box;
    } else if (std::holds_alternative<std::int64_t>(f.value)) {
      auto* spin = new QSpinBox;
      spin->setRange(key == "threads" ? 0 : INT_MIN, INT_MAX);
      if (key == "threads") spin->setSpecialValueText(tr("0 (one per core)"));
      connect(spin, &QSpinBox::editingFinished, this, [this, key, spin] {
        for (const auto& g : env_.flags)
          if (g.name == key && std::get<std::int64_t>(g.value) != spin->value())
            edited(key, QString::number(spin->value()));
      });
      ed = spin;
    } else if (std::holds_alternative<double>(f.value)) {
      auto* spin = new QDoubleSpinBox;
      spin->setDecimals(6);
      spin->setRange(-1e12, 1e12);
      connect(spin, &QDoubleSpinBox::editingFinished, this, [this, key, spin] {
        for (const auto& g : env_.flags)
          if (g.name == key && std::get<double>(g.value) != spin->value())
            edited(key, QString::number(spin->value(), 'g', 17));
      });
      ed = spin;
    } else {
      auto* line = new QLineEdit;
      line->setPlaceholderText(tr("(empty)"));
      connect(line, &QLineEdit::editingFinished, this, [this, key, line] {
        for (const auto& g : env_.flags)
          if (g.name == key && std::get<std::string>(g.value) != line->text().toStdString())
            edited(key, line->text());
      });
      ed = line;
    }
    ed->setObjectName(QString::fromStdString("flag:" + f.name));
    ed->setEnabled(!f.read_only);
    ed->setToolTip(QString::fromStdString(f.help));
    flags_->setCellWidget(row, FlagValue, ed);
    editors_[f.name] = ed;
    ++flag;
  }
  update_values();
  // From the names alone: the descriptions span every column and would widen the first one.
  int name_w = 0;
  for (const auto& f : env_.flags)
    name_w = std::max(
        name_w, QFontMetrics(flags_->font()).horizontalAdvance(QString::fromStdString(f.name)));
  flags_->setColumnWidth(FlagName, name_w * 6 / 5 + 16);  // the names are bold
  flags_->resizeColumnToContents(FlagType);
  flags_->resizeRowsToContents();
}

void EnvDock::update_values() {
  for (const auto& f : env_.flags) {
    QWidget* ed = editors_.at(f.name);
    const QSignalBlocker block(ed);
    if (auto* box = qobject_cast<QCheckBox*>(ed))
      box->setChecked(std::get<bool>(f.value));
    else if (auto* spin = qobject_cast<QSpinBox*>(ed))
      spin->setValue(static_cast<int>(
          std::clamp<std::int64_t>(std::get<std::int64_t>(f.value), INT_MIN, INT_MAX)));
    else if (auto* dspin = qobject_cast<QDoubleSpinBox*>(ed))
      dspin->setValue(std::get<double>(f.value));
    else if (auto* line = qobject_cast<QLineEdit*>(ed))
      line->setText(QString::fromStdString(std::get<std::string>(f.value)));
  }
}

}  // namespace tfjsi::ui
