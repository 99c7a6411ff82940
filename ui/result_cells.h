// What the analysis panels (Precision, Compare) show numbers and nodes with: a table cell that
// sorts by its number, an error as short text, a node name as a link ("node:NAME") that the
// panel turns into a jump in the graph.
#pragma once

#include <QHeaderView>
#include <QObject>
#include <QString>
#include <QTableWidget>
#include <QTableWidgetItem>
#include <QUrl>
#include <cmath>
#include <string>

namespace tfjsi::ui {

// The analysis tables' common look: whole rows selected one at a time, nothing editable, no row
// numbers, compact rows, columns sized to their contents.
inline void read_only_rows(QTableWidget* table) {
  table->setSelectionBehavior(QAbstractItemView::SelectRows);
  table->setSelectionMode(QAbstractItemView::SingleSelection);
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->verticalHeader()->hide();
  table->verticalHeader()->setDefaultSectionSize(20);
  table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
}

// A table cell that sorts by a number (Qt::UserRole) rather than by its text.
class NumberItem final : public QTableWidgetItem {
 public:
  NumberItem(const QString& text, double key) : QTableWidgetItem(text) {
    setData(Qt::UserRole, key);
    setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  }
  bool operator<(const QTableWidgetItem& other) const override {
    return data(Qt::UserRole).toDouble() < other.data(Qt::UserRole).toDouble();
  }
};

inline QString error_text(double v) {
  if (std::isinf(v)) return QStringLiteral("inf");
  if (std::isnan(v)) return QStringLiteral("nan");
  if (v == 0) return QStringLiteral("0");
  return QString::number(v, 'e', 1);
}

// A wall time: "40 ms" under a second, else "2.5 s".
inline QString duration_text(double seconds) {
  if (seconds < 1) return QStringLiteral("%1 ms").arg(seconds * 1000, 0, 'f', 0);
  return QStringLiteral("%1 s").arg(seconds, 0, 'f', 1);
}

inline QString node_link(const std::string& node) {
  const QString name = QString::fromStdString(node);
  return QStringLiteral("<a href=\"node:%1\">%2</a>")
      .arg(QString::fromLatin1(QUrl::toPercentEncoding(name)), name.toHtmlEscaped());
}

// The node a "node:NAME" link names (empty for another link).
inline QString linked_node(const QString& href) {
  if (!href.startsWith(QStringLiteral("node:"))) return QString();
  return QUrl::fromPercentEncoding(href.mid(5).toLatin1());
}

}  // namespace tfjsi::ui
