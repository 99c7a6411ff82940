// The native op functions, one declaration each; native_registry.cpp lists them by TF op name.
#pragma once

#include "backends/xnnpack/native_op.h"

namespace tfjsi::xnnpack {

// ops_conv.cpp
NativeResult op_conv1d(NativeCall& call);
NativeResult op_conv2d(NativeCall& call);
NativeResult op_fused_conv2d(NativeCall& call);
NativeResult op_depthwise_conv2d(NativeCall& call);
NativeResult op_fused_depthwise_conv2d(NativeCall& call);
NativeResult op_conv2d_backprop_input(NativeCall& call);
// ops_matmul.cpp
NativeResult op_matmul(NativeCall& call);
NativeResult op_fused_matmul(NativeCall& call);
NativeResult op_batch_matmul(NativeCall& call);
// ops_spatial.cpp
NativeResult op_max_pool(NativeCall& call);
NativeResult op_avg_pool(NativeCall& call);
NativeResult op_mean(NativeCall& call);
NativeResult op_resize_bilinear(NativeCall& call);
NativeResult op_depth_to_space(NativeCall& call);
NativeResult op_pad(NativeCall& call);
// ops_elementwise.cpp
NativeResult op_add(NativeCall& call);
NativeResult op_sub(NativeCall& call);
NativeResult op_mul(NativeCall& call);
NativeResult op_div(NativeCall& call);
NativeResult op_maximum(NativeCall& call);
NativeResult op_minimum(NativeCall& call);
NativeResult op_squared_difference(NativeCall& call);
NativeResult op_relu(NativeCall& call);
NativeResult op_relu6(NativeCall& call);
NativeResult op_elu(NativeCall& call);
NativeResult op_leaky_relu(NativeCall& call);
NativeResult op_prelu(NativeCall& call);
NativeResult op_sigmoid(NativeCall& call);
NativeResult op_abs(NativeCall& call);
NativeResult op_neg(NativeCall& call);
NativeResult op_square(NativeCall& call);
NativeResult op_sqrt(NativeCall& call);
NativeResult op_floor(NativeCall& call);
NativeResult op_ceil(NativeCall& call);
NativeResult op_softmax(NativeCall& call);

}  // namespace tfjsi::xnnpack
