// The Open Recent list, kept in QSettings (newest first, at most `max` entries).
#pragma once

#include <QStringList>

namespace tfjsi::ui {

class RecentFiles {
 public:
  explicit RecentFiles(int max = 10) : max_(max) {}
  QStringList list() const;
  void add(const QString& path);
  void remove(const QString& path);
  void clear();

 private:
  int max_;
};

}  // namespace tfjsi::ui
