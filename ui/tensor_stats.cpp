#include "tensor_stats.h"

#include <QStringList>
#include <algorithm>
#include <cmath>
#include <complex>
#include <numeric>

namespace tfjsi::ui {

double element(const HostTensor& t, std::int64_t i) {
  const auto k = static_cast<std::size_t>(i);
  switch (t.dtype) {
    case DType::Float32:
      return static_cast<double>(t.values<float>()[k]);
    case DType::Int32:
      return static_cast<double>(t.values<std::int32_t>()[k]);
    case DType::Bool:
      return t.values<std::uint8_t>()[k] ? 1.0 : 0.0;
    case DType::String:
    case DType::Complex64:  // no one real value; first_values shows both parts
      break;
  }
  return std::nan("");
}

QString first_values(const HostTensor& t, int n) {
  QStringList parts;
  const std::int64_t count = std::min<std::int64_t>(t.num_elements(), n);
  for (std::int64_t i = 0; i < count; ++i) {
    if (t.dtype == DType::String) {
      parts << QString::fromStdString((*t.strings)[static_cast<std::size_t>(i)]);
    } else if (t.dtype == DType::Complex64) {
      const auto c = t.values<std::complex<float>>()[static_cast<std::size_t>(i)];
      parts << QStringLiteral("%1%2%3i")
                   .arg(c.real(), 0, 'g', 9)
                   .arg(std::signbit(c.imag()) ? '-' : '+')
                   .arg(std::fabs(c.imag()), 0, 'g', 9);
    } else if (t.dtype == DType::Float32) {
      parts << QString::number(element(t, i), 'g', 9);
    } else {
      parts << QString::number(static_cast<std::int64_t>(element(t, i)));
    }
  }
  QString s = parts.join(", ");
  if (t.num_elements() > count) s += QStringLiteral(", ...");
  return s;
}

bool classifier_like(const HostTensor& t) {
  if (t.dtype != DType::Float32) return false;
  const std::int64_t classes = t.shape.empty() ? 0 : t.shape.back();
  if ((t.rank() != 2 && t.rank() != 1) || classes <= 1) return false;
  // Rows of probabilities (each in [0, 1], summing to 1: a softmax) are class scores however few
  // classes there are, as the sample's four shapes.
  const std::int64_t rows = t.num_elements() / classes;
  bool distributions = rows > 0;
  for (std::int64_t r = 0; distributions && r < rows; ++r) {
    double sum = 0;
    for (std::int64_t c = 0; distributions && c < classes; ++c) {
      const double v = element(t, r * classes + c);
      distributions = v >= 0 && v <= 1;
      sum += v;
    }
    distributions = distributions && std::abs(sum - 1.0) < 0.01;
  }
  if (distributions) return true;
  // Otherwise more classes than the top 5 shows: [N, 4] boxes and [N, 2] points are not scores.
  if (classes <= 5) return false;
  // Scores are fractions; a row of whole numbers is ids or counts (a detector's class ids).
  const std::int64_t n = t.num_elements();
  for (std::int64_t i = 0; i < n; ++i) {
    const double v = element(t, i);
    if (std::isfinite(v) && v != std::floor(v)) return true;
  }
  return false;
}

std::vector<std::pair<int, double>> top_k(const HostTensor& t, int row, int k) {
  if (t.shape.empty()) return {};
  const auto classes = static_cast<int>(t.shape.back());
  const std::int64_t base = static_cast<std::int64_t>(row) * classes;
  if (row < 0 || base + classes > t.num_elements()) return {};
  std::vector<std::pair<int, double>> v;
  for (int c = 0; c < classes; ++c) v.emplace_back(c, element(t, base + c));
  auto larger = [](const auto& a, const auto& b) {
    if (std::isnan(a.second)) return false;
    if (std::isnan(b.second)) return true;
    return a.second > b.second;
  };
  const auto n = static_cast<std::size_t>(std::clamp(k, 0, classes));
  std::partial_sort(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n), v.end(), larger);
  v.resize(n);
  return v;
}

}  // namespace tfjsi::ui
