#include "properties_dock.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "attr_format.h"
#include "histogram_widget.h"
#include "weight_stats.h"

namespace tfjsi::ui {
namespace {

QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

QTreeWidgetItem* add(QTreeWidgetItem* parent, const QString& k, const QString& v) {
  auto* it = new QTreeWidgetItem(parent, {k, v});
  it->setToolTip(0, k);
  it->setToolTip(1, v);
  return it;
}

}  // namespace

PropertiesDock::PropertiesDock(QWidget* parent) : QDockWidget(tr("Properties"), parent) {
  setObjectName("propertiesDock");
  auto* body = new QWidget(this);
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(4, 4, 4, 4);
  header_ = new QLabel(tr("Select a node in the graph."), body);
  header_->setObjectName("propertiesHeader");
  header_->setWordWrap(true);
  header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  tree_ = new QTreeWidget(body);
  tree_->setObjectName("propertiesTree");
  tree_->setColumnCount(2);
  tree_->setHeaderLabels({tr("Property"), tr("Value")});
  // Keys are short; values (names, shapes, tensors) need the room.
  tree_->header()->setSectionResizeMode(0, QHeaderView::Interactive);
  tree_->header()->resizeSection(0, 120);
  tree_->setTextElideMode(Qt::ElideMiddle);
  tree_->setAlternatingRowColors(true);
  histogram_ = new HistogramWidget(body);
  histogram_->setObjectName("weightHistogram");
  histogram_->hide();
  layout->addWidget(header_);
  layout->addWidget(tree_, 1);
  layout->addWidget(histogram_);
  setWidget(body);
  connect(tree_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* it) {
    bool ok = false;
    int n = it->data(0, Qt::UserRole).toInt(&ok);
    if (ok && it->data(0, Qt::UserRole).isValid()) emit nodeActivated(n);
  });
}

void PropertiesDock::set_model(LoadedModelPtr model) {
  model_ = std::move(model);
  show_node(-1);
}

void PropertiesDock::show_group(const QString& path, int node_count, bool open) {
  tree_->clear();
  histogram_->hide();
  current_.clear();
  header_->setText(
      (open ? tr("<b>Group</b> %1<br>%2 nodes, open in the graph — double-click its title to "
                 "close it.")
            : tr("<b>Group</b> %1<br>%2 nodes — double-click it in the graph to open it."))
          .arg(path.toHtmlEscaped())
          .arg(node_count));
}

void PropertiesDock::show_node(int index) {
  tree_->clear();
  histogram_->hide();
  current_.clear();
  if (!model_ || !model_->graph || index < 0 ||
      index >= static_cast<int>(model_->graph->nodes.size())) {
    header_->setText(model_ ? tr("Select a node in the graph.") : tr("No model open."));
    return;
  }
  const graph::Graph& g = *model_->graph;
  const graph::Node& n = g.nodes[static_cast<size_t>(index)];
  current_ = qs(n.name);
  header_->setText(
      QStringLiteral("<b>%1</b><br>%2").arg(qs(n.op).toHtmlEscaped(), qs(n.name).toHtmlEscaped()));

  auto* node = new QTreeWidgetItem(tree_, {tr("Node")});
  add(node, tr("op"), qs(n.op));
  add(node, tr("name"), qs(n.name));
  if (!n.device.empty()) add(node, tr("device"), qs(n.device));
  if (!n.group.empty()) add(node, tr("group"), qs(n.group));
  if (n.op != "Const" && n.op != "Placeholder") {
    const auto& costs = model_->cost.nodes;
    const auto i = static_cast<std::size_t>(index);
    if (i < costs.size() && costs[i].known) {
      const QLocale locale;
      add(node, tr("FLOPs"),
          qs(analysis::format_flops(static_cast<double>(costs[i].flops))) +
              tr(" (%1)").arg(locale.toString(static_cast<qlonglong>(costs[i].flops))));
      add(node, tr("bytes"),
          tr("%1 read, %2 written")
              .arg(locale.formattedDataSize(costs[i].bytes_read),
                   locale.formattedDataSize(costs[i].bytes_written)));
    } else {
      add(node, tr("FLOPs"), tr("shapes known only at run time"));
    }
  }
  node->setExpanded(true);

  if (!n.attrs.empty()) {
    auto* attrs = new QTreeWidgetItem(tree_, {tr("Attributes"), QString::number(n.attrs.size())});
    for (const auto& [k, v] : n.attrs) add(attrs, qs(k), qs(format_attr(v)));
    attrs->setExpanded(true);
  }

  auto* inputs = new QTreeWidgetItem(tree_, {tr("Inputs"), QString::number(n.inputs.size())});
  for (std::size_t i = 0; i < n.inputs.size(); ++i) {
    const auto& ref = n.inputs[i];
    QString what = tr("?");
    QString src = tr("(unresolved)");
    if (ref.node >= 0 && ref.node < static_cast<int>(g.nodes.size())) {
      const auto& s = g.nodes[static_cast<size_t>(ref.node)];
      src = qs(s.name) + (ref.output ? QStringLiteral(":%1").arg(ref.output) : QString());
      if (ref.output >= 0 && static_cast<size_t>(ref.output) < s.outputs.size())
        what = qs(format_tensor_info(s.outputs[static_cast<size_t>(ref.output)]));
      if (s.op == "Const") what += QStringLiteral("  (const)");
    }
    auto* it = add(inputs, QString::number(i), src + QStringLiteral("   ") + what);
    it->setData(0, Qt::UserRole, ref.node);
  }
  for (int c : n.control_inputs)
    if (c >= 0 && c < static_cast<int>(g.nodes.size()))
      add(inputs, tr("control"), qs(g.nodes[static_cast<size_t>(c)].name))
          ->setData(0, Qt::UserRole, c);
  inputs->setExpanded(true);

  auto* outputs = new QTreeWidgetItem(tree_, {tr("Outputs"), QString::number(n.outputs.size())});
  for (std::size_t i = 0; i < n.outputs.size(); ++i)
    add(outputs, QString::number(i), qs(format_tensor_info(n.outputs[i])));
  outputs->setExpanded(true);

  // Consumers: who reads this node (the graph stores only the other direction).
  auto* users = new QTreeWidgetItem(tree_, {tr("Consumers")});
  int count = 0;
  for (std::size_t j = 0; j < g.nodes.size(); ++j)
    for (const auto& ref : g.nodes[j].inputs)
      if (ref.node == index) {
        add(users, qs(g.nodes[j].op), qs(g.nodes[j].name))
            ->setData(0, Qt::UserRole, static_cast<int>(j));
        ++count;
        break;
      }
  users->setText(1, QString::number(count));

  if (n.value) {
    const HostTensor& t = *n.value;
    auto* w = new QTreeWidgetItem(tree_, {tr("Weight")});
    add(w, tr("shape"), qs(shape_to_string(t.shape)));
    add(w, tr("dtype"), qs(std::string(to_string(t.dtype))));
    add(w, tr("elements"), QLocale::system().toString(static_cast<qlonglong>(t.num_elements())));
    add(w, tr("bytes decoded"),
        QLocale::system().formattedDataSize(static_cast<qint64>(t.byte_size())));
    if (const model::Weight* mw = model_->bundle.find_weight(n.name)) {
      add(w, tr("stored as"), qs(std::string(model::to_string(mw->quantization))));
      if (mw->quantization == model::Quantization::Uint8 ||
          mw->quantization == model::Quantization::Uint16)
        add(w, tr("scale / min"),
            QStringLiteral("%1 / %2").arg(mw->scale, 0, 'g', 6).arg(mw->min, 0, 'g', 6));
      add(w, tr("bytes on disk"),
          QLocale::system().formattedDataSize(static_cast<qint64>(mw->stored_bytes)));
    } else {
      add(w, tr("stored as"), tr("inline value in model.json"));
    }
    const WeightStats st = weight_stats(t);
    if (st.finite > 0) {
      add(w, tr("min"), QString::number(st.min, 'g', 6));
      add(w, tr("max"), QString::number(st.max, 'g', 6));
      add(w, tr("mean"), QString::number(st.mean, 'g', 6));
      add(w, tr("std"), QString::number(st.stddev, 'g', 6));
      add(w, tr("zeros"), QString::number(st.zeros));
    }
    if (st.nan || st.inf) add(w, tr("non-finite"), tr("%1 NaN, %2 inf").arg(st.nan).arg(st.inf));
    add(w, tr("values"), qs(preview_values(t)));
    w->setExpanded(true);
    if (st.finite > 1 && !st.histogram.empty()) {
      histogram_->set_data(st.histogram, st.min, st.max);
      histogram_->show();
    }
  }
}

}  // namespace tfjsi::ui
