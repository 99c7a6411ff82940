#include "ops/converter_ops.h"

namespace tfjsi::ops {

namespace {
#define TFJSI_CONVERTER_VERSION(v)
#define TFJSI_CONVERTER_OP(op, category) ConverterOp{op, category},
constexpr ConverterOp kOps[] = {
#include "ops/converter_ops.inc"
};
#undef TFJSI_CONVERTER_OP
#undef TFJSI_CONVERTER_VERSION

#define TFJSI_CONVERTER_VERSION(v) constexpr std::string_view kVersion = v;
#define TFJSI_CONVERTER_OP(op, category)
#include "ops/converter_ops.inc"
#undef TFJSI_CONVERTER_OP
#undef TFJSI_CONVERTER_VERSION
}  // namespace

std::span<const ConverterOp> converter_ops() {
  return kOps;
}

std::string_view converter_version() {
  return kVersion;
}

}  // namespace tfjsi::ops
