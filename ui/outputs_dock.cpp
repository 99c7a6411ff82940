#include "outputs_dock.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "io/npy.h"
#include "tensor_stats.h"
#include "tensor_view.h"

namespace tfjsi::ui {
namespace {

QString qs(const std::string& s) {
  return QString::fromStdString(s);
}

QTreeWidgetItem* add(QTreeWidget* tree, const QString& k, const QString& v) {
  auto* it = new QTreeWidgetItem(tree, {k, v});
  it->setToolTip(1, v);
  return it;
}

QString num(double x) {
  return QString::number(x, 'g', 7);
}
// Nine digits: a float32 value (min, max, an element) reads back exactly.
QString exact(double x) {
  return QString::number(x, 'g', 9);
}

}  // namespace

OutputsDock::OutputsDock(QWidget* parent) : QDockWidget(tr("Outputs"), parent) {
  setObjectName("outputsDock");
  auto* body = new QWidget(this);
  auto* layout = new QVBoxLayout(body);
  layout->setContentsMargins(4, 4, 4, 4);
  auto* top = new QHBoxLayout;
  combo_ = new QComboBox(body);
  combo_->setObjectName("tensorCombo");
  combo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  combo_->setMinimumContentsLength(16);
  export_ = new QPushButton(tr("Export .npy..."), body);
  export_->setObjectName("exportNpy");
  top->addWidget(combo_, 1);
  top->addWidget(export_);
  layout->addLayout(top);
  note_ = new QLabel(tr("Run the model to see its outputs."), body);
  note_->setObjectName("outputsNote");
  note_->setWordWrap(true);
  layout->addWidget(note_);

  auto* split = new QSplitter(Qt::Vertical, body);
  tree_ = new QTreeWidget(split);
  tree_->setObjectName("outputsTree");
  tree_->setColumnCount(2);
  tree_->setHeaderLabels({tr("Property"), tr("Value")});
  tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  tree_->setRootIsDecorated(true);
  image_box_ = new QWidget(split);
  auto* image_box = image_box_;
  auto* image_layout = new QVBoxLayout(image_box);
  image_layout->setContentsMargins(0, 0, 0, 0);
  auto* channel_row = new QHBoxLayout;
  batch_ = new QSpinBox(image_box);
  batch_->setObjectName("batchBox");
  batch_->setPrefix(tr("batch "));
  channel_ = new QSpinBox(image_box);
  channel_->setObjectName("channelBox");
  channel_->setPrefix(tr("channel "));
  channel_->setSpecialValueText(tr("RGB"));
  channel_row->addWidget(batch_);
  channel_row->addWidget(channel_);
  channel_row->addStretch(1);
  image_layout->addLayout(channel_row);
  view_ = new TensorView(image_box);
  view_->setObjectName("tensorView");
  image_layout->addWidget(view_, 1);
  split->addWidget(tree_);
  split->addWidget(image_box);
  layout->addWidget(split, 1);
  setWidget(body);

  connect(combo_, &QComboBox::currentIndexChanged, this, &OutputsDock::show_entry);
  connect(channel_, &QSpinBox::valueChanged, view_, &TensorView::set_channel);
  connect(batch_, &QSpinBox::valueChanged, view_, &TensorView::set_batch);
  connect(export_, &QPushButton::clicked, this, &OutputsDock::export_dialog);
  show_entry(-1);
}

void OutputsDock::set_model(LoadedModelPtr model) {
  model_ = std::move(model);
  result_.reset();
  entries_.clear();
  rebuild_combo(-1);
  note_->setText(tr("Run the model to see its outputs."));
}

void OutputsDock::show_result(RunResultPtr result) {
  result_ = std::move(result);
  entries_.clear();
  for (const auto& o : result_->outputs)
    entries_.push_back({qs(o.name) + "  " + qs(shape_to_string(o.tensor.shape)), o.tensor});
  note_->setText(tr("Run %1 on %2: %3 outputs")
                     .arg(result_->id)
                     .arg(qs(result_->backend) +
                          (result_->backend == "gl" ? (result_->fp16 ? " fp16" : " fp32") : ""))
                     .arg(result_->outputs.size()));
  rebuild_combo(entries_.empty() ? -1 : 0);
}

void OutputsDock::show_node(const std::string& node) {
  if (!result_) return;
  // Drop the previous node's entries; keep the outputs.
  std::erase_if(entries_, [](const Entry& e) { return e.from_node; });
  const auto it = result_->intermediates.find(node);
  if (it == result_->intermediates.end()) {
    note_->setText(
        result_->intermediates.empty()
            ? tr("Run with \"Keep intermediates\" to see the output of %1.").arg(qs(node))
            : tr("%1 kept no output in this run (not run, or past the memory cap).").arg(qs(node)));
    rebuild_combo(combo_->currentIndex() < tensor_count() ? combo_->currentIndex() : 0);
    return;
  }
  const int first = tensor_count();
  for (std::size_t k = 0; k < it->second.size(); ++k) {
    const HostTensor& t = it->second[k];
    if (!t.buffer && !t.strings) continue;
    entries_.push_back(
        {qs(node) + ":" + QString::number(k) + "  " + qs(shape_to_string(t.shape)), t, true});
  }
  note_->setText(tr("Node %1: %2 kept outputs").arg(qs(node)).arg(tensor_count() - first));
  rebuild_combo(tensor_count() > first ? first : 0);
}

void OutputsDock::rebuild_combo(int select) {
  const QSignalBlocker block(combo_);
  combo_->clear();
  for (const auto& e : entries_) combo_->addItem(e.title);
  combo_->setCurrentIndex(select);
  show_entry(select);
}

const HostTensor* OutputsDock::current_tensor() const {
  const int i = combo_->currentIndex();
  return i >= 0 && i < tensor_count() ? &entries_[static_cast<std::size_t>(i)].tensor : nullptr;
}

QString OutputsDock::current_title() const {
  const int i = combo_->currentIndex();
  return i >= 0 && i < tensor_count() ? entries_[static_cast<std::size_t>(i)].title : QString();
}

void OutputsDock::show_entry(int index) {
  tree_->clear();
  const HostTensor* t = index >= 0 && index < tensor_count()
                            ? &entries_[static_cast<std::size_t>(index)].tensor
                            : nullptr;
  export_->setEnabled(t != nullptr);
  if (!t) {
    view_->set_tensor({});
    image_box_->setVisible(false);
    channel_->setEnabled(false);
    batch_->setEnabled(false);
    return;
  }
  add(tree_, tr("Shape"), qs(shape_to_string(t->shape)));
  add(tree_, tr("DType"), qs(std::string(to_string(t->dtype))));
  const TensorStats s = tensor_stats(*t);
  add(tree_, tr("Elements"), QString::number(t->num_elements()));
  if (t->dtype == DType::Complex64)
    add(tree_, tr("Stats over"), tr("real and imaginary parts (%1 values)").arg(s.count));
  if (t->dtype != DType::String) {
    add(tree_, tr("Min"), exact(s.min));
    add(tree_, tr("Max"), exact(s.max));
    add(tree_, tr("Mean"), num(s.mean));
    add(tree_, tr("Std"), num(s.std));
    add(tree_, tr("Sparsity"), tr("%1% zeros").arg(100.0 * s.sparsity(), 0, 'f', 2));
    add(tree_, tr("NaN"), QString::number(s.nan));
    add(tree_, tr("inf"), QString::number(s.inf));
    add(tree_, tr("|x| > 65504"), QString::number(s.overflow))
        ->setToolTip(0, tr("finite values that half floats (fp16 textures) cannot hold"));
  }
  add(tree_, tr("First values"), first_values(*t, 16));
  if (classifier_like(*t)) {
    // Names only where the model's list has one per score.
    QStringList names;
    if (model_ && model_->bundle.metadata.is_object() &&
        model_->bundle.metadata.contains("classes") &&
        model_->bundle.metadata["classes"].is_array() &&
        static_cast<std::int64_t>(model_->bundle.metadata["classes"].size()) == t->shape.back())
      for (const auto& c : model_->bundle.metadata["classes"])
        names << (c.is_string() ? qs(c.get<std::string>()) : qs(c.dump()));
    const int rows = t->rank() == 2 ? static_cast<int>(t->shape[0]) : 1;
    // Without names, "class" only for a row that sums to 1 (a softmax); else it is an index
    // (a detector's per-box scores are not classes).
    double sum = 0;
    const std::int64_t classes = t->shape.back();
    for (std::int64_t i = 0; i < classes && i < t->num_elements(); ++i) sum += element(*t, i);
    const bool softmax = std::abs(sum - 1.0) < 0.01;
    for (int r = 0; r < std::min(rows, 4); ++r) {
      auto* top = add(tree_, rows > 1 ? tr("Top 5, row %1").arg(r) : tr("Top 5"), {});
      for (const auto& [cls, v] : top_k(*t, r, 5)) {
        const QString label = cls < names.size() ? tr("%1 (%2)").arg(names[cls]).arg(cls)
                              : softmax          ? tr("class %1").arg(cls)
                                                 : tr("index %1").arg(cls);
        new QTreeWidgetItem(top, {label, exact(v)});
      }
      top->setExpanded(true);
    }
  }

  const bool image = has_image_view(*t);
  image_box_->setVisible(image);  // the statistics get the room otherwise
  channel_->setEnabled(image);
  batch_->setEnabled(image && image_batches(*t) > 1);
  if (image) {
    const int c = image_channels(*t);
    const QSignalBlocker b1(channel_), b2(batch_);
    // "RGB" is the value below channel 0, offered only where there are three channels to show.
    channel_->setSpecialValueText(c >= 3 ? tr("RGB") : QString());
    channel_->setRange(c >= 3 ? -1 : 0, c - 1);
    channel_->setEnabled(c > 1);
    channel_->setValue(c == 3 ? -1 : std::clamp(channel_->value(), 0, c - 1));
    batch_->setRange(0, image_batches(*t) - 1);
    batch_->setValue(0);
    view_->set_batch(0);
    view_->set_channel(channel_->value());
  }
  view_->set_tensor(*t);
}

void OutputsDock::export_npy(const QString& file) const {
  const HostTensor* t = current_tensor();
  if (!t) throw std::runtime_error("no tensor to export");
  io::write_npy(file.toStdString(), *t);
}

void OutputsDock::export_dialog() {
  QString name = current_title().section(' ', 0, 0);
  name.replace('/', '_').replace(':', '_');
  const QString file = QFileDialog::getSaveFileName(this, tr("Export tensor as .npy"),
                                                    name + ".npy", tr("NumPy array (*.npy)"));
  if (file.isEmpty()) return;
  try {
    export_npy(file);
    note_->setText(tr("Saved %1").arg(file));
  } catch (const std::exception& e) {
    QMessageBox::warning(this, tr("Export failed"), QString::fromUtf8(e.what()));
  }
}

}  // namespace tfjsi::ui
