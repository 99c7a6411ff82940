// The one list of Keras layer classes that lower to TF ops. InputLayer and nested models are
// handled by the model walker (keras_lowering.cpp), not here.
#include <algorithm>
#include <array>
#include <utility>

#include "graph/keras/layers.h"

namespace tfjsi::graph::keras {

namespace {

using Entry = std::pair<std::string_view, LowerFn>;

constexpr std::array kTable{
    // core
    Entry{"Dense", lower_dense},
    Entry{"Flatten", lower_flatten},
    Entry{"Reshape", lower_reshape},
    Entry{"Permute", lower_permute},
    Entry{"RepeatVector", lower_repeat_vector},
    Entry{"Embedding", lower_embedding},
    Entry{"Masking", lower_masking},
    // Regularization layers are the identity at inference.
    Entry{"Dropout", lower_identity},
    Entry{"SpatialDropout1D", lower_identity},
    Entry{"SpatialDropout2D", lower_identity},
    Entry{"SpatialDropout3D", lower_identity},
    Entry{"AlphaDropout", lower_identity},
    Entry{"GaussianNoise", lower_identity},
    Entry{"GaussianDropout", lower_identity},
    Entry{"ActivityRegularization", lower_identity},
    // convolution
    Entry{"Conv2D", lower_conv2d},
    Entry{"Conv1D", lower_conv1d},
    Entry{"DepthwiseConv2D", lower_depthwise_conv2d},
    Entry{"SeparableConv2D", lower_separable_conv2d},
    Entry{"Conv2DTranspose", lower_conv2d_transpose},
    // pooling, padding, resizing
    Entry{"MaxPooling2D", lower_max_pooling2d},
    Entry{"MaxPool2D", lower_max_pooling2d},
    Entry{"AveragePooling2D", lower_average_pooling2d},
    Entry{"AvgPool2D", lower_average_pooling2d},
    Entry{"MaxPooling1D", lower_max_pooling1d},
    Entry{"MaxPool1D", lower_max_pooling1d},
    Entry{"AveragePooling1D", lower_average_pooling1d},
    Entry{"AvgPool1D", lower_average_pooling1d},
    Entry{"GlobalAveragePooling2D", lower_global_average_pooling2d},
    Entry{"GlobalAvgPool2D", lower_global_average_pooling2d},
    Entry{"GlobalMaxPooling2D", lower_global_max_pooling2d},
    Entry{"GlobalMaxPool2D", lower_global_max_pooling2d},
    Entry{"GlobalAveragePooling1D", lower_global_average_pooling1d},
    Entry{"GlobalAvgPool1D", lower_global_average_pooling1d},
    Entry{"GlobalMaxPooling1D", lower_global_max_pooling1d},
    Entry{"GlobalMaxPool1D", lower_global_max_pooling1d},
    Entry{"ZeroPadding2D", lower_zero_padding2d},
    Entry{"Cropping2D", lower_cropping2d},
    Entry{"UpSampling2D", lower_upsampling2d},
    // normalization
    Entry{"BatchNormalization", lower_batch_normalization},
    Entry{"LayerNormalization", lower_layer_normalization},
    // activations
    Entry{"Activation", lower_activation},
    Entry{"ReLU", lower_relu},
    Entry{"LeakyReLU", lower_leaky_relu},
    Entry{"PReLU", lower_prelu},
    Entry{"ELU", lower_elu},
    Entry{"ThresholdedReLU", lower_thresholded_relu},
    Entry{"Softmax", lower_softmax},
    // merge
    Entry{"Add", lower_add},
    Entry{"Subtract", lower_subtract},
    Entry{"Multiply", lower_multiply},
    Entry{"Average", lower_average},
    Entry{"Maximum", lower_maximum},
    Entry{"Minimum", lower_minimum},
    Entry{"Concatenate", lower_concatenate},
    // recurrent
    Entry{"LSTM", lower_lstm},
    Entry{"GRU", lower_gru},
    Entry{"SimpleRNN", lower_simple_rnn},
};

}  // namespace

LowerFn find_lowering(std::string_view class_name) {
  auto it = std::find_if(kTable.begin(), kTable.end(),
                         [&](const Entry& e) { return e.first == class_name; });
  return it == kTable.end() ? nullptr : it->second;
}

}  // namespace tfjsi::graph::keras
