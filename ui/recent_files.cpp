#include "recent_files.h"

#include <QFileInfo>
#include <QSettings>

namespace tfjsi::ui {
namespace {
constexpr auto kKey = "recentFiles";
}

QStringList RecentFiles::list() const {
  return QSettings().value(kKey).toStringList();
}

void RecentFiles::add(const QString& path) {
  const QString abs = QFileInfo(path).absoluteFilePath();
  QStringList l = list();
  l.removeAll(abs);
  l.prepend(abs);
  while (l.size() > max_) l.removeLast();
  QSettings().setValue(kKey, l);
}

void RecentFiles::remove(const QString& path) {
  QStringList l = list();
  l.removeAll(path);
  QSettings().setValue(kKey, l);
}

void RecentFiles::clear() {
  QSettings().remove(kKey);
}

}  // namespace tfjsi::ui
