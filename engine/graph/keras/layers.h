// Layer lowerings: one function per Keras layer class (or family), grouped in one file per
// family, and the one table (layer_table.cpp) that maps a class name to its lowering.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "graph/keras/layer_builder.h"
#include "graph/webgl_mark.h"

namespace tfjsi::graph::keras {

// Lowers one call of a layer: takes the call's input tensors, returns its output tensors.
using LowerFn = Outputs (*)(Layer& layer, std::span<const TensorRef> inputs);

// The lowering for a layer class, or nullptr when the class is not supported.
LowerFn find_lowering(std::string_view class_name);

// An activation by its Keras name ("relu", "hard_sigmoid", "linear", ...) applied to x; "linear"
// returns x itself. Node names get `prefix` in front of the op ("t3/" in an unrolled RNN). Fails
// naming the layer for an unknown activation.
TensorRef apply_activation(Layer& layer, TensorRef x, std::string_view activation,
                           const std::string& prefix = {});
// The layer's own "activation" config (default linear).
TensorRef apply_layer_activation(Layer& layer, TensorRef x);
// Its name as tfjs-layers compares it ("relu", "linear" when absent); fails naming the layer
// when the config is neither a name nor a serialized activation.
std::string layer_activation_name(Layer& layer);
// Whether tfjs-layers 4.22 runs the layer's activation inside a fused conv2d or matMul kernel
// (its mapActivationToFusedKernel: relu, linear, elu).
bool tfjs_fuses_activation(Layer& layer);

// Marks the node of `t` kWebglInKernel (graph/ir.h): TF.js webgl computes it inside the kernel of
// the node that reads it. A Reshape (a view) is marked with the node it reshapes.
void mark_webgl_in_kernel(Layer& layer, TensorRef t);

// x [..., C] times kernel [C, units] over the last axis: MatMul, reshaped around it when x has
// rank > 2 with static dims, else BatchMatMulV2. `suffix` names the product node.
TensorRef matmul_last_axis(Layer& layer, TensorRef x, TensorRef kernel, std::int64_t units,
                           const std::string& suffix);

// core_layers.cpp
Outputs lower_dense(Layer&, std::span<const TensorRef>);
Outputs lower_flatten(Layer&, std::span<const TensorRef>);
Outputs lower_reshape(Layer&, std::span<const TensorRef>);
Outputs lower_permute(Layer&, std::span<const TensorRef>);
Outputs lower_identity(Layer&, std::span<const TensorRef>);
Outputs lower_repeat_vector(Layer&, std::span<const TensorRef>);
Outputs lower_embedding(Layer&, std::span<const TensorRef>);
Outputs lower_masking(Layer&, std::span<const TensorRef>);

// conv_layers.cpp
Outputs lower_conv2d(Layer&, std::span<const TensorRef>);
Outputs lower_conv1d(Layer&, std::span<const TensorRef>);
Outputs lower_depthwise_conv2d(Layer&, std::span<const TensorRef>);
Outputs lower_separable_conv2d(Layer&, std::span<const TensorRef>);
Outputs lower_conv2d_transpose(Layer&, std::span<const TensorRef>);

// pooling_layers.cpp (pooling, padding, cropping, resizing)
Outputs lower_max_pooling2d(Layer&, std::span<const TensorRef>);
Outputs lower_average_pooling2d(Layer&, std::span<const TensorRef>);
Outputs lower_max_pooling1d(Layer&, std::span<const TensorRef>);
Outputs lower_average_pooling1d(Layer&, std::span<const TensorRef>);
Outputs lower_global_average_pooling2d(Layer&, std::span<const TensorRef>);
Outputs lower_global_max_pooling2d(Layer&, std::span<const TensorRef>);
Outputs lower_global_average_pooling1d(Layer&, std::span<const TensorRef>);
Outputs lower_global_max_pooling1d(Layer&, std::span<const TensorRef>);
Outputs lower_zero_padding2d(Layer&, std::span<const TensorRef>);
Outputs lower_cropping2d(Layer&, std::span<const TensorRef>);
Outputs lower_upsampling2d(Layer&, std::span<const TensorRef>);

// normalization_layers.cpp
Outputs lower_batch_normalization(Layer&, std::span<const TensorRef>);
Outputs lower_layer_normalization(Layer&, std::span<const TensorRef>);

// activation_layers.cpp
Outputs lower_activation(Layer&, std::span<const TensorRef>);
Outputs lower_relu(Layer&, std::span<const TensorRef>);
Outputs lower_leaky_relu(Layer&, std::span<const TensorRef>);
Outputs lower_prelu(Layer&, std::span<const TensorRef>);
Outputs lower_elu(Layer&, std::span<const TensorRef>);
Outputs lower_thresholded_relu(Layer&, std::span<const TensorRef>);
Outputs lower_softmax(Layer&, std::span<const TensorRef>);

// merge_layers.cpp
Outputs lower_add(Layer&, std::span<const TensorRef>);
Outputs lower_subtract(Layer&, std::span<const TensorRef>);
Outputs lower_multiply(Layer&, std::span<const TensorRef>);
Outputs lower_average(Layer&, std::span<const TensorRef>);
Outputs lower_maximum(Layer&, std::span<const TensorRef>);
Outputs lower_minimum(Layer&, std::span<const TensorRef>);
Outputs lower_concatenate(Layer&, std::span<const TensorRef>);

// recurrent_layers.cpp
Outputs lower_lstm(Layer&, std::span<const TensorRef>);
Outputs lower_gru(Layer&, std::span<const TensorRef>);
Outputs lower_simple_rnn(Layer&, std::span<const TensorRef>);

}  // namespace tfjsi::graph::keras
