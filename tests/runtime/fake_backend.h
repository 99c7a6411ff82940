// A second backend for the runtime suites: its data is a private host copy (so a move to it is a
// real copy), it runs only T_Double, it can claim to be unavailable, and `fault` (when set) runs
// before each of its kernels, so a test can make them throw.
#pragma once

#include <algorithm>
#include <functional>

#include "runtime/backend.h"

namespace tfjsi::test {

class FakeData final : public runtime::BackendData {
 public:
  explicit FakeData(HostTensor t) : host(std::move(t)) {}
  std::size_t bytes() const override { return host.byte_size(); }
  HostTensor host;
};

class FakeBackend final : public runtime::Backend {
 public:
  FakeBackend(std::string name, int priority, bool available)
      : name_(std::move(name)), priority_(priority), available_(available) {}
  std::string_view name() const override { return name_; }
  int priority() const override { return priority_; }
  runtime::Availability availability() override {
    return {available_, available_ ? "" : "no device in the test"};
  }
  void declare_flags(runtime::Flags& flags) override {
    flags.define(name_ + ".detected", true, "a fact the backend found", true);
    flags.define(name_ + ".level", std::int64_t{3}, "a setting");
  }
  bool supports(const graph::Node& node) const override { return node.op == "T_Double"; }
  std::shared_ptr<runtime::BackendData> upload(const HostTensor& host) override {
    ++uploads;
    HostTensor copy = HostTensor::zeros(host.dtype, host.shape);
    std::copy_n(host.buffer->data(), host.byte_size(), copy.buffer->mutable_data());
    return std::make_shared<FakeData>(copy);
  }
  HostTensor download(const runtime::TensorView& t) override {
    return static_cast<const FakeData&>(*t.data).host;
  }
  std::vector<runtime::TensorView> run(const graph::Node&,
                                       std::span<const runtime::TensorView> inputs,
                                       const runtime::RunContext&) override {
    if (fault) fault();
    ++runs;
    const HostTensor& in = static_cast<const FakeData&>(*inputs[0].data).host;
    HostTensor out = HostTensor::zeros(in.dtype, in.shape);
    for (std::int64_t i = 0; i < in.num_elements(); ++i)
      out.mutable_values<float>()[i] = in.values<float>()[i] * 2;
    return {{std::make_shared<FakeData>(out), out.dtype, out.shape}};
  }
  // A backend that queues its work: finish() is where run()'s work would take its time.
  void finish() override {
    ++finishes;
    if (work) work();
  }
  int uploads = 0, runs = 0, finishes = 0;
  std::function<void()> fault, work;

 private:
  std::string name_;
  int priority_;
  bool available_;
};

}  // namespace tfjsi::test
