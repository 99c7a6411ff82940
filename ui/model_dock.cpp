#include "model_dock.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLocale>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <vector>

namespace tfjsi::ui {
namespace {

QString str(const nlohmann::json& j) {
  if (j.is_string()) return QString::fromStdString(j.get<std::string>());
  if (j.is_null()) return QStringLiteral("-");
  return QString::fromStdString(j.dump());
}

QString shape_text(const nlohmann::json& shape) {
  if (!shape.is_array()) return QStringLiteral("<unknown>");
  QStringList dims;
  for (const auto& d : shape)
    dims << (d.is_number_integer() && d.get<long long>() >= 0 ? QString::number(d.get<long long>())
                                                              : QStringLiteral("?"));
  return "[" + dims.join(',') + "]";
}

QString bytes(const nlohmann::json& j) {
  return j.is_number() ? QLocale::system().formattedDataSize(j.get<qint64>()) : QStringLiteral("-");
}

QTreeWidgetItem* add(QTreeWidgetItem* parent, const QString& k, const QString& v) {
  auto* it = new QTreeWidgetItem(parent, {k, v});
  it->setToolTip(1, v);
  return it;
}

}  // namespace

ModelDock::ModelDock(QWidget* parent) : QDockWidget(tr("Model"), parent) {
  setObjectName("modelDock");
  auto* body = new QWidget(this);
  auto* v = new QVBoxLayout(body);
  v->setContentsMargins(0, 0, 0, 0);
  v->setSpacing(2);
  auto* row = new QHBoxLayout;
  row->setContentsMargins(4, 2, 4, 0);
  quantize_ = new QPushButton(tr("Quantize..."), body);
  quantize_->setObjectName("quantizeButton");
  quantize_->setToolTip(
      tr("Write a copy of this model with its weights quantized to float16, uint16 or uint8 (as "
         "tensorflowjs_converter writes them), with the drift each choice costs measured."));
  quantize_->setEnabled(false);
  row->addWidget(quantize_);
  row->addStretch(1);
  v->addLayout(row);
  tree_ = new QTreeWidget(body);
  tree_->setObjectName("modelTree");
  tree_->setColumnCount(2);
  tree_->setHeaderLabels({tr("Property"), tr("Value")});
  tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  tree_->setUniformRowHeights(true);
  tree_->setAlternatingRowColors(true);
  v->addWidget(tree_, 1);
  setWidget(body);
  connect(quantize_, &QPushButton::clicked, this, &ModelDock::quantizeRequested);
  connect(tree_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* it) {
    QString node = it->data(0, Qt::UserRole).toString();
    if (!node.isEmpty()) emit nodeActivated(node);
  });
}

void ModelDock::set_quantize_enabled(bool enabled) {
  quantize_->setEnabled(enabled);
}

void ModelDock::clear() {
  tree_->clear();
}

void ModelDock::show_summary(const nlohmann::json& s) {
  tree_->clear();
  auto* general = new QTreeWidgetItem(tree_, {tr("General")});
  add(general, tr("File"), str(s.value("file", nlohmann::json())));
  add(general, tr("Kind"), str(s.value("kind", nlohmann::json())));
  add(general, tr("Format"), str(s.value("format", nlohmann::json())));
  if (s.contains("producer"))
    for (auto& [k, v] : s["producer"].items())
      if (!(v.is_string() && v.get<std::string>().empty()))
        add(general, QString::fromStdString(k).replace('_', ' '), str(v));
  add(general, tr("Nodes"), str(s.value("node_count", nlohmann::json())));

  auto endpoints = [&](const char* key, const QString& title) {
    const auto& list = s.value(key, nlohmann::json::array());
    auto* sec = new QTreeWidgetItem(tree_, {title, QString::number(list.size())});
    for (const auto& e : list) {
      QString dtype = str(e.value("dtype", nlohmann::json()));
      auto* it = add(sec, str(e.value("name", nlohmann::json())),
                     shape_text(e.value("shape", nlohmann::json())) + "  " + dtype);
      QString node = str(e.value("node", nlohmann::json()));
      it->setData(0, Qt::UserRole, node);
      it->setToolTip(0, tr("node %1 (double-click to show it)").arg(node));
    }
    sec->setExpanded(true);
  };
  endpoints("inputs", tr("Inputs"));
  endpoints("outputs", tr("Outputs"));

  if (s.contains("op_histogram")) {
    std::vector<std::pair<int, std::string>> ops;
    for (auto& [op, n] : s["op_histogram"].items()) ops.emplace_back(n.get<int>(), op);
    std::sort(ops.begin(), ops.end(), [](auto& a, auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    auto* sec = new QTreeWidgetItem(tree_, {tr("Ops"), tr("%1 kinds").arg(ops.size())});
    for (auto& [n, op] : ops) add(sec, QString::fromStdString(op), QString::number(n));
    sec->setExpanded(true);
  }

  if (s.contains("weights")) {
    const auto& w = s["weights"];
    auto* sec =
        new QTreeWidgetItem(tree_, {tr("Weights"), str(w.value("count", nlohmann::json()))});
    add(sec, tr("On disk"), bytes(w.value("bytes_on_disk", nlohmann::json())));
    add(sec, tr("Decoded"), bytes(w.value("bytes_decoded", nlohmann::json())));
    if (w.contains("by_quantization"))
      for (auto& [q, v] : w["by_quantization"].items())
        add(sec, tr("quantization: %1").arg(QString::fromStdString(q)),
            tr("%1 weights, %2 on disk, %3 decoded")
                .arg(str(v.value("count", nlohmann::json())),
                     bytes(v.value("bytes_on_disk", nlohmann::json())),
                     bytes(v.value("bytes_decoded", nlohmann::json()))));
    if (w.contains("by_dtype"))
      for (auto& [d, v] : w["by_dtype"].items())
        add(sec, tr("dtype: %1").arg(QString::fromStdString(d)),
            tr("%1 weights, %2")
                .arg(str(v.value("count", nlohmann::json())),
                     bytes(v.value("bytes_decoded", nlohmann::json()))));
    sec->setExpanded(true);
  }
  if (s.contains("shards") && !s["shards"].empty()) {
    auto* sec = new QTreeWidgetItem(tree_, {tr("Shards"), QString::number(s["shards"].size())});
    for (const auto& sh : s["shards"])
      add(sec, str(sh.value("path", nlohmann::json())), bytes(sh.value("bytes", nlohmann::json())));
  }
  if (s.contains("warnings") && !s["warnings"].empty()) {
    auto* sec = new QTreeWidgetItem(tree_, {tr("Warnings"), QString::number(s["warnings"].size())});
    for (const auto& w : s["warnings"]) add(sec, QString(), str(w));
    sec->setExpanded(true);
  }
  general->setExpanded(true);
}

}  // namespace tfjsi::ui
