// Sources (Placeholder, Const), control flow (Switch, Merge, NoOp, While/If), TensorArray and
// TensorList ops. Handles of arrays and lists are scalars without a tensor dtype.
#include "ops/attr.h"
#include "ops/op_def.h"
#include "ops/shape_context.h"

namespace tfjsi::ops {
namespace {

void placeholder(InferContext& c) {
  auto dtype = try_attr<DType>(c.node, "dtype");
  auto shape = try_attr<PartialShape>(c.node, "shape");
  if (c.node.op == "PlaceholderWithDefault") {
    if (!dtype) dtype = c.in(0).dtype;
    if (!shape) shape = c.shape(0);
  }
  c.set(0, dtype, shape.value_or(PartialShape::unknown()));
}

void constant(InferContext& c) {
  if (c.node.value) {
    c.set(0, c.node.value->dtype, PartialShape::of(c.node.value->shape));
    if (auto k = known_from_tensor(*c.node.value)) c.set_value(0, std::move(*k));
    return;
  }
  c.set(0, try_attr<DType>(c.node, "dtype"), PartialShape::unknown());
}

void switch_op(InferContext& c) {
  c.set(0, c.t(), c.shape(0));
  c.set(1, c.t(), c.shape(0));
}

// The value of whichever input arrives: the generalization of every input seen so far.
void merge(InferContext& c) {
  std::optional<DType> dtype = try_attr<DType>(c.node, "T");
  std::optional<PartialShape> shape;
  for (std::size_t i = 0; i < c.num_inputs(); ++i) {
    if (!c.inferred(i)) continue;
    if (!dtype) dtype = c.in(i).dtype;
    shape = shape ? generalize(*shape, c.shape(i)) : c.shape(i);
  }
  c.set(0, dtype, shape.value_or(PartialShape::unknown()));
  c.set(1, DType::Int32, PartialShape::of({}));
}

void no_outputs(InferContext& c) {
  c.out.clear();
}

// While/If and function calls: one output per listed type, shapes unknown.
void typed_list_outputs(InferContext& c) {
  const char* key = c.node.op.ends_with("While") ? "T" : "Tout";
  const auto types = c.attr<std::vector<graph::TypeAttr>>(key, {});
  for (std::size_t k = 0; k < types.size(); ++k)
    c.set(k, types[k].dtype(), PartialShape::unknown());
}

void handle_only(InferContext& c) {
  c.set(0, std::nullopt, PartialShape::of({}));
}

void tensor_array(InferContext& c) {
  c.set(0, std::nullopt, PartialShape::of({}));    // handle
  c.set(1, DType::Float32, PartialShape::of({}));  // flow
}

void flow_out(InferContext& c) {
  c.set(0, DType::Float32, PartialShape::of({}));
}

void tensor_array_size(InferContext& c) {
  c.set(0, DType::Int32, PartialShape::of({}));
}

void tensor_array_read(InferContext& c) {
  c.set(0, try_attr<DType>(c.node, "dtype"), PartialShape::unknown());
}

void tensor_array_gather(InferContext& c) {
  // TensorArrayGatherV3(handle, indices, flow_in; dtype, element_shape)
  const PartialShape idx = c.shape(1);
  const auto elem = try_attr<PartialShape>(c.node, "element_shape");
  PartialShape out = PartialShape::unknown();
  if (elem && elem->rank_known) {
    out = PartialShape::of({idx.rank_known && idx.dims.size() == 1 ? idx.dims[0] : -1});
    out.dims.insert(out.dims.end(), elem->dims.begin(), elem->dims.end());
  }
  c.set(0, try_attr<DType>(c.node, "dtype"), out);
}

// The element shape input of TensorList ops: a known vector (-1 entries unknown) or a scalar -1
// meaning unknown rank.
PartialShape element_shape(const InferContext& c, std::size_t i) {
  const auto v = c.ints(i);
  if (!v || c.value(i)->shape.empty()) return PartialShape::unknown();
  PartialShape s = PartialShape::of(*v);
  for (auto& d : s.dims)
    if (d < -1) d = -1;
  return s;
}

void tensor_list_get(InferContext& c) {
  // TensorListGetItem(handle, index, element_shape; element_dtype)
  c.set(0, try_attr<DType>(c.node, "element_dtype"), element_shape(c, 2));
}

void tensor_list_stack(InferContext& c) {
  // TensorListStack(handle, element_shape; element_dtype, num_elements)
  const PartialShape elem = element_shape(c, 1);
  PartialShape out = PartialShape::unknown();
  if (elem.rank_known) {
    out = PartialShape::of({c.attr<std::int64_t>("num_elements", -1)});
    out.dims.insert(out.dims.end(), elem.dims.begin(), elem.dims.end());
  }
  c.set(0, try_attr<DType>(c.node, "element_dtype"), out);
}

void tensor_list_concat(InferContext& c) {
  // TensorListConcat(handle; element_dtype, element_shape), TensorListConcatV2(handle,
  // element_shape, leading_dims; ...): the elements joined on their first axis (its size depends
  // on the data), and each element's length.
  const PartialShape elem = c.node.op == "TensorListConcat"
                                ? c.attr<PartialShape>("element_shape", PartialShape::unknown())
                                : element_shape(c, 1);
  PartialShape out = PartialShape::unknown();
  if (elem.rank_known && !elem.dims.empty()) {
    out = elem;
    out.dims[0] = -1;
  }
  c.set(0, try_attr<DType>(c.node, "element_dtype"), out);
  c.set(1, DType::Int32, PartialShape::of({-1}));
}

constexpr OpDef kOps[] = {
    {"Const", constant, Family::Const},
    {"EmptyTensorList", handle_only, Family::Control},
    {"IdentityN", nullptr, Family::Output},
    {"If", typed_list_outputs, Family::Control},
    {"Merge", merge, Family::Control},
    {"NoOp", no_outputs, Family::Control},
    {"PartitionedCall", typed_list_outputs, Family::Other},
    {"Placeholder", placeholder, Family::Input},
    {"PlaceholderWithDefault", placeholder, Family::Input},
    {"ReadVariableOp", nullptr, Family::Const},
    {"RefSwitch", switch_op, Family::Other},
    {"StatefulPartitionedCall", typed_list_outputs, Family::Other},
    {"StatelessIf", typed_list_outputs, Family::Control},
    {"StatelessWhile", typed_list_outputs, Family::Control},
    {"Switch", switch_op, Family::Control},
    {"TensorArrayCloseV3", nullptr, Family::Control},
    {"TensorArrayConcatV3", nullptr, Family::Control},
    {"TensorArrayGatherV3", tensor_array_gather, Family::Control},
    {"TensorArrayReadV3", tensor_array_read, Family::Control},
    {"TensorArrayScatterV3", flow_out, Family::Control},
    {"TensorArraySizeV3", tensor_array_size, Family::Control},
    {"TensorArraySplitV3", flow_out, Family::Control},
    {"TensorArrayV3", tensor_array, Family::Control},
    {"TensorArrayWriteV3", flow_out, Family::Control},
    {"TensorListConcat", tensor_list_concat, Family::Control},
    {"TensorListConcatV2", tensor_list_concat, Family::Control},
    {"TensorListElementShape", nullptr, Family::Control},
    {"TensorListFromTensor", handle_only, Family::Control},
    {"TensorListGather", nullptr, Family::Control},
    {"TensorListGetItem", tensor_list_get, Family::Control},
    {"TensorListLength", nullptr, Family::Control},
    {"TensorListPopBack", nullptr, Family::Control},
    {"TensorListPushBack", handle_only, Family::Control},
    {"TensorListReserve", handle_only, Family::Control},
    {"TensorListResize", nullptr, Family::Control},
    {"TensorListScatter", nullptr, Family::Control},
    {"TensorListScatterIntoExistingList", nullptr, Family::Control},
    {"TensorListScatterV2", nullptr, Family::Control},
    {"TensorListSetItem", handle_only, Family::Control},
    {"TensorListSplit", nullptr, Family::Control},
    {"TensorListStack", tensor_list_stack, Family::Control},
    {"VarHandleOp", nullptr, Family::Const},
    {"VariableV2", nullptr, Family::Const},
    {"While", typed_list_outputs, Family::Control},
};

}  // namespace

std::span<const OpDef> control_ops() {
  return kOps;
}

}  // namespace tfjsi::ops
