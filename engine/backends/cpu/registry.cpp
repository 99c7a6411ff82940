// The one explicit list of cpu kernels. A kernel is listed here once it is implemented; the
// planner treats every op missing from this list as unsupported on cpu.
#include <algorithm>
#include <unordered_map>
#include <vector>

#include "backends/cpu/kernel.h"
#include "core/error.h"

namespace tfjsi::cpu {

// ---- Neural-network ops: convolution, matmul, pooling, resizing, activations -------------------
// Declarations of the kernels defined in this family's files:
std::vector<HostTensor> kernel_conv2d(const KernelContext&);
std::vector<HostTensor> kernel_fused_conv2d(const KernelContext&);
std::vector<HostTensor> kernel_conv1d(const KernelContext&);
std::vector<HostTensor> kernel_conv3d(const KernelContext&);
std::vector<HostTensor> kernel_depthwise_conv2d(const KernelContext&);
std::vector<HostTensor> kernel_fused_depthwise_conv2d(const KernelContext&);
std::vector<HostTensor> kernel_conv2d_backprop_input(const KernelContext&);
std::vector<HostTensor> kernel_dilation2d(const KernelContext&);
std::vector<HostTensor> kernel_matmul(const KernelContext&);
std::vector<HostTensor> kernel_fused_matmul(const KernelContext&);
std::vector<HostTensor> kernel_batch_matmul(const KernelContext&);
std::vector<HostTensor> kernel_einsum(const KernelContext&);
std::vector<HostTensor> kernel_max_pool(const KernelContext&);
std::vector<HostTensor> kernel_avg_pool(const KernelContext&);
std::vector<HostTensor> kernel_max_pool_with_argmax(const KernelContext&);
std::vector<HostTensor> kernel_max_pool3d(const KernelContext&);
std::vector<HostTensor> kernel_avg_pool3d(const KernelContext&);
std::vector<HostTensor> kernel_resize_bilinear(const KernelContext&);
std::vector<HostTensor> kernel_resize_nearest_neighbor(const KernelContext&);
std::vector<HostTensor> kernel_crop_and_resize(const KernelContext&);
std::vector<HostTensor> kernel_image_projective_transform_v3(const KernelContext&);
std::vector<HostTensor> kernel_depth_to_space(const KernelContext&);
std::vector<HostTensor> kernel_space_to_depth(const KernelContext&);
std::vector<HostTensor> kernel_space_to_batch_nd(const KernelContext&);
std::vector<HostTensor> kernel_batch_to_space_nd(const KernelContext&);
std::vector<HostTensor> kernel_bias_add(const KernelContext&);
std::vector<HostTensor> kernel_relu(const KernelContext&);
std::vector<HostTensor> kernel_relu6(const KernelContext&);
std::vector<HostTensor> kernel_elu(const KernelContext&);
std::vector<HostTensor> kernel_selu(const KernelContext&);
std::vector<HostTensor> kernel_leaky_relu(const KernelContext&);
std::vector<HostTensor> kernel_prelu(const KernelContext&);
std::vector<HostTensor> kernel_sigmoid(const KernelContext&);
std::vector<HostTensor> kernel_tanh(const KernelContext&);
std::vector<HostTensor> kernel_softplus(const KernelContext&);
std::vector<HostTensor> kernel_softsign(const KernelContext&);
std::vector<HostTensor> kernel_softmax(const KernelContext&);
std::vector<HostTensor> kernel_log_softmax(const KernelContext&);
std::vector<HostTensor> kernel_fused_batch_norm(const KernelContext&);
std::vector<HostTensor> kernel_lrn(const KernelContext&);

// ---- Tensor ops: elementwise, reductions, shape manipulation, gather, selection ----------------
// Declarations of the kernels defined in this family's files:
namespace tensor_ops {
std::vector<HostTensor> Add(const KernelContext&);
std::vector<HostTensor> Sub(const KernelContext&);
std::vector<HostTensor> Mul(const KernelContext&);
std::vector<HostTensor> RealDiv(const KernelContext&);
std::vector<HostTensor> DivNoNan(const KernelContext&);
std::vector<HostTensor> FloorDiv(const KernelContext&);
std::vector<HostTensor> FloorMod(const KernelContext&);
std::vector<HostTensor> Maximum(const KernelContext&);
std::vector<HostTensor> Minimum(const KernelContext&);
std::vector<HostTensor> Pow(const KernelContext&);
std::vector<HostTensor> SquaredDifference(const KernelContext&);
std::vector<HostTensor> Atan2(const KernelContext&);
std::vector<HostTensor> AddN(const KernelContext&);
std::vector<HostTensor> Less(const KernelContext&);
std::vector<HostTensor> LessEqual(const KernelContext&);
std::vector<HostTensor> Greater(const KernelContext&);
std::vector<HostTensor> GreaterEqual(const KernelContext&);
std::vector<HostTensor> Equal(const KernelContext&);
std::vector<HostTensor> NotEqual(const KernelContext&);
std::vector<HostTensor> LogicalAnd(const KernelContext&);
std::vector<HostTensor> LogicalOr(const KernelContext&);
std::vector<HostTensor> LogicalNot(const KernelContext&);
std::vector<HostTensor> BitwiseAnd(const KernelContext&);
std::vector<HostTensor> Select(const KernelContext&);
std::vector<HostTensor> SelectV2(const KernelContext&);
std::vector<HostTensor> Where(const KernelContext&);
std::vector<HostTensor> MatrixBandPart(const KernelContext&);
std::vector<HostTensor> Abs(const KernelContext&);
std::vector<HostTensor> Neg(const KernelContext&);
std::vector<HostTensor> Square(const KernelContext&);
std::vector<HostTensor> Sign(const KernelContext&);
std::vector<HostTensor> Sqrt(const KernelContext&);
std::vector<HostTensor> Rsqrt(const KernelContext&);
std::vector<HostTensor> Reciprocal(const KernelContext&);
std::vector<HostTensor> Exp(const KernelContext&);
std::vector<HostTensor> Expm1(const KernelContext&);
std::vector<HostTensor> Log(const KernelContext&);
std::vector<HostTensor> Log1p(const KernelContext&);
std::vector<HostTensor> Floor(const KernelContext&);
std::vector<HostTensor> Ceil(const KernelContext&);
std::vector<HostTensor> Round(const KernelContext&);
std::vector<HostTensor> Sin(const KernelContext&);
std::vector<HostTensor> Cos(const KernelContext&);
std::vector<HostTensor> Tan(const KernelContext&);
std::vector<HostTensor> Asin(const KernelContext&);
std::vector<HostTensor> Acos(const KernelContext&);
std::vector<HostTensor> Atan(const KernelContext&);
std::vector<HostTensor> Asinh(const KernelContext&);
std::vector<HostTensor> Acosh(const KernelContext&);
std::vector<HostTensor> Atanh(const KernelContext&);
std::vector<HostTensor> Sinh(const KernelContext&);
std::vector<HostTensor> Cosh(const KernelContext&);
std::vector<HostTensor> Erf(const KernelContext&);
std::vector<HostTensor> IsNan(const KernelContext&);
std::vector<HostTensor> IsFinite(const KernelContext&);
std::vector<HostTensor> IsInf(const KernelContext&);
std::vector<HostTensor> ClipByValue(const KernelContext&);
std::vector<HostTensor> Cast(const KernelContext&);
std::vector<HostTensor> Sum(const KernelContext&);
std::vector<HostTensor> Mean(const KernelContext&);
std::vector<HostTensor> Prod(const KernelContext&);
std::vector<HostTensor> Max(const KernelContext&);
std::vector<HostTensor> Min(const KernelContext&);
std::vector<HostTensor> All(const KernelContext&);
std::vector<HostTensor> Any(const KernelContext&);
std::vector<HostTensor> ArgMax(const KernelContext&);
std::vector<HostTensor> ArgMin(const KernelContext&);
std::vector<HostTensor> Cumsum(const KernelContext&);
std::vector<HostTensor> Cumprod(const KernelContext&);
std::vector<HostTensor> EuclideanNorm(const KernelContext&);
std::vector<HostTensor> Bincount(const KernelContext&);
std::vector<HostTensor> DenseBincount(const KernelContext&);
std::vector<HostTensor> Reshape(const KernelContext&);
std::vector<HostTensor> Squeeze(const KernelContext&);
std::vector<HostTensor> ExpandDims(const KernelContext&);
std::vector<HostTensor> ShapeOp(const KernelContext&);
std::vector<HostTensor> Size(const KernelContext&);
std::vector<HostTensor> Rank(const KernelContext&);
std::vector<HostTensor> ShapeN(const KernelContext&);
std::vector<HostTensor> BroadcastArgs(const KernelContext&);
std::vector<HostTensor> EnsureShape(const KernelContext&);
std::vector<HostTensor> Print(const KernelContext&);
std::vector<HostTensor> FakeQuantWithMinMaxVars(const KernelContext&);
std::vector<HostTensor> Fill(const KernelContext&);
std::vector<HostTensor> Zeros(const KernelContext&);
std::vector<HostTensor> Ones(const KernelContext&);
std::vector<HostTensor> ZerosLike(const KernelContext&);
std::vector<HostTensor> OnesLike(const KernelContext&);
std::vector<HostTensor> Range(const KernelContext&);
std::vector<HostTensor> LinSpace(const KernelContext&);
std::vector<HostTensor> RandomStandardNormal(const KernelContext&);
std::vector<HostTensor> TruncatedNormal(const KernelContext&);
std::vector<HostTensor> RandomUniform(const KernelContext&);
std::vector<HostTensor> RandomUniformInt(const KernelContext&);
std::vector<HostTensor> Multinomial(const KernelContext&);
std::vector<HostTensor> OneHot(const KernelContext&);
std::vector<HostTensor> ConcatV2(const KernelContext&);
std::vector<HostTensor> Concat(const KernelContext&);
std::vector<HostTensor> Pack(const KernelContext&);
std::vector<HostTensor> Unpack(const KernelContext&);
std::vector<HostTensor> Split(const KernelContext&);
std::vector<HostTensor> SplitV(const KernelContext&);
std::vector<HostTensor> Slice(const KernelContext&);
std::vector<HostTensor> StridedSlice(const KernelContext&);
std::vector<HostTensor> Reverse(const KernelContext&);
std::vector<HostTensor> ReverseV2(const KernelContext&);
std::vector<HostTensor> Transpose(const KernelContext&);
std::vector<HostTensor> Tile(const KernelContext&);
std::vector<HostTensor> BroadcastTo(const KernelContext&);
std::vector<HostTensor> Pad(const KernelContext&);
std::vector<HostTensor> PadV2(const KernelContext&);
std::vector<HostTensor> MirrorPad(const KernelContext&);
std::vector<HostTensor> GatherV2(const KernelContext&);
std::vector<HostTensor> GatherNd(const KernelContext&);
std::vector<HostTensor> ScatterNd(const KernelContext&);
std::vector<HostTensor> TensorScatterUpdate(const KernelContext&);
std::vector<HostTensor> TopKV2(const KernelContext&);
std::vector<HostTensor> LowerBound(const KernelContext&);
std::vector<HostTensor> UpperBound(const KernelContext&);
std::vector<HostTensor> Unique(const KernelContext&);
std::vector<HostTensor> UniqueV2(const KernelContext&);
std::vector<HostTensor> ListDiff(const KernelContext&);
std::vector<HostTensor> NonMaxSuppressionV3(const KernelContext&);
std::vector<HostTensor> NonMaxSuppressionV4(const KernelContext&);
std::vector<HostTensor> NonMaxSuppressionV5(const KernelContext&);
std::vector<HostTensor> SparseToDense(const KernelContext&);
std::vector<HostTensor> SparseFillEmptyRows(const KernelContext&);
std::vector<HostTensor> SparseReshape(const KernelContext&);
std::vector<HostTensor> SparseSegmentMean(const KernelContext&);
std::vector<HostTensor> SparseSegmentSum(const KernelContext&);
std::vector<HostTensor> RaggedGather(const KernelContext&);
std::vector<HostTensor> RaggedRange(const KernelContext&);
std::vector<HostTensor> RaggedTensorToTensor(const KernelContext&);
std::vector<HostTensor> StaticRegexReplace(const KernelContext&);
std::vector<HostTensor> StringNGrams(const KernelContext&);
std::vector<HostTensor> StringSplit(const KernelContext&);
std::vector<HostTensor> StringToHashBucketFast(const KernelContext&);
std::vector<HostTensor> Complex(const KernelContext&);
std::vector<HostTensor> ComplexAbs(const KernelContext&);
std::vector<HostTensor> FFT(const KernelContext&);
std::vector<HostTensor> IFFT(const KernelContext&);
std::vector<HostTensor> IRFFT(const KernelContext&);
std::vector<HostTensor> Imag(const KernelContext&);
std::vector<HostTensor> RFFT(const KernelContext&);
std::vector<HostTensor> Real(const KernelContext&);
}  // namespace tensor_ops

std::span<const KernelEntry> kernel_registry() {
  static const std::vector<KernelEntry> kernels = {
      // ---- Neural-network ops ----
      {"Conv2D", kernel_conv2d},
      {"_FusedConv2D", kernel_fused_conv2d},
      {"Conv1D", kernel_conv1d},
      {"Conv3D", kernel_conv3d},
      {"DepthwiseConv2d", kernel_depthwise_conv2d},
      {"DepthwiseConv2dNative", kernel_depthwise_conv2d},
      {"FusedDepthwiseConv2dNative", kernel_fused_depthwise_conv2d},
      {"Conv2DBackpropInput", kernel_conv2d_backprop_input},
      {"Dilation2D", kernel_dilation2d},
      {"MatMul", kernel_matmul},
      {"_FusedMatMul", kernel_fused_matmul},
      {"BatchMatMul", kernel_batch_matmul},
      {"BatchMatMulV2", kernel_batch_matmul},
      {"Einsum", kernel_einsum},
      {"MaxPool", kernel_max_pool},
      {"AvgPool", kernel_avg_pool},
      {"MaxPoolWithArgmax", kernel_max_pool_with_argmax},
      {"MaxPool3D", kernel_max_pool3d},
      {"AvgPool3D", kernel_avg_pool3d},
      {"ResizeBilinear", kernel_resize_bilinear},
      {"ResizeNearestNeighbor", kernel_resize_nearest_neighbor},
      {"CropAndResize", kernel_crop_and_resize},
      {"ImageProjectiveTransformV3", kernel_image_projective_transform_v3},
      {"DepthToSpace", kernel_depth_to_space},
      {"SpaceToDepth", kernel_space_to_depth},
      {"SpaceToBatchND", kernel_space_to_batch_nd},
      {"BatchToSpaceND", kernel_batch_to_space_nd},
      {"BiasAdd", kernel_bias_add},
      {"Relu", kernel_relu},
      {"Relu6", kernel_relu6},
      {"Elu", kernel_elu},
      {"Selu", kernel_selu},
      {"LeakyRelu", kernel_leaky_relu},
      {"Prelu", kernel_prelu},
      {"Sigmoid", kernel_sigmoid},
      {"Tanh", kernel_tanh},
      {"Softplus", kernel_softplus},
      {"Softsign", kernel_softsign},
      {"Softmax", kernel_softmax},
      {"LogSoftmax", kernel_log_softmax},
      {"FusedBatchNorm", kernel_fused_batch_norm},
      {"FusedBatchNormV2", kernel_fused_batch_norm},
      {"FusedBatchNormV3", kernel_fused_batch_norm},
      {"LRN", kernel_lrn},
      // ---- Tensor ops ----
      {"Add", tensor_ops::Add},
      {"AddV2", tensor_ops::Add},
      {"Sub", tensor_ops::Sub},
      {"Mul", tensor_ops::Mul},
      {"RealDiv", tensor_ops::RealDiv},
      {"Div", tensor_ops::RealDiv},
      {"DivNoNan", tensor_ops::DivNoNan},
      {"FloorDiv", tensor_ops::FloorDiv},
      {"FloorMod", tensor_ops::FloorMod},
      {"Mod", tensor_ops::FloorMod},
      {"Maximum", tensor_ops::Maximum},
      {"Minimum", tensor_ops::Minimum},
      {"Pow", tensor_ops::Pow},
      {"SquaredDifference", tensor_ops::SquaredDifference},
      {"Atan2", tensor_ops::Atan2},
      {"AddN", tensor_ops::AddN},
      {"Less", tensor_ops::Less},
      {"LessEqual", tensor_ops::LessEqual},
      {"Greater", tensor_ops::Greater},
      {"GreaterEqual", tensor_ops::GreaterEqual},
      {"Equal", tensor_ops::Equal},
      {"NotEqual", tensor_ops::NotEqual},
      {"LogicalAnd", tensor_ops::LogicalAnd},
      {"LogicalOr", tensor_ops::LogicalOr},
      {"LogicalNot", tensor_ops::LogicalNot},
      {"BitwiseAnd", tensor_ops::BitwiseAnd},
      {"Select", tensor_ops::Select},
      {"SelectV2", tensor_ops::SelectV2},
      {"Where", tensor_ops::Where},
      {"MatrixBandPart", tensor_ops::MatrixBandPart},
      {"Abs", tensor_ops::Abs},
      {"Neg", tensor_ops::Neg},
      {"Square", tensor_ops::Square},
      {"Sign", tensor_ops::Sign},
      {"Sqrt", tensor_ops::Sqrt},
      {"Rsqrt", tensor_ops::Rsqrt},
      {"Reciprocal", tensor_ops::Reciprocal},
      {"Exp", tensor_ops::Exp},
      {"Expm1", tensor_ops::Expm1},
      {"Log", tensor_ops::Log},
      {"Log1p", tensor_ops::Log1p},
      {"Floor", tensor_ops::Floor},
      {"Ceil", tensor_ops::Ceil},
      {"Round", tensor_ops::Round},
      {"Sin", tensor_ops::Sin},
      {"Cos", tensor_ops::Cos},
      {"Tan", tensor_ops::Tan},
      {"Asin", tensor_ops::Asin},
      {"Acos", tensor_ops::Acos},
      {"Atan", tensor_ops::Atan},
      {"Asinh", tensor_ops::Asinh},
      {"Acosh", tensor_ops::Acosh},
      {"Atanh", tensor_ops::Atanh},
      {"Sinh", tensor_ops::Sinh},
      {"Cosh", tensor_ops::Cosh},
      {"Erf", tensor_ops::Erf},
      {"IsNan", tensor_ops::IsNan},
      {"IsFinite", tensor_ops::IsFinite},
      {"IsInf", tensor_ops::IsInf},
      {"ClipByValue", tensor_ops::ClipByValue},
      {"Cast", tensor_ops::Cast},
      {"Sum", tensor_ops::Sum},
      {"Mean", tensor_ops::Mean},
      {"Prod", tensor_ops::Prod},
      {"Max", tensor_ops::Max},
      {"Min", tensor_ops::Min},
      {"All", tensor_ops::All},
      {"Any", tensor_ops::Any},
      {"ArgMax", tensor_ops::ArgMax},
      {"ArgMin", tensor_ops::ArgMin},
      {"Cumsum", tensor_ops::Cumsum},
      {"Cumprod", tensor_ops::Cumprod},
      {"EuclideanNorm", tensor_ops::EuclideanNorm},
      {"Bincount", tensor_ops::Bincount},
      {"DenseBincount", tensor_ops::DenseBincount},
      {"Reshape", tensor_ops::Reshape},
      {"Squeeze", tensor_ops::Squeeze},
      {"ExpandDims", tensor_ops::ExpandDims},
      {"Shape", tensor_ops::ShapeOp},
      {"Size", tensor_ops::Size},
      {"Rank", tensor_ops::Rank},
      {"ShapeN", tensor_ops::ShapeN},
      {"BroadcastArgs", tensor_ops::BroadcastArgs},
      {"EnsureShape", tensor_ops::EnsureShape},
      {"Print", tensor_ops::Print},
      {"FakeQuantWithMinMaxVars", tensor_ops::FakeQuantWithMinMaxVars},
      {"Fill", tensor_ops::Fill},
      {"Zeros", tensor_ops::Zeros},
      {"Ones", tensor_ops::Ones},
      {"ZerosLike", tensor_ops::ZerosLike},
      {"OnesLike", tensor_ops::OnesLike},
      {"Range", tensor_ops::Range},
      {"LinSpace", tensor_ops::LinSpace},
      {"RandomStandardNormal", tensor_ops::RandomStandardNormal},
      {"TruncatedNormal", tensor_ops::TruncatedNormal},
      {"RandomUniform", tensor_ops::RandomUniform},
      {"RandomUniformInt", tensor_ops::RandomUniformInt},
      {"Multinomial", tensor_ops::Multinomial},
      {"OneHot", tensor_ops::OneHot},
      {"ConcatV2", tensor_ops::ConcatV2},
      {"Concat", tensor_ops::Concat},
      {"Pack", tensor_ops::Pack},
      {"Unpack", tensor_ops::Unpack},
      {"Split", tensor_ops::Split},
      {"SplitV", tensor_ops::SplitV},
      {"Slice", tensor_ops::Slice},
      {"StridedSlice", tensor_ops::StridedSlice},
      {"Reverse", tensor_ops::Reverse},
      {"ReverseV2", tensor_ops::ReverseV2},
      {"Transpose", tensor_ops::Transpose},
      {"Tile", tensor_ops::Tile},
      {"BroadcastTo", tensor_ops::BroadcastTo},
      {"Pad", tensor_ops::Pad},
      {"PadV2", tensor_ops::PadV2},
      {"MirrorPad", tensor_ops::MirrorPad},
      {"GatherV2", tensor_ops::GatherV2},
      {"Gather", tensor_ops::GatherV2},
      {"GatherNd", tensor_ops::GatherNd},
      {"ScatterNd", tensor_ops::ScatterNd},
      {"TensorScatterUpdate", tensor_ops::TensorScatterUpdate},
      {"TopKV2", tensor_ops::TopKV2},
      {"LowerBound", tensor_ops::LowerBound},
      {"UpperBound", tensor_ops::UpperBound},
      {"Unique", tensor_ops::Unique},
      {"UniqueV2", tensor_ops::UniqueV2},
      {"ListDiff", tensor_ops::ListDiff},
      {"NonMaxSuppressionV2", tensor_ops::NonMaxSuppressionV3},
      {"NonMaxSuppressionV3", tensor_ops::NonMaxSuppressionV3},
      {"NonMaxSuppressionV4", tensor_ops::NonMaxSuppressionV4},
      {"NonMaxSuppressionV5", tensor_ops::NonMaxSuppressionV5},
      {"SparseToDense", tensor_ops::SparseToDense},
      {"SparseFillEmptyRows", tensor_ops::SparseFillEmptyRows},
      {"SparseReshape", tensor_ops::SparseReshape},
      {"SparseSegmentMean", tensor_ops::SparseSegmentMean},
      {"SparseSegmentSum", tensor_ops::SparseSegmentSum},
      // ---- Ragged ops ----
      {"RaggedGather", tensor_ops::RaggedGather},
      {"RaggedRange", tensor_ops::RaggedRange},
      {"RaggedTensorToTensor", tensor_ops::RaggedTensorToTensor},
      // ---- String ops ----
      {"StaticRegexReplace", tensor_ops::StaticRegexReplace},
      {"StringNGrams", tensor_ops::StringNGrams},
      {"StringSplit", tensor_ops::StringSplit},
      {"StringToHashBucketFast", tensor_ops::StringToHashBucketFast},
      // ---- Complex numbers and spectral ops ----
      {"Complex", tensor_ops::Complex},
      {"ComplexAbs", tensor_ops::ComplexAbs},
      {"FFT", tensor_ops::FFT},
      {"IFFT", tensor_ops::IFFT},
      {"IRFFT", tensor_ops::IRFFT},
      {"Imag", tensor_ops::Imag},
      {"RFFT", tensor_ops::RFFT},
      {"Real", tensor_ops::Real},
  };
  return kernels;
}

namespace {
// The complex ops themselves, Cast, ops that only re-view the bytes or read the shape, and those
// TF.js's cpu backend also computes on complex64 (Add, Sub, Mul, Concat, ZerosLike, OnesLike).
bool takes_complex(std::string_view op) {
  static constexpr std::string_view kOps[] = {
      "Add",     "AddV2", "Cast",   "Complex", "ComplexAbs", "Concat",   "ConcatV2", "ExpandDims",
      "FFT",     "IFFT",  "IRFFT",  "Imag",    "Mul",        "OnesLike", "Rank",     "Real",
      "Reshape", "Shape", "ShapeN", "Size",    "Squeeze",    "Sub",      "ZerosLike"};
  return std::find(std::begin(kOps), std::end(kOps), op) != std::end(kOps);
}
}  // namespace

void refuse_complex(const graph::Node& node, std::span<const HostTensor> inputs) {
  // Dtypes first: this runs before every cpu kernel, and complex inputs are rare.
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].dtype == DType::Complex64 && !takes_complex(node.op))
      throw ModelError("node '" + node.name + "' (" + node.op + "): input " + std::to_string(i) +
                       " is complex64, which this op does not take here (complex tensors go "
                       "through Complex, Real, Imag, ComplexAbs, FFT, IFFT, IRFFT, Cast, Add, Sub, "
                       "Mul, Concat, ZerosLike, OnesLike and the reshaping ops)");
}

Kernel find_kernel(std::string_view op) {
  // Every node of every cpu run asks by name; an index built once (and only read after) saves a
  // scan of the whole list per node. The first entry of a name wins, as the list reads.
  static const std::unordered_map<std::string_view, Kernel> index = [] {
    std::unordered_map<std::string_view, Kernel> m;
    for (const auto& e : kernel_registry()) m.emplace(e.op, e.fn);
    return m;
  }();
  const auto it = index.find(op);
  return it == index.end() ? nullptr : it->second;
}

}  // namespace tfjsi::cpu
