// Cases of the converter's convolution and image ops: padding (SAME, VALID, EXPLICIT), strides,
// dilations, data formats, fused epilogues, resize modes.
import { C } from './case.mjs';
import { a } from './graph.mjs';

const s4 = (s) => a.ints([1, s, s, 1]);

for (const op of ['AvgPool', 'MaxPool']) {
  C(op, (g) => g.op(op, [g.f([1, 6, 6, 3])], { ksize: s4(2), strides: s4(2), padding: a.s('VALID'), data_format: a.s('NHWC') }));
  C(`${op}.same_3x3_s2`, (g) => g.op(op, [g.f([2, 7, 5, 3])], { ksize: s4(3), strides: s4(2), padding: a.s('SAME') }));
  C(`${op}.same_s1`, (g) => g.op(op, [g.f([1, 5, 5, 5])], { ksize: a.ints([1, 3, 2, 1]), strides: s4(1), padding: a.s('SAME') }));
  C(`${op}.one`, (g) => g.op(op, [g.f([1, 1, 1, 1])], { ksize: s4(1), strides: s4(1), padding: a.s('VALID') }));
}
C('MaxPoolWithArgmax', (g) => g.op('MaxPoolWithArgmax', [g.f([1, 4, 4, 2])], { ksize: s4(2), strides: s4(2), padding: a.s('VALID'), include_batch_in_index: a.b(false), Targmax: a.type('int32') }, { n: 2 }));
C('MaxPoolWithArgmax.batch_index', (g) => g.op('MaxPoolWithArgmax', [g.f([2, 5, 5, 3])], { ksize: s4(3), strides: s4(2), padding: a.s('SAME'), include_batch_in_index: a.b(true), Targmax: a.type('int32') }, { n: 2 }));
for (const op of ['AvgPool3D', 'MaxPool3D']) {
  C(op, (g) => g.op(op, [g.f([1, 4, 4, 4, 2])], { ksize: a.ints([1, 2, 2, 2, 1]), strides: a.ints([1, 2, 2, 2, 1]), padding: a.s('VALID'), data_format: a.s('NDHWC') }));
  C(`${op}.same`, (g) => g.op(op, [g.f([1, 3, 5, 4, 2])], { ksize: a.ints([1, 2, 3, 2, 1]), strides: a.ints([1, 1, 2, 1, 1]), padding: a.s('SAME'), data_format: a.s('NDHWC') }));
  // A window shorter than its stride in depth: TF.js's SAME pads -1 before (TF would pad 0).
  C(`${op}.same_s2`, (g) => g.op(op, [g.f([2, 6, 5, 7, 3])], { ksize: a.ints([1, 1, 3, 2, 1]), strides: a.ints([1, 2, 2, 3, 1]), padding: a.s('SAME'), data_format: a.s('NDHWC') }));
  C(`${op}.valid_overlap`, (g) => g.op(op, [g.f([1, 4, 6, 5, 2])], { ksize: a.ints([1, 2, 3, 2, 1]), strides: a.ints([1, 1, 2, 1, 1]), padding: a.s('VALID'), data_format: a.s('NDHWC') }));
}

const conv = (g, x, f, attrs) => g.op('Conv2D', [g.f(x), g.const('float32', f)], { strides: s4(1), padding: a.s('SAME'), data_format: a.s('NHWC'), dilations: s4(1), ...attrs });
C('Conv2D', (g) => conv(g, [1, 5, 5, 3], [3, 3, 3, 4], {}));
C('Conv2D.valid_s2', (g) => conv(g, [2, 7, 6, 3], [3, 2, 3, 5], { strides: s4(2), padding: a.s('VALID') }));
C('Conv2D.same_s2', (g) => conv(g, [1, 6, 7, 2], [3, 3, 2, 3], { strides: s4(2) }));
C('Conv2D.dilation', (g) => conv(g, [1, 7, 7, 2], [3, 3, 2, 2], { dilations: a.ints([1, 2, 2, 1]) }));
C('Conv2D.explicit', (g) => conv(g, [1, 5, 5, 2], [3, 3, 2, 2], { padding: a.s('EXPLICIT'), explicit_paddings: a.ints([0, 0, 1, 2, 2, 0, 0, 0]) }));
C('Conv2D.nchw', (g) => conv(g, [1, 2, 5, 5], [3, 3, 2, 3], { data_format: a.s('NCHW'), strides: a.ints([1, 1, 1, 1]) }));
C('Conv2D.1x1', (g) => conv(g, [1, 3, 3, 5], [1, 1, 5, 7], {}));
C('Conv1D', (g) => g.op('Conv1D', [g.f([2, 7, 3]), g.const('float32', [3, 3, 4])], { stride: a.i(1), padding: a.s('SAME'), data_format: a.s('NWC'), dilation: a.i(1) }));
C('Conv1D.valid_s2', (g) => g.op('Conv1D', [g.f([1, 9, 2]), g.const('float32', [2, 2, 3])], { stride: a.i(2), padding: a.s('VALID'), data_format: a.s('NWC'), dilation: a.i(1) }));
C('Conv1D.dilation', (g) => g.op('Conv1D', [g.f([2, 10, 2]), g.const('float32', [3, 2, 3])], { stride: a.i(1), padding: a.s('SAME'), data_format: a.s('NWC'), dilation: a.i(2) }));

const fused = (g, epilogue, { alpha, args = 1, x = [1, 5, 5, 3] } = {}) => {
  const ins = [g.f(x, -2, 2), g.const('float32', [3, 3, x[3], 4]), g.const('float32', [4])];
  if (args === 2) ins.push(g.const('float32', [4], null, { lo: 0, hi: 0.5 }));
  return g.op('_FusedConv2D', ins, {
    num_args: a.i(args), strides: s4(1), padding: a.s('SAME'), data_format: a.s('NHWC'), dilations: s4(1),
    fused_ops: a.strs(epilogue), epsilon: a.f(0), ...(alpha ? { leakyrelu_alpha: a.f(alpha) } : {}),
  });
};
C('_FusedConv2D.bias', (g) => fused(g, ['BiasAdd']));
C('_FusedConv2D.bias_relu', (g) => fused(g, ['BiasAdd', 'Relu']));
C('_FusedConv2D.bias_relu6', (g) => fused(g, ['BiasAdd', 'Relu6']));
C('_FusedConv2D.bias_elu', (g) => fused(g, ['BiasAdd', 'Elu']));
C('_FusedConv2D.bias_sigmoid', (g) => fused(g, ['BiasAdd', 'Sigmoid']));
C('_FusedConv2D.bias_leakyrelu', (g) => fused(g, ['BiasAdd', 'LeakyRelu'], { alpha: 0.15 }));
C('_FusedConv2D.bias_prelu', (g) => fused(g, ['BiasAdd', 'Prelu'], { args: 2 }));

C('Conv2DBackpropInput', (g) => g.op('Conv2DBackpropInput', [g.ci([1, 6, 6, 2]), g.const('float32', [3, 3, 2, 4]), g.f([1, 3, 3, 4])], { strides: s4(2), padding: a.s('SAME'), data_format: a.s('NHWC'), dilations: s4(1) }));
C('Conv2DBackpropInput.valid', (g) => g.op('Conv2DBackpropInput', [g.ci([1, 7, 5, 3]), g.const('float32', [3, 2, 3, 2]), g.f([1, 3, 2, 2])], { strides: s4(2), padding: a.s('VALID'), data_format: a.s('NHWC'), dilations: s4(1) }));
C('Conv2DBackpropInput.s1', (g) => g.op('Conv2DBackpropInput', [g.ci([2, 4, 4, 2]), g.const('float32', [2, 2, 2, 3]), g.f([2, 4, 4, 3])], { strides: s4(1), padding: a.s('SAME'), data_format: a.s('NHWC'), dilations: s4(1) }));

for (const op of ['DepthwiseConv2d', 'DepthwiseConv2dNative']) {
  const dw = (g, x, f, attrs) => g.op(op, [g.f(x), g.const('float32', f)], { strides: s4(1), padding: a.s('SAME'), data_format: a.s('NHWC'), dilations: s4(1), ...attrs });
  C(op, (g) => dw(g, [1, 5, 5, 3], [3, 3, 3, 1], {}));
  C(`${op}.multiplier_s2`, (g) => dw(g, [1, 6, 7, 3], [3, 3, 3, 2], { strides: s4(2) }));
  C(`${op}.valid_dilation`, (g) => dw(g, [2, 7, 7, 5], [3, 3, 5, 1], { padding: a.s('VALID'), dilations: a.ints([1, 2, 2, 1]) }));
}
C('DepthwiseConv2dNative.explicit', (g) => g.op('DepthwiseConv2dNative', [g.f([1, 4, 4, 2]), g.const('float32', [3, 3, 2, 1])], { strides: s4(1), padding: a.s('EXPLICIT'), explicit_paddings: a.ints([0, 0, 1, 1, 0, 2, 0, 0]), data_format: a.s('NHWC'), dilations: s4(1) }));
const fdw = (g, epilogue, args = 1) => {
  const ins = [g.f([1, 5, 5, 4], -2, 2), g.const('float32', [3, 3, 4, 1]), g.const('float32', [4])];
  if (args === 2) ins.push(g.const('float32', [4], null, { lo: 0, hi: 0.5 }));
  return g.op('FusedDepthwiseConv2dNative', ins, { num_args: a.i(args), strides: s4(1), padding: a.s('SAME'), data_format: a.s('NHWC'), dilations: s4(1), fused_ops: a.strs(epilogue) });
};
C('FusedDepthwiseConv2dNative.bias', (g) => fdw(g, ['BiasAdd']));
C('FusedDepthwiseConv2dNative.bias_relu6', (g) => fdw(g, ['BiasAdd', 'Relu6']));
C('FusedDepthwiseConv2dNative.bias_prelu', (g) => fdw(g, ['BiasAdd', 'Prelu'], 2));

C('Conv3D', (g) => g.op('Conv3D', [g.f([1, 4, 4, 4, 2]), g.const('float32', [2, 2, 2, 2, 3])], { strides: a.ints([1, 1, 1, 1, 1]), padding: a.s('SAME'), data_format: a.s('NDHWC'), dilations: a.ints([1, 1, 1, 1, 1]) }));
C('Conv3D.valid_s2', (g) => g.op('Conv3D', [g.f([1, 5, 5, 5, 2]), g.const('float32', [3, 3, 3, 2, 2])], { strides: a.ints([1, 2, 2, 2, 1]), padding: a.s('VALID'), data_format: a.s('NDHWC'), dilations: a.ints([1, 1, 1, 1, 1]) }));
const conv3d = (g, x, f, attrs) => g.op('Conv3D', [g.f(x), g.const('float32', f)], { strides: a.ints([1, 1, 1, 1, 1]), padding: a.s('SAME'), data_format: a.s('NDHWC'), dilations: a.ints([1, 1, 1, 1, 1]), ...attrs });
C('Conv3D.same_s2', (g) => conv3d(g, [2, 5, 6, 4, 3], [3, 2, 2, 3, 2], { strides: a.ints([1, 2, 2, 1, 1]) }));
C('Conv3D.dilation', (g) => conv3d(g, [1, 5, 6, 5, 2], [2, 3, 2, 2, 3], { dilations: a.ints([1, 2, 1, 2, 1]) }));
// 1x1x1 windows with strides 3, 2, 3: TF.js's SAME pads -1 before in every dimension.
C('Conv3D.same_k1_s3', (g) => conv3d(g, [1, 6, 4, 5, 2], [1, 1, 1, 2, 2], { strides: a.ints([1, 3, 2, 3, 1]) }));
C('Dilation2D', (g) => g.op('Dilation2D', [g.f([1, 5, 5, 2]), g.const('float32', [2, 2, 2])], { strides: s4(1), rates: s4(1), padding: a.s('SAME') }));
C('Dilation2D.valid_rates', (g) => g.op('Dilation2D', [g.f([1, 7, 7, 2]), g.const('float32', [2, 2, 2])], { strides: s4(2), rates: a.ints([1, 2, 2, 1]), padding: a.s('VALID') }));

// ---- image ----
for (const op of ['ResizeBilinear', 'ResizeNearestNeighbor']) {
  const rs = (g, x, size, ac, hp) => g.op(op, [g.f(x), g.ci(size)], { align_corners: a.b(ac), half_pixel_centers: a.b(hp) });
  C(op, (g) => rs(g, [1, 3, 4, 2], [6, 7], false, false));
  C(`${op}.half_pixel`, (g) => rs(g, [2, 4, 3, 3], [7, 5], false, true));
  C(`${op}.align_corners`, (g) => rs(g, [1, 4, 4, 1], [7, 3], true, false));
  C(`${op}.down`, (g) => rs(g, [1, 8, 6, 2], [3, 4], false, true));
}
C('CropAndResize', (g) => g.op('CropAndResize', [g.f([2, 6, 6, 3]), g.cf([0, 0, 1, 1, 0.2, 0.1, 0.7, 0.9, 0.5, 0.5, 0.1, 0.2], [3, 4]), g.ci([0, 1, 1]), g.ci([4, 3])], { method: a.s('bilinear'), extrapolation_value: a.f(0) }));
C('CropAndResize.nearest_extrapolate', (g) => g.op('CropAndResize', [g.f([1, 5, 5, 2]), g.cf([-0.2, 0, 1.1, 0.8, 0.1, 0.1, 0.6, 0.6], [2, 4]), g.ci([0, 0]), g.ci([3, 3])], { method: a.s('nearest'), extrapolation_value: a.f(-1) }));
C('CropAndResize.one_pixel', (g) => g.op('CropAndResize', [g.f([2, 5, 6, 2]), g.cf([0.1, 0.2, 0.7, 0.9, 0.8, 0.1, 0.3, 0.6, -0.3, 0.5, 0.4, 1.3], [3, 4]), g.ci([1, 0, 1]), g.ci([1, 3])], { method: a.s('bilinear'), extrapolation_value: a.f(0.5) }));
C('CropAndResize.nearest_one_column', (g) => g.op('CropAndResize', [g.f([1, 6, 5, 3]), g.cf([0, 0.1, 1, 0.9, 0.2, -0.5, 1.2, 0.3], [2, 4]), g.ci([0, 0]), g.ci([4, 1])], { method: a.s('nearest'), extrapolation_value: a.f(-2) }));
// A box whose index is past the batch: TF.js skips it (zeros); TF would refuse.
C('CropAndResize.box_past_batch', (g) => g.op('CropAndResize', [g.f([2, 4, 4, 1]), g.cf([0, 0, 1, 1, 0.25, 0.25, 0.75, 0.75], [2, 4]), g.ci([2, 1]), g.ci([3, 2])], { method: a.s('bilinear'), extrapolation_value: a.f(0) }));
C('ImageProjectiveTransformV3', (g) => g.op('ImageProjectiveTransformV3', [g.f([1, 5, 5, 2]), g.cf([1, 0.1, 0.5, -0.1, 1, 0.2, 0, 0], [1, 8]), g.ci([5, 5]), g.sf(0)], { interpolation: a.s('BILINEAR'), fill_mode: a.s('CONSTANT'), dtype: a.type('float32') }));
C('ImageProjectiveTransformV3.nearest_reflect', (g) => g.op('ImageProjectiveTransformV3', [g.f([1, 4, 6, 1]), g.cf([1.2, 0, -1, 0, 0.9, 1, 0, 0], [1, 8]), g.ci([5, 4]), g.sf(0.5)], { interpolation: a.s('NEAREST'), fill_mode: a.s('REFLECT'), dtype: a.type('float32') }));
C('ImageProjectiveTransformV3.bilinear_wrap', (g) => g.op('ImageProjectiveTransformV3', [g.f([1, 5, 4, 2]), g.cf([0.9, 0.2, -1.5, -0.1, 1.1, 2.2, 0, 0], [1, 8]), g.ci([6, 5]), g.sf(0)], { interpolation: a.s('BILINEAR'), fill_mode: a.s('WRAP'), dtype: a.type('float32') }));
C('ImageProjectiveTransformV3.bilinear_reflect', (g) => g.op('ImageProjectiveTransformV3', [g.f([1, 4, 5, 2]), g.cf([2, 0.3, -3, 0.2, 2.1, -4, 0, 0], [1, 8]), g.ci([5, 6]), g.sf(0)], { interpolation: a.s('BILINEAR'), fill_mode: a.s('REFLECT'), dtype: a.type('float32') }));
C('ImageProjectiveTransformV3.projective_nearest_fill', (g) => g.op('ImageProjectiveTransformV3', [g.f([1, 6, 6, 1]), g.cf([1, 0.1, -2, 0.05, 1, -1, 0.02, -0.03], [1, 8]), g.ci([7, 6]), g.sf(0.25)], { interpolation: a.s('BILINEAR'), fill_mode: a.s('NEAREST'), dtype: a.type('float32') }));
C('ImageProjectiveTransformV3.constant_fill', (g) => g.op('ImageProjectiveTransformV3', [g.f([1, 5, 5, 2]), g.cf([1.3, -0.2, 1, 0.3, 0.8, -1.5, 0.04, 0], [1, 8]), g.ci([6, 6]), g.sf(-0.75)], { interpolation: a.s('NEAREST'), fill_mode: a.s('CONSTANT'), dtype: a.type('float32') }));
