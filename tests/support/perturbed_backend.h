// A test hook: a Backend that wraps a real one (gl, xnnpack) and skews the outputs of one named
// node (x * 1.25 + 0.5), held by the engine under the wrapped backend's name. The backend
// comparison and `tfjsi reduce`'s diverge condition must find that node.
#pragma once

#include <memory>
#include <string>

#include "runtime/backend.h"

namespace tfjsi::test {

class PerturbedBackend final : public runtime::Backend {
 public:
  PerturbedBackend(std::unique_ptr<runtime::Backend> inner, std::string node)
      : target(std::move(node)), inner_(std::move(inner)) {}
  std::string_view name() const override { return inner_->name(); }
  int priority() const override { return inner_->priority(); }
  runtime::Availability availability() override { return inner_->availability(); }
  void declare_flags(runtime::Flags& flags) override { inner_->declare_flags(flags); }
  bool supports(const graph::Node& node) const override { return inner_->supports(node); }
  std::shared_ptr<runtime::BackendData> upload(const HostTensor& host) override {
    return inner_->upload(host);
  }
  HostTensor download(const runtime::TensorView& t) override { return inner_->download(t); }
  runtime::BackendMemory memory() const override { return inner_->memory(); }
  std::vector<runtime::TensorView> run(const graph::Node& node,
                                       std::span<const runtime::TensorView> inputs,
                                       const runtime::RunContext& ctx) override {
    auto out = inner_->run(node, inputs, ctx);
    if (node.name != target) return out;
    ++hits;
    for (auto& v : out) {
      if (v.dtype != DType::Float32) continue;
      HostTensor h = inner_->download(v);
      HostTensor skewed = HostTensor::zeros(DType::Float32, h.shape);
      const auto src = h.values<float>();
      auto dst = skewed.mutable_values<float>();
      for (std::size_t i = 0; i < src.size(); ++i) dst[i] = src[i] * 1.25f + 0.5f;
      v.data = inner_->upload(skewed);
    }
    return out;
  }
  std::string target;  // the node whose outputs are skewed
  int hits = 0;

 private:
  std::unique_ptr<runtime::Backend> inner_;
};

}  // namespace tfjsi::test
