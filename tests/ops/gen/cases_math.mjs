// Cases of the converter's arithmetic, basic_math, logical, reduction, normalization and matrices
// ops: modes that change the result (broadcasting, dtypes, axes, keep_dims, transposes), and
// empty and one-element tensors where an op could trip on them.
import { C, complexOut, cx } from './case.mjs';
import { a } from './graph.mjs';

// ---- arithmetic ----
const binary = {
  Add: [-2, 2],
  AddV2: [-2, 2],
  Sub: [-2, 2],
  Mul: [-2, 2],
  RealDiv: [0.5, 2],
  Div: [0.5, 2],
  DivNoNan: [-2, 2],
  FloorDiv: [-5, 5],
  FloorMod: [-5, 5],
  Mod: [-5, 5],
  Maximum: [-2, 2],
  Minimum: [-2, 2],
  Pow: [0.2, 2],
  SquaredDifference: [-2, 2],
  Atan2: [-2, 2],
};
for (const [op, [lo, hi]] of Object.entries(binary)) {
  C(op, (g) => g.op(op, [g.f([2, 3, 4], lo, hi), g.f([2, 3, 4], lo, hi)]));
  C(`${op}.broadcast`, (g) => g.op(op, [g.f([2, 1, 4], lo, hi), g.f([3, 1], lo, hi)]));
  C(`${op}.scalar`, (g) => g.op(op, [g.f([], lo, hi), g.f([5], lo, hi)]));
  C(`${op}.empty`, (g) => g.op(op, [g.f([0, 3], lo, hi), g.f([1, 3], lo, hi)]));
}
for (const op of ['Add', 'AddV2', 'Sub', 'Mul', 'Maximum', 'Minimum', 'FloorDiv', 'FloorMod', 'Mod', 'Div', 'SquaredDifference']) {
  C(`${op}.int32`, (g) => g.op(op, [g.i([2, 3], -9, 9), g.i([3], 1, 4)]));
}
C('Pow.int32', (g) => g.op('Pow', [g.i([6], -3, 3), g.ci([0, 1, 2, 3, 2, 1])]));
C('DivNoNan.zeros', (g) => g.op('DivNoNan', [g.f([6], -2, 2), g.cf([0, 1, 0, -2, 0, 0.5])]));
C('AddN', (g) => g.op('AddN', [g.f([2, 3]), g.f([2, 3]), g.f([2, 3])], { N: a.i(3) }));
C('AddN.one', (g) => g.op('AddN', [g.f([4])], { N: a.i(1) }));
C('BiasAdd', (g) => g.op('BiasAdd', [g.f([2, 3, 3, 5]), g.const('float32', [5])], { data_format: a.s('NHWC') }));
C('BiasAdd.rank2', (g) => g.op('BiasAdd', [g.f([4, 3]), g.const('float32', [3])]));

// ---- basic_math: unary ----
const unary = {
  Abs: [-3, 3], Acos: [-0.99, 0.99], Asin: [-0.99, 0.99], Atan: [-3, 3], Ceil: [-3, 3], Cos: [-4, 4],
  Cosh: [-3, 3], Elu: [-3, 3], Exp: [-3, 3], Floor: [-3, 3], Log: [0.01, 5], Neg: [-3, 3], Relu: [-3, 3],
  Relu6: [-3, 9], Selu: [-3, 3], Sigmoid: [-6, 6], Sin: [-4, 4], Sinh: [-3, 3], Sqrt: [0, 5], Rsqrt: [0.05, 5],
  Square: [-3, 3], Tan: [-1.4, 1.4], Tanh: [-3, 3], Sign: [-3, 3], Round: [-3, 3], Expm1: [-3, 3],
  Log1p: [-0.9, 5], Reciprocal: [0.1, 3], Softplus: [-6, 6], Asinh: [-3, 3], Acosh: [1, 5],
  Atanh: [-0.99, 0.99], Erf: [-3, 3], LeakyRelu: [-3, 3], IsNan: [-3, 3], IsFinite: [-3, 3], IsInf: [-3, 3],
};
for (const [op, [lo, hi]] of Object.entries(unary)) {
  C(op, (g) => g.op(op, [g.f([2, 3, 4], lo, hi)]));
  C(`${op}.empty`, (g) => g.op(op, [g.f([0, 2], lo, hi)]));
  C(`${op}.scalar`, (g) => g.op(op, [g.f([], lo, hi)]));
}
C('Round.halves', (g) => g.op('Round', [g.cf([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5])]));
for (const op of ['IsNan', 'IsFinite', 'IsInf']) {
  C(`${op}.special`, (g) => g.op(op, [g.op('RealDiv', [g.cf([0, 1, -1, 2, 0]), g.f([5], -1, 1)])]));
}
C('Sign.zeros', (g) => g.op('Sign', [g.cf([0, -0, 2, -3])]));
// Complex operands: TF.js's cpu Add, Sub and Mul take them, a real one counting as (x, 0).
for (const op of ['Add', 'AddV2', 'Sub', 'Mul'])
  C(`${op}.complex`, (g) => complexOut(g, g.op(op, [cx(g, [2, 1, 4], -2, 2), cx(g, [3, 1], -2, 2)])));
// TF.js 4.22's complex broadcast indexes its operands wrongly (NaN) when the smaller one only
// lacks leading dims ([2, 3] with [3], or a scalar); those cases follow TF's meaning here and
// are not compared.
C('Mul.complex_real', (g) => complexOut(g, g.op('Mul', [cx(g, [2, 3], -2, 2), g.f([2, 1], -2, 2)])));
for (const op of ['Abs', 'Neg', 'Sign', 'Square']) C(`${op}.int32`, (g) => g.op(op, [g.i([7], -5, 5)]));
C('LeakyRelu.alpha', (g) => g.op('LeakyRelu', [g.f([3, 4], -3, 3)], { alpha: a.f(0.1) }));
C('ClipByValue', (g) => g.op('ClipByValue', [g.f([3, 4], -3, 3), g.sf(-1), g.sf(1.5)]));
C('Prelu', (g) => g.op('Prelu', [g.f([2, 3, 3, 4], -3, 3), g.const('float32', [4], null, { lo: 0, hi: 0.5 })]));
C('Prelu.full', (g) => g.op('Prelu', [g.f([2, 3, 4], -3, 3), g.const('float32', [3, 4], null, { lo: 0, hi: 0.5 })]));
// Complex numbers: built by Complex, looked at through Real and Imag (no complex output).
C('Complex', (g) => {
  const c = g.op('Complex', [g.f([2, 3]), g.f([2, 3])], { Tout: a.type('complex64') });
  return [g.op('Real', [c], { Tout: a.type('float32') }), g.op('Imag', [c], { Tout: a.type('float32') })];
}, { also: ['Real', 'Imag'] });
C('ComplexAbs', (g) => g.op('ComplexAbs', [g.op('Complex', [g.f([5], -3, 3), g.f([5], -3, 3)])]));
// TF.js maps ComplexAbs to abs(), which takes real tensors too.
C('ComplexAbs.float', (g) => g.op('ComplexAbs', [g.f([6], -3, 3)]));
// A complex64 weight: (real, imag) float32 pairs in the shard.
C('Complex.weight', (g) => {
  const c = g.const('complex64', [2, 3], [1, -2, 0.5, 0, -3, 4, 0, -1, 2.5, 2.5, -0.25, 8]);
  return [g.op('Real', [c], { T: a.type('complex64'), Tout: a.type('float32') }), g.op('Imag', [c], { T: a.type('complex64'), Tout: a.type('float32') }), g.op('ComplexAbs', [c], { T: a.type('complex64'), Tout: a.type('float32') })];
});
// Cast to complex64 makes (x, 0); from complex64 it keeps the real part.
C('Cast.to_complex64', (g) => {
  const c = g.op('Cast', [g.f([2, 3])], { SrcT: a.type('float32'), DstT: a.type('complex64') });
  return [g.op('Real', [c], { Tout: a.type('float32') }), g.op('Imag', [c], { Tout: a.type('float32') })];
});
C('Cast.from_complex64', (g) => g.op('Cast', [g.op('Complex', [g.f([2, 3]), g.f([2, 3])])], { SrcT: a.type('complex64'), DstT: a.type('int32') }));

// ---- logical ----
for (const op of ['Equal', 'NotEqual', 'Greater', 'GreaterEqual', 'Less', 'LessEqual']) {
  C(op, (g) => g.op(op, [g.i([2, 3], 0, 3), g.i([2, 3], 0, 3)]));
  C(`${op}.float_broadcast`, (g) => g.op(op, [g.f([2, 3]), g.f([3])]));
  C(`${op}.empty`, (g) => g.op(op, [g.f([0]), g.f([1])]));
}
C('Equal.bool', (g) => g.op('Equal', [g.b([6]), g.b([6])]));
for (const op of ['LogicalAnd', 'LogicalOr']) {
  C(op, (g) => g.op(op, [g.b([2, 4]), g.b([2, 4])]));
  C(`${op}.broadcast`, (g) => g.op(op, [g.b([2, 4]), g.b([4])]));
}
C('LogicalNot', (g) => g.op('LogicalNot', [g.b([2, 4])]));
C('Select', (g) => g.op('Select', [g.b([2, 3]), g.f([2, 3]), g.f([2, 3])]));
C('Select.rank1_cond', (g) => g.op('Select', [g.b([2]), g.f([2, 3]), g.f([2, 3])]));
C('SelectV2', (g) => g.op('SelectV2', [g.b([2, 3]), g.f([2, 3]), g.f([2, 3])]));
C('SelectV2.broadcast', (g) => g.op('SelectV2', [g.b([3]), g.f([2, 1]), g.f([])]));
C('SelectV2.int32', (g) => g.op('SelectV2', [g.b([4]), g.i([4]), g.i([4])]));
// TF.js's loadGraphModel cannot run BitwiseAnd; registered-ops.mjs runs it through tf.registerOp.
C('BitwiseAnd', (g) => g.op('BitwiseAnd', [g.i([6], 0, 255), g.i([6], 0, 255)], { T: a.type('int32') }));
C('BitwiseAnd.negative', (g) => g.op('BitwiseAnd', [g.i([2, 3], -100000, 100000), g.ci([-1, -2, 255, -256, 0, 2147483647], [2, 3])], { T: a.type('int32') }));
C('BitwiseAnd.scalar', (g) => g.op('BitwiseAnd', [g.i([], -50, 50), g.i([], -50, 50)], { T: a.type('int32') }));
C('BitwiseAnd.empty', (g) => g.op('BitwiseAnd', [g.i([0, 2]), g.i([0, 2])], { T: a.type('int32') }));

// ---- reduction ----
for (const op of ['Max', 'Mean', 'Min', 'Sum', 'Prod']) {
  C(op, (g) => g.op(op, [g.f([2, 3, 4]), g.ci([1])], { keep_dims: a.b(false) }));
  C(`${op}.keep_dims`, (g) => g.op(op, [g.f([2, 3, 4]), g.ci([0, 2])], { keep_dims: a.b(true) }));
  C(`${op}.negative_axis`, (g) => g.op(op, [g.f([2, 3, 4]), g.si(-1)], { keep_dims: a.b(false) }));
  C(`${op}.all_axes`, (g) => g.op(op, [g.f([2, 3]), g.ci([0, 1])], { keep_dims: a.b(false) }));
  C(`${op}.int32`, (g) => g.op(op, [g.i([3, 4], -3, 3), g.ci([1])], { keep_dims: a.b(false) }));
}
C('Sum.empty_axes', (g) => g.op('Sum', [g.f([2, 3]), g.ci([])], { keep_dims: a.b(false) }));
C('Sum.empty_input', (g) => g.op('Sum', [g.f([0, 3]), g.ci([0])], { keep_dims: a.b(false) }));
for (const op of ['All', 'Any']) {
  C(op, (g) => g.op(op, [g.b([3, 4]), g.ci([1])], { keep_dims: a.b(false) }));
  C(`${op}.keep_dims`, (g) => g.op(op, [g.b([3, 4]), g.ci([0])], { keep_dims: a.b(true) }));
}
for (const op of ['ArgMax', 'ArgMin']) {
  C(op, (g) => g.op(op, [g.f([3, 4]), g.si(1)], { output_type: a.type('int32') }));
  C(`${op}.axis0`, (g) => g.op(op, [g.f([3, 4, 2]), g.si(0)], { output_type: a.type('int32') }));
  C(`${op}.int32`, (g) => g.op(op, [g.i([3, 4], 0, 3), g.si(-1)], { output_type: a.type('int32') }));
}
for (const op of ['Cumsum', 'Cumprod']) {
  C(op, (g) => g.op(op, [g.f([3, 4], 0.5, 1.5), g.si(1)], { exclusive: a.b(false), reverse: a.b(false) }));
  C(`${op}.exclusive`, (g) => g.op(op, [g.f([3, 4], 0.5, 1.5), g.si(0)], { exclusive: a.b(true), reverse: a.b(false) }));
  C(`${op}.reverse`, (g) => g.op(op, [g.f([3, 4], 0.5, 1.5), g.si(1)], { exclusive: a.b(false), reverse: a.b(true) }));
  C(`${op}.exclusive_reverse`, (g) => g.op(op, [g.f([5], 0.5, 1.5), g.si(0)], { exclusive: a.b(true), reverse: a.b(true) }));
}
C('Bincount', (g) => g.op('Bincount', [g.i([8], 0, 5), g.si(6), g.const('float32', [0], [])], { T: a.type('float32') }));
C('Bincount.weights', (g) => g.op('Bincount', [g.i([8], 0, 5), g.si(4), g.f([8])], { T: a.type('float32') }));
C('DenseBincount', (g) => g.op('DenseBincount', [g.i([8], 0, 5), g.si(6), g.const('float32', [0], [])], { T: a.type('float32'), Tidx: a.type('int32'), binary_output: a.b(false) }));
C('DenseBincount.binary', (g) => g.op('DenseBincount', [g.i([2, 6], 0, 5), g.si(6), g.const('float32', [0], [])], { T: a.type('float32'), Tidx: a.type('int32'), binary_output: a.b(true) }));
C('Bincount.int_weights', (g) => g.op('Bincount', [g.i([3, 4], 0, 6), g.si(5), g.i([3, 4], -3, 3)], { T: a.type('int32') }));
C('Bincount.empty', (g) => g.op('Bincount', [g.const('int32', [0], []), g.si(3), g.const('float32', [0], [])], { T: a.type('float32') }));
// TF.js reads binary_output for 2-D input only: a vector is counted.
C('DenseBincount.binary_vector', (g) => g.op('DenseBincount', [g.i([8], 0, 3), g.si(4), g.const('float32', [0], [])], { T: a.type('float32'), Tidx: a.type('int32'), binary_output: a.b(true) }));
C('DenseBincount.weights_2d', (g) => g.op('DenseBincount', [g.i([2, 5], 0, 5), g.si(4), g.f([2, 5])], { T: a.type('float32'), Tidx: a.type('int32'), binary_output: a.b(false) }));

// ---- normalization ----
C('EuclideanNorm', (g) => g.op('EuclideanNorm', [g.f([3, 4]), g.ci([1])], { keep_dims: a.b(false) }));
C('EuclideanNorm.keep_dims', (g) => g.op('EuclideanNorm', [g.f([2, 3, 4]), g.ci([0, 2])], { keep_dims: a.b(true) }));
for (const op of ['FusedBatchNorm', 'FusedBatchNormV2', 'FusedBatchNormV3']) {
  C(op, (g) => g.op(op, [g.f([2, 3, 3, 4]), g.const('float32', [4], null, { lo: 0.5, hi: 1.5 }), g.const('float32', [4]), g.const('float32', [4]), g.const('float32', [4], null, { lo: 0.5, hi: 2 })],
    { epsilon: a.f(0.001), data_format: a.s('NHWC'), is_training: a.b(false) }, { n: 6 })[0]);
}
C('LRN', (g) => g.op('LRN', [g.f([1, 2, 2, 7])], { depth_radius: a.i(2), bias: a.f(1), alpha: a.f(0.5), beta: a.f(0.75) }));
C('LRN.defaults', (g) => g.op('LRN', [g.f([1, 2, 2, 12])]));
C('Softmax', (g) => g.op('Softmax', [g.f([3, 5], -4, 4)]));
C('Softmax.rank1', (g) => g.op('Softmax', [g.f([7], -4, 4)]));
C('LogSoftmax', (g) => g.op('LogSoftmax', [g.f([3, 5], -4, 4)]));

// ---- matrices ----
C('MatMul', (g) => g.op('MatMul', [g.f([3, 4]), g.const('float32', [4, 5])], { transpose_a: a.b(false), transpose_b: a.b(false) }));
C('MatMul.transpose_a', (g) => g.op('MatMul', [g.f([4, 3]), g.f([4, 5])], { transpose_a: a.b(true), transpose_b: a.b(false) }));
C('MatMul.transpose_b', (g) => g.op('MatMul', [g.f([3, 4]), g.const('float32', [5, 4])], { transpose_a: a.b(false), transpose_b: a.b(true) }));
C('MatMul.one', (g) => g.op('MatMul', [g.f([1, 1]), g.f([1, 1])]));
C('_FusedMatMul.bias_relu', (g) => g.op('_FusedMatMul', [g.f([3, 4]), g.const('float32', [4, 5]), g.const('float32', [5])], { num_args: a.i(1), fused_ops: a.strs(['BiasAdd', 'Relu']), transpose_a: a.b(false), transpose_b: a.b(false) }));
C('_FusedMatMul.bias', (g) => g.op('_FusedMatMul', [g.f([3, 4]), g.const('float32', [5, 4]), g.const('float32', [5])], { num_args: a.i(1), fused_ops: a.strs(['BiasAdd']), transpose_a: a.b(false), transpose_b: a.b(true) }));
C('_FusedMatMul.bias_relu6', (g) => g.op('_FusedMatMul', [g.f([2, 4], -3, 3), g.const('float32', [4, 3]), g.const('float32', [3])], { num_args: a.i(1), fused_ops: a.strs(['BiasAdd', 'Relu6']) }));
C('_FusedMatMul.bias_leakyrelu', (g) => g.op('_FusedMatMul', [g.f([2, 4], -3, 3), g.const('float32', [4, 3]), g.const('float32', [3])], { num_args: a.i(1), fused_ops: a.strs(['BiasAdd', 'LeakyRelu']), leakyrelu_alpha: a.f(0.3) }));
C('_FusedMatMul.bias_prelu', (g) => g.op('_FusedMatMul', [g.f([2, 4], -3, 3), g.const('float32', [4, 3]), g.const('float32', [3]), g.const('float32', [3], null, { lo: 0, hi: 0.5 })], { num_args: a.i(2), fused_ops: a.strs(['BiasAdd', 'Prelu']) }));
for (const op of ['BatchMatMul', 'BatchMatMulV2']) {
  C(op, (g) => g.op(op, [g.f([2, 3, 4]), g.f([2, 4, 5])], { adj_x: a.b(false), adj_y: a.b(false) }));
  C(`${op}.adjoint`, (g) => g.op(op, [g.f([2, 4, 3]), g.f([2, 5, 4])], { adj_x: a.b(true), adj_y: a.b(true) }));
}
C('BatchMatMulV2.broadcast', (g) => g.op('BatchMatMulV2', [g.f([2, 1, 3, 4]), g.f([3, 4, 2])]));
C('BatchMatMulV2.broadcast_one', (g) => g.op('BatchMatMulV2', [g.f([2, 3, 4]), g.f([1, 4, 2])]));
C('BatchMatMulV2.rank2_b', (g) => g.op('BatchMatMulV2', [g.f([2, 3, 4]), g.f([4, 5])]));
C('Transpose', (g) => g.op('Transpose', [g.f([2, 3, 4]), g.ci([2, 0, 1])], { Tperm: a.type('int32') }));
C('Transpose.rank4', (g) => g.op('Transpose', [g.f([2, 3, 4, 5]), g.ci([0, 3, 1, 2])]));
C('Transpose.int32', (g) => g.op('Transpose', [g.i([3, 4]), g.ci([1, 0])]));
C('Transpose.empty', (g) => g.op('Transpose', [g.f([0, 3]), g.ci([1, 0])]));
C('Einsum', (g) => g.op('Einsum', [g.f([3, 4]), g.f([4, 5])], { equation: a.s('ij,jk->ik'), N: a.i(2), T: a.type('float32') }));
C('Einsum.batch', (g) => g.op('Einsum', [g.f([2, 3, 4]), g.f([2, 4, 5])], { equation: a.s('bij,bjk->bik'), N: a.i(2), T: a.type('float32') }));
C('Einsum.transpose', (g) => g.op('Einsum', [g.f([3, 4])], { equation: a.s('ij->ji'), N: a.i(1), T: a.type('float32') }));
C('Einsum.reduce', (g) => g.op('Einsum', [g.f([3, 4]), g.f([3, 4])], { equation: a.s('ij,ij->i'), N: a.i(2), T: a.type('float32') }));
C('Einsum.outer', (g) => g.op('Einsum', [g.f([3]), g.f([4])], { equation: a.s('i,j->ij'), N: a.i(2), T: a.type('float32') }));
C('Einsum.attention', (g) => g.op('Einsum', [g.f([2, 3, 4, 5]), g.f([2, 3, 6, 5])], { equation: a.s('bhqd,bhkd->bhqk'), N: a.i(2), T: a.type('float32') }));
C('Einsum.permuted_output', (g) => g.op('Einsum', [g.f([2, 3, 4]), g.f([4, 5])], { equation: a.s('bij,jk->kbi'), N: a.i(2), T: a.type('float32') }));
C('Einsum.sum_all', (g) => g.op('Einsum', [g.f([3, 4])], { equation: a.s('ij->'), N: a.i(1), T: a.type('float32') }));
C('Einsum.free_summed', (g) => g.op('Einsum', [g.f([3, 4]), g.f([4, 5])], { equation: a.s('ij,jk->i'), N: a.i(2), T: a.type('float32') }));
C('Einsum.int32', (g) => g.op('Einsum', [g.i([2, 3], -4, 4), g.i([3, 2], -4, 4)], { equation: a.s('ij,jk->ik'), N: a.i(2), T: a.type('int32') }));
C('Einsum.three_operands', (g) => g.op('Einsum', [g.f([2, 3]), g.f([3, 4]), g.f([4, 2])], { equation: a.s('ij,jk,kl->il'), N: a.i(3), T: a.type('float32') }));
C('MatrixBandPart', (g) => g.op('MatrixBandPart', [g.f([4, 5]), g.si(1), g.si(2)], { Tindex: a.type('int32') }));
C('MatrixBandPart.lower', (g) => g.op('MatrixBandPart', [g.f([2, 4, 4]), g.si(-1), g.si(0)], { Tindex: a.type('int32') }));
