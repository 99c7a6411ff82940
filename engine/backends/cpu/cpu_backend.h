// The cpu backend: the reference kernels of registry.cpp behind the Backend interface. Its data
// are host buffers, so upload and download share storage instead of copying.
#pragma once

#include <map>
#include <string>

#include "backends/cpu/kernel.h"
#include "runtime/backend.h"
#include "runtime/host_data.h"

namespace tfjsi::cpu {

// A host buffer (or string list) as the cpu backend holds it; the tensor gives dtype and shape.
// The cpu backend's tensor data: host memory, told apart from other backends' by its type.
class CpuData final : public runtime::HostData {
 public:
  using HostData::HostData;
};

class CpuBackend final : public runtime::Backend {
 public:
  std::string_view name() const override { return "cpu"; }
  int priority() const override { return 100; }
  runtime::Availability availability() override { return {true, {}}; }

  bool supports(const graph::Node& node) const override;
  std::vector<std::string_view> native_ops() const override;
  std::shared_ptr<runtime::BackendData> upload(const HostTensor& host) override;
  HostTensor download(const runtime::TensorView& tensor) override;
  std::vector<runtime::TensorView> run(const graph::Node& node,
                                       std::span<const runtime::TensorView> inputs,
                                       const runtime::RunContext& ctx) override;

  // Kernels that take precedence over the registry for `op`: tests add ops the registry lacks, or
  // perturb one on purpose. nullptr removes an override.
  void override_kernel(std::string op, Kernel fn);
  // The kernel used for `op` (override first, then the registry), or nullptr.
  Kernel kernel_for(std::string_view op) const;

 private:
  std::map<std::string, Kernel, std::less<>> overrides_;
};

}  // namespace tfjsi::cpu
