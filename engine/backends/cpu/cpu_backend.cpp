#include "backends/cpu/cpu_backend.h"

#include "core/error.h"
#include "ops/attr.h"
#include "ops/fusion.h"

namespace tfjsi::cpu {

void CpuBackend::override_kernel(std::string op, Kernel fn) {
  if (fn)
    overrides_[std::move(op)] = fn;
  else
    overrides_.erase(op);
}

Kernel CpuBackend::kernel_for(std::string_view op) const {
  if (auto it = overrides_.find(op); it != overrides_.end()) return it->second;
  return find_kernel(op);
}

std::vector<std::string_view> CpuBackend::native_ops() const {
  std::vector<std::string_view> ops;
  for (const KernelEntry& e : kernel_registry()) ops.push_back(e.op);
  return ops;
}

bool CpuBackend::supports(const graph::Node& node) const {
  return kernel_for(node.op) != nullptr;
}

std::shared_ptr<runtime::BackendData> CpuBackend::upload(const HostTensor& host) {
  return std::make_shared<CpuData>(host.buffer, host.strings);
}

HostTensor CpuBackend::download(const runtime::TensorView& tensor) {
  const auto* d = dynamic_cast<const CpuData*>(tensor.data.get());
  if (!d) throw std::logic_error("cpu backend: data of another backend");
  return d->as_host(tensor);
}

std::vector<runtime::TensorView> CpuBackend::run(const graph::Node& node,
                                                 std::span<const runtime::TensorView> inputs,
                                                 const runtime::RunContext& ctx) {
  const Kernel fn = kernel_for(node.op);
  if (!fn)
    throw ModelError("node '" + node.name + "' (" + node.op + "): no cpu kernel for this op");
  std::vector<HostTensor> host;
  host.reserve(inputs.size());
  for (const auto& in : inputs) host.push_back(download(in));
  refuse_complex(node, host);
  // A fused node's activation (the gl backend's offer, run here when its kernel fell back): the
  // activation's own kernel over the output. A Prelu's alpha is the node's last input, but for an
  // addend (ops::kFusedAddend of an op without a fused epilogue, whose kernels add their own):
  // the AddV2 kernel adds that last input before or after the activation.
  std::optional<HostTensor> addend;
  bool addend_after_act = false;
  if (!ops::has_fused_epilogue(node.op) && ops::attr<bool>(node, ops::kFusedAddend, false) &&
      !host.empty()) {
    addend = std::move(host.back());
    host.pop_back();
    addend_after_act = ops::attr<bool>(node, ops::kFusedAddendAfterActivation, false);
  }
  // Adds a fused bias or addend to the kernel's one output, broadcast as AddV2 does.
  auto add_fused = [&](std::vector<HostTensor>& out, HostTensor operand, const char* what) {
    if (out.size() != 1)
      throw ModelError("node '" + node.name + "' (" + node.op + "): cannot add a fused " + what);
    graph::Node a;
    a.name = node.name;
    a.op = "AddV2";
    out.push_back(std::move(operand));
    out = kernel_for("AddV2")(KernelContext{a, out, ctx.pool});
  };
  const auto act = ops::try_attr<std::string>(node, runtime::kFusedActivation);
  std::vector<HostTensor> act_extra;
  if (act && *act == "Prelu" && !host.empty()) {
    act_extra.push_back(std::move(host.back()));
    host.pop_back();
  }
  // A fused bias (kFusedBias): the node's last input (before a Prelu's alpha), added before the
  // activation (a vector per channel or a scalar broadcasts).
  std::optional<HostTensor> fused_bias;
  if (ops::attr<bool>(node, runtime::kFusedBias, false) && !host.empty()) {
    fused_bias = std::move(host.back());
    host.pop_back();
  }
  std::vector<HostTensor> out = fn(KernelContext{node, host, ctx.pool});
  if (fused_bias) add_fused(out, std::move(*fused_bias), "bias");
  if (addend && !addend_after_act) add_fused(out, std::move(*addend), "addend");
  if (act) {
    const Kernel act_fn = kernel_for(*act);
    if (!act_fn || out.size() != 1)
      throw ModelError("node '" + node.name + "' (" + node.op + "): cannot apply activation '" +
                       *act + "'");
    graph::Node a;
    a.name = node.name;
    a.op = *act;
    if (const auto* alpha = node.attr(runtime::kFusedActivationAlpha)) a.attrs["alpha"] = *alpha;
    for (auto& e : act_extra) out.push_back(std::move(e));
    out = act_fn(KernelContext{a, out, ctx.pool});
  }
  if (addend && addend_after_act) add_fused(out, std::move(*addend), "addend");

  std::vector<runtime::TensorView> views;
  views.reserve(out.size());
  for (auto& o : out) {
    if (!o.buffer) o.buffer = Buffer::allocate(0);
    const auto n = checked_num_elements(o.shape);
    if (!n || o.buffer->size() < static_cast<std::size_t>(*n) * element_size(o.dtype))
      throw std::logic_error("cpu kernel " + node.op + " (node '" + node.name +
                             "') returned a buffer smaller than its shape " +
                             shape_to_string(o.shape));
    // An output over an input's storage keeps that input's data object, so the Engine counts the
    // buffer once.
    std::shared_ptr<runtime::BackendData> data;
    for (const auto& in : inputs) {
      const auto* d = static_cast<const CpuData*>(in.data.get());
      if (d->buffer() == o.buffer && d->strings() == o.strings) {
        data = in.data;
        break;
      }
    }
    if (!data) data = std::make_shared<CpuData>(o.buffer, o.strings);
    views.push_back({std::move(data), o.dtype, std::move(o.shape)});
  }
  return views;
}

}  // namespace tfjsi::cpu
