// The half-float rules (core/half_float.h) under the names the fp16 check has always used:
// the gl backend's emulated fp16 storage rounds with the same code, so it lives in core.
#pragma once

#include "core/half_float.h"

namespace tfjsi::analysis {

using tfjsi::float_to_half_bits;
using tfjsi::half_bits_to_float;
using tfjsi::HalfOverflow;
using tfjsi::HalfRounding;
using tfjsi::HalfRule;
using tfjsi::kHalfMax;
using tfjsi::kHalfMinNormal;
using tfjsi::kHalfMinSubnormal;
using tfjsi::round_to_half;
using tfjsi::to_string;

}  // namespace tfjsi::analysis
