// Cases of the converter's slice_join, transformation, creation, evaluation, dynamic, graph,
// sparse, spectral, string, ragged and tfdf ops.
import { C, complexOut, cx } from './case.mjs';
import { a } from './graph.mjs';

// ---- slice_join ----
C('ConcatV2', (g) => g.op('ConcatV2', [g.f([2, 3]), g.f([2, 2]), g.si(1)], { N: a.i(2), Tidx: a.type('int32') }));
C('ConcatV2.negative_axis', (g) => g.op('ConcatV2', [g.f([2, 3, 2]), g.f([2, 3, 1]), g.f([2, 3, 3]), g.si(-1)], { N: a.i(3) }));
C('ConcatV2.empty_part', (g) => g.op('ConcatV2', [g.f([0, 3]), g.f([2, 3]), g.si(0)], { N: a.i(2) }));
C('ConcatV2.int32', (g) => g.op('ConcatV2', [g.i([2]), g.i([3]), g.si(0)], { N: a.i(2) }));
// TF.js concatenates complex64 tensors (each part on its own), and makes complex zeros and ones.
C('ConcatV2.complex', (g) => complexOut(g, g.op('ConcatV2', [cx(g, [2, 3]), cx(g, [2, 2]), g.si(1)], { N: a.i(2) })));
C('ZerosLike.complex', (g) => complexOut(g, g.op('ZerosLike', [cx(g, [2, 3])])));
C('OnesLike.complex', (g) => complexOut(g, g.op('OnesLike', [cx(g, [4])])));
C('ConcatV2.one', (g) => g.op('ConcatV2', [g.f([2, 2]), g.si(0)], { N: a.i(1) }));
C('Concat', (g) => g.op('Concat', [g.si(1), g.f([2, 3]), g.f([2, 1])], { N: a.i(2) }));
C('GatherV2', (g) => g.op('GatherV2', [g.f([5, 3]), g.ci([4, 0, 2, 2]), g.si(0)], { batch_dims: a.i(0), Tindices: a.type('int32'), Tparams: a.type('float32') }));
C('GatherV2.axis1', (g) => g.op('GatherV2', [g.f([2, 5, 3]), g.ci([1, 3, 0, 4, 1, 2], [2, 3]), g.si(1)], { batch_dims: a.i(0) }));
C('GatherV2.batch_dims', (g) => g.op('GatherV2', [g.f([2, 4, 3]), g.ci([0, 3, 2, 1], [2, 2]), g.si(1)], { batch_dims: a.i(1) }));
C('GatherV2.int32_fed_indices', (g) => g.op('GatherV2', [g.i([6, 2], -5, 5), g.i([5], 0, 5), g.si(0)]));
C('Gather', (g) => g.op('Gather', [g.f([4, 3]), g.ci([3, 1, 1])], { validate_indices: a.b(true) }));
C('Reverse', (g) => g.op('Reverse', [g.f([2, 3, 4]), g.const('bool', [3], [1, 0, 1])]));
C('ReverseV2', (g) => g.op('ReverseV2', [g.f([2, 3, 4]), g.ci([1])], { Tidx: a.type('int32') }));
C('ReverseV2.axes', (g) => g.op('ReverseV2', [g.i([2, 3, 4]), g.ci([0, -1])]));
C('Slice', (g) => g.op('Slice', [g.f([4, 5, 3]), g.ci([1, 2, 0]), g.ci([2, -1, 2])], { Index: a.type('int32') }));
C('Slice.empty', (g) => g.op('Slice', [g.f([4, 5]), g.ci([1, 1]), g.ci([0, 3])]));
const ss = (g, x, b, e, s, masks = {}) =>
  g.op('StridedSlice', [g.f(x), g.ci(b), g.ci(e), g.ci(s)], {
    begin_mask: a.i(masks.begin ?? 0), end_mask: a.i(masks.end ?? 0), ellipsis_mask: a.i(masks.ellipsis ?? 0),
    new_axis_mask: a.i(masks.new_axis ?? 0), shrink_axis_mask: a.i(masks.shrink ?? 0), Index: a.type('int32'),
  });
C('StridedSlice', (g) => ss(g, [5, 6], [1, 0], [4, 6], [1, 2]));
C('StridedSlice.masks', (g) => ss(g, [4, 5, 3], [1, 3, 0], [0, 0, 2], [1, 1, 1], { begin: 0b010, end: 0b011 }));
C('StridedSlice.shrink', (g) => ss(g, [4, 5, 3], [2, 0, 1], [3, 5, 2], [1, 1, 1], { shrink: 0b101 }));
C('StridedSlice.new_axis', (g) => ss(g, [4, 5], [0, 1, 0], [0, 4, 5], [1, 1, 1], { new_axis: 0b001 }));
C('StridedSlice.ellipsis', (g) => ss(g, [2, 3, 4, 5], [0, 1], [0, 4], [1, 2], { ellipsis: 0b01 }));
C('StridedSlice.negative_stride', (g) => ss(g, [6, 4], [-1, 3], [-7, 0], [-2, -1], {}));
C('StridedSlice.negative_bounds', (g) => ss(g, [6, 4], [-4, -3], [-1, 4], [1, 1], {}));
C('Pack', (g) => g.op('Pack', [g.f([2, 3]), g.f([2, 3]), g.f([2, 3])], { N: a.i(3), axis: a.i(0) }));
C('Pack.axis_last', (g) => g.op('Pack', [g.f([2, 3]), g.f([2, 3])], { N: a.i(2), axis: a.i(-1) }));
C('Pack.scalars', (g) => g.op('Pack', [g.i([]), g.i([])], { N: a.i(2), axis: a.i(0) }));
C('Unpack', (g) => g.op('Unpack', [g.f([3, 2, 4])], { num: a.i(3), axis: a.i(0) }, { n: 3 }));
C('Unpack.axis1', (g) => g.op('Unpack', [g.f([2, 4, 3])], { num: a.i(4), axis: a.i(1) }, { n: 4 }));
C('Tile', (g) => g.op('Tile', [g.f([2, 3]), g.ci([2, 3])], { Tmultiples: a.type('int32') }));
C('Tile.rank3_int32', (g) => g.op('Tile', [g.i([2, 1, 3]), g.ci([1, 4, 2])]));
C('Split', (g) => g.op('Split', [g.si(1), g.f([2, 6])], { num_split: a.i(3) }, { n: 3 }));
C('Split.negative_axis', (g) => g.op('Split', [g.si(-1), g.f([2, 3, 4])], { num_split: a.i(2) }, { n: 2 }));
C('SplitV', (g) => g.op('SplitV', [g.f([2, 7]), g.ci([2, 4, 1]), g.si(1)], { num_split: a.i(3), Tlen: a.type('int32') }, { n: 3 }));
C('SplitV.inferred', (g) => g.op('SplitV', [g.f([6, 2]), g.ci([1, -1, 2]), g.si(0)], { num_split: a.i(3) }, { n: 3 }));
C('ScatterNd', (g) => g.op('ScatterNd', [g.ci([4, 3, 1, 7], [4, 1]), g.f([4]), g.ci([8])], { Tindices: a.type('int32') }));
C('ScatterNd.slices_duplicates', (g) => g.op('ScatterNd', [g.ci([0, 2, 0], [3, 1]), g.f([3, 4]), g.ci([4, 4])]));
C('ScatterNd.elements_int32_duplicates', (g) => g.op('ScatterNd', [g.ci([0, 1, 2, 0, 0, 1, 1, 1], [4, 2]), g.i([4], -5, 5), g.ci([3, 2])]));
C('ScatterNd.no_updates', (g) => g.op('ScatterNd', [g.const('int32', [0, 1], []), g.const('float32', [0, 4], []), g.ci([3, 4])]));
C('GatherNd', (g) => g.op('GatherNd', [g.f([3, 4, 2]), g.ci([0, 1, 2, 3, 1, 0], [3, 2])], { Tindices: a.type('int32'), Tparams: a.type('float32') }));
C('GatherNd.full_index', (g) => g.op('GatherNd', [g.i([3, 4]), g.ci([2, 3, 0, 0], [2, 2])]));
C('SparseToDense', (g) => g.op('SparseToDense', [g.ci([0, 1, 1, 3, 2, 0], [3, 2]), g.ci([3, 4]), g.f([3]), g.sf(0.5)], { validate_indices: a.b(true), Tindices: a.type('int32') }));
C('SparseToDense.scalar_value', (g) => g.op('SparseToDense', [g.ci([1, 4]), g.ci([6]), g.si(7), g.si(-1)], { T: a.type('int32') }));
C('TensorScatterUpdate', (g) => g.op('TensorScatterUpdate', [g.f([5, 3]), g.ci([4, 0], [2, 1]), g.f([2, 3])], { Tindices: a.type('int32') }));
C('TensorScatterUpdate.elements', (g) => g.op('TensorScatterUpdate', [g.i([3, 3]), g.ci([0, 0, 2, 1], [2, 2]), g.ci([100, 200])]));
C('TensorScatterUpdate.duplicates', (g) => g.op('TensorScatterUpdate', [g.f([4, 2]), g.ci([1, 3, 1], [3, 1]), g.f([3, 2], 5, 9)]));

// ---- transformation ----
const cast = (src, dst, mk) => C(`Cast.${src}_to_${dst}`, (g) => g.op('Cast', [mk(g)], { SrcT: a.type(src), DstT: a.type(dst), Truncate: a.b(false) }));
cast('float32', 'int32', (g) => g.f([2, 5], -4, 4));
cast('int32', 'float32', (g) => g.i([2, 5], -9, 9));
cast('bool', 'float32', (g) => g.b([6]));
cast('float32', 'bool', (g) => g.cf([0, 0.5, -1, 0, 2]));
cast('int32', 'bool', (g) => g.i([6], -1, 1));
C('ExpandDims', (g) => g.op('ExpandDims', [g.f([2, 3]), g.si(1)], { Tdim: a.type('int32') }));
C('ExpandDims.negative', (g) => g.op('ExpandDims', [g.i([2, 3]), g.si(-1)]));
C('ExpandDims.scalar', (g) => g.op('ExpandDims', [g.f([]), g.si(0)]));
C('MirrorPad.reflect', (g) => g.op('MirrorPad', [g.f([3, 4]), g.ci([1, 2, 2, 1], [2, 2])], { mode: a.s('REFLECT'), Tpaddings: a.type('int32') }));
C('MirrorPad.symmetric', (g) => g.op('MirrorPad', [g.f([1, 3, 3, 2]), g.ci([0, 0, 2, 1, 1, 3, 0, 0], [4, 2])], { mode: a.s('SYMMETRIC') }));
C('Pad', (g) => g.op('Pad', [g.f([2, 3]), g.ci([1, 0, 2, 1], [2, 2])], { Tpaddings: a.type('int32') }));
C('Pad.rank4_int32', (g) => g.op('Pad', [g.i([1, 2, 2, 3]), g.ci([0, 0, 1, 1, 0, 2, 0, 1], [4, 2])]));
C('PadV2', (g) => g.op('PadV2', [g.f([2, 3]), g.ci([1, 1, 0, 2], [2, 2]), g.sf(-7.5)]));
C('Reshape', (g) => g.op('Reshape', [g.f([2, 3, 4]), g.ci([4, -1])], { Tshape: a.type('int32') }));
C('Reshape.scalar', (g) => g.op('Reshape', [g.f([1, 1]), g.ci([])]));
C('Reshape.empty', (g) => g.op('Reshape', [g.f([0, 3]), g.ci([3, 0])]));
C('EnsureShape', (g) => g.op('EnsureShape', [g.f([2, 3]), g.ci([2, 3])], { shape: a.shape([2, 3]) }));
C('Squeeze', (g) => g.op('Squeeze', [g.f([1, 3, 1, 2])], { squeeze_dims: a.ints([0]) }));
C('Squeeze.all', (g) => g.op('Squeeze', [g.f([1, 3, 1, 2])], { squeeze_dims: a.ints([]) }));
C('Squeeze.negative', (g) => g.op('Squeeze', [g.f([2, 3, 1])], { squeeze_dims: a.ints([-1]) }));
C('SpaceToBatchND', (g) => g.op('SpaceToBatchND', [g.f([1, 4, 4, 2]), g.ci([2, 2]), g.ci([0, 0, 0, 0], [2, 2])]));
C('SpaceToBatchND.padded', (g) => g.op('SpaceToBatchND', [g.f([2, 3, 5, 1]), g.ci([2, 3]), g.ci([1, 0, 0, 1], [2, 2])]));
C('BatchToSpaceND', (g) => g.op('BatchToSpaceND', [g.f([4, 2, 2, 3]), g.ci([2, 2]), g.ci([0, 0, 0, 0], [2, 2])]));
C('BatchToSpaceND.cropped', (g) => g.op('BatchToSpaceND', [g.f([6, 2, 3, 1]), g.ci([2, 3]), g.ci([1, 0, 0, 2], [2, 2])]));
C('DepthToSpace', (g) => g.op('DepthToSpace', [g.f([1, 2, 3, 8])], { block_size: a.i(2), data_format: a.s('NHWC') }));
C('DepthToSpace.block3', (g) => g.op('DepthToSpace', [g.f([2, 2, 2, 9])], { block_size: a.i(3), data_format: a.s('NHWC') }));
C('BroadcastTo', (g) => g.op('BroadcastTo', [g.f([3, 1]), g.ci([2, 3, 4])], { Tidx: a.type('int32') }));
C('BroadcastTo.scalar_int32', (g) => g.op('BroadcastTo', [g.i([]), g.ci([2, 2])]));
C('BroadcastArgs', (g) => g.op('BroadcastArgs', [g.ci([2, 1, 4]), g.ci([3, 1])], { T: a.type('int32') }));

// ---- creation ----
C('Fill', (g) => g.op('Fill', [g.ci([2, 3]), g.sf(1.5)], { T: a.type('float32'), index_type: a.type('int32') }));
C('Fill.int32', (g) => g.op('Fill', [g.ci([4]), g.si(-3)], { T: a.type('int32') }));
C('Fill.empty', (g) => g.op('Fill', [g.ci([0, 2]), g.sf(2)], { T: a.type('float32') }));
C('LinSpace', (g) => g.op('LinSpace', [g.sf(-1), g.sf(2), g.si(7)], { T: a.type('float32'), Tidx: a.type('int32') }));
C('LinSpace.one', (g) => g.op('LinSpace', [g.sf(3), g.sf(5), g.si(1)], { T: a.type('float32') }));
C('OneHot', (g) => g.op('OneHot', [g.i([5], -1, 4), g.si(4), g.sf(1), g.sf(0)], { axis: a.i(-1), T: a.type('float32'), TI: a.type('int32') }));
C('OneHot.values', (g) => g.op('OneHot', [g.ci([0, 2, 1, 1], [2, 2]), g.si(3), g.sf(5), g.sf(-2)], { axis: a.i(-1), T: a.type('float32') }));
C('Ones', (g) => g.op('Ones', [g.ci([2, 3])], { T: a.type('float32') }));
C('Zeros', (g) => g.op('Zeros', [g.ci([3, 2])], { T: a.type('float32') }));
C('OnesLike', (g) => g.op('OnesLike', [g.f([2, 3])], { T: a.type('float32') }));
C('OnesLike.int32', (g) => g.op('OnesLike', [g.i([4])], { T: a.type('int32') }));
C('ZerosLike', (g) => g.op('ZerosLike', [g.f([2, 3])], { T: a.type('float32') }));
C('ZerosLike.bool', (g) => g.op('ZerosLike', [g.b([4])], { T: a.type('bool') }));
C('Range', (g) => g.op('Range', [g.si(2), g.si(11), g.si(3)], { Tidx: a.type('int32') }));
C('Range.float', (g) => g.op('Range', [g.sf(1), g.sf(-1), g.sf(-0.3)], { Tidx: a.type('float32') }));
C('Range.empty', (g) => g.op('Range', [g.si(5), g.si(5), g.si(1)], { Tidx: a.type('int32') }));
const seeds = { seed: a.i(7), seed2: a.i(0) };
// TF.js's executor drops RandomUniform's seed (it draws from Math.random's seed): these cases
// check the distribution, not the values. minval and maxval are TF.js's own attributes.
C('RandomUniform', (g) => g.op('RandomUniform', [g.ci([100, 100])], { dtype: a.type('float32'), T: a.type('int32'), ...seeds }), { check: { uniform: [0, 1] } });
C('RandomUniform.range', (g) => g.op('RandomUniform', [g.ci([50, 200])], { minval: a.f(-3), maxval: a.f(5), dtype: a.type('float32'), T: a.type('int32'), seed: a.i(0), seed2: a.i(0) }), { check: { uniform: [-3, 5] } });
C('RandomUniform.empty', (g) => g.op('RandomUniform', [g.ci([0, 3])], { dtype: a.type('float32'), T: a.type('int32'), ...seeds }), { check: { uniform: [0, 1] } });
C('RandomUniformInt', (g) => g.op('RandomUniformInt', [g.ci([6]), g.si(2), g.si(9)], { minval: a.i(2), maxval: a.i(9), Tout: a.type('int32'), T: a.type('int32'), ...seeds }));
C('RandomStandardNormal', (g) => g.op('RandomStandardNormal', [g.ci([3, 4])], { dtype: a.type('float32'), T: a.type('int32'), ...seeds }));
C('TruncatedNormal', (g) => g.op('TruncatedNormal', [g.ci([3, 4])], { dtype: a.type('float32'), T: a.type('int32'), ...seeds }));
C('Multinomial', (g) => g.op('Multinomial', [g.f([2, 4], -2, 2), g.si(5)], { T: a.type('float32'), output_dtype: a.type('int32'), ...seeds }));

// ---- evaluation ----
for (const op of ['LowerBound', 'UpperBound']) {
  C(op, (g) => g.op(op, [g.cf([0, 1, 1, 2, 5, -1, 0, 0, 3, 4], [2, 5]), g.cf([1, -2, 4, 0, 3, 9], [2, 3])], { T: a.type('float32'), out_type: a.type('int32') }));
  C(`${op}.int32`, (g) => g.op(op, [g.ci([1, 3, 3, 3, 7], [1, 5]), g.i([1, 6], 0, 8)], { T: a.type('int32'), out_type: a.type('int32') }));
  // TF.js views 1-D inputs as one row: the result is [1, n].
  C(`${op}.vector`, (g) => g.op(op, [g.cf([-1, 0, 0, 2.5]), g.f([5], -2, 3)], { T: a.type('float32'), out_type: a.type('int32') }));
}
C('TopKV2', (g) => g.op('TopKV2', [g.f([3, 6]), g.si(3)], { sorted: a.b(true) }, { n: 2 }));
C('TopKV2.int32', (g) => g.op('TopKV2', [g.i([2, 5], 0, 100), g.si(2)], { sorted: a.b(true) }, { n: 2 }));
C('TopKV2.k_all', (g) => g.op('TopKV2', [g.f([7]), g.si(7)], { sorted: a.b(true) }, { n: 2 }));
// A row long enough to be cut in pieces (the cpu kernel's), with many ties: lower index first.
C('TopKV2.long_row', (g) => g.op('TopKV2', [g.i([1, 300000], 0, 500), g.si(40)], { sorted: a.b(true) }, { n: 2 }));
C('TopKV2.long_rows', (g) => g.op('TopKV2', [g.f([3, 100000]), g.si(64)], { sorted: a.b(true) }, { n: 2 }));
C('Unique', (g) => g.op('Unique', [g.ci([3, 1, 3, 2, 1, 7, 3])], { out_idx: a.type('int32') }, { n: 2 }));
C('Unique.fed_float', (g) => g.op('Unique', [g.input('float32', [6], { vals: [1.5, -2, 1.5, 0, -2, 4] })], { out_idx: a.type('int32') }, { n: 2 }));
C('UniqueV2', (g) => g.op('UniqueV2', [g.ci([1, 2, 1, 2, 0, 3, 1, 2, 1], [3, 3]), g.ci([0])], { out_idx: a.type('int32'), Taxis: a.type('int32') }, { n: 2 }));
C('UniqueV2.axis1', (g) => g.op('UniqueV2', [g.ci([1, 2, 1, 4, 0, 4], [2, 3]), g.ci([1])], { out_idx: a.type('int32') }, { n: 2 }));
// TF.js keys values by their text: -0 is 0. (NaN, equal to NaN there too, is in the cpu unit test:
// our engine refuses NaN inputs and weights unless told otherwise.)
C('Unique.negative_zero', (g) => g.op('Unique', [g.input('float32', [6], { vals: [0, -0, 1, -0, 2.5, 0] })], { out_idx: a.type('int32') }, { n: 2 }));
C('Unique.empty', (g) => g.op('Unique', [g.f([0])], { out_idx: a.type('int32') }, { n: 2 }));
C('UniqueV2.negative_axis', (g) => g.op('UniqueV2', [g.i([2, 2, 4], 0, 1), g.ci([-1])], { out_idx: a.type('int32') }, { n: 2 }));

// ---- dynamic ----
const boxes = [0, 0, 1, 1, 0, 0.1, 1, 1.1, 0, -0.1, 1, 0.9, 0, 10, 1, 11, 0, 10.1, 1, 11.1, 0, 100, 1, 101];
const scores = [0.9, 0.75, 0.6, 0.95, 0.5, 0.3];
C('NonMaxSuppressionV2', (g) => g.op('NonMaxSuppressionV2', [g.cf(boxes, [6, 4]), g.f([6], 0, 1), g.si(3), g.sf(0.5)]));
C('NonMaxSuppressionV3', (g) => g.op('NonMaxSuppressionV3', [g.cf(boxes, [6, 4]), g.cf(scores), g.si(4), g.sf(0.5), g.sf(0.4)]));
C('NonMaxSuppressionV4', (g) => g.op('NonMaxSuppressionV4', [g.cf(boxes, [6, 4]), g.cf(scores), g.si(5), g.sf(0.5), g.sf(0)], { pad_to_max_output_size: a.b(true) }, { n: 2 }));
C('NonMaxSuppressionV4.unpadded', (g) => g.op('NonMaxSuppressionV4', [g.cf(boxes, [6, 4]), g.cf(scores), g.si(5), g.sf(0.5), g.sf(0.55)], { pad_to_max_output_size: a.b(false) }, { n: 2 }));
// TF.js gives V5's indices and scores, not TF's third output (valid_outputs).
C('NonMaxSuppressionV5', (g) => g.op('NonMaxSuppressionV5', [g.cf(boxes, [6, 4]), g.cf(scores), g.si(6), g.sf(0.5), g.sf(0), g.sf(0.5)], { pad_to_max_output_size: a.b(false) }, { n: 2 }));
C('NonMaxSuppressionV5.hard', (g) => g.op('NonMaxSuppressionV5', [g.cf(boxes, [6, 4]), g.cf(scores), g.si(6), g.sf(0.5), g.sf(0), g.sf(0)], {}, { n: 2 }));
C('Where', (g) => g.op('Where', [g.b([3, 4])], { T: a.type('bool') }));
C('Where.float', (g) => g.op('Where', [g.cf([0, 1.5, 0, -2, 0, 0])], { T: a.type('float32') }));
C('Where.none', (g) => g.op('Where', [g.const('bool', [2, 2], [0, 0, 0, 0])], { T: a.type('bool') }));
C('ListDiff', (g) => g.op('ListDiff', [g.ci([1, 2, 3, 4, 5, 6]), g.ci([1, 3, 5])], { out_idx: a.type('int32') }, { n: 2 }));
C('ListDiff.fed', (g) => g.op('ListDiff', [g.i([8], 0, 5), g.ci([2, 4])], { out_idx: a.type('int32') }, { n: 2 }));
C('ListDiff.float_negative_zero', (g) => g.op('ListDiff', [g.input('float32', [5], { vals: [1, 2.5, -0, 2, 1] }), g.cf([0, 2])], { out_idx: a.type('int32') }, { n: 2 }));
C('ListDiff.empty_y', (g) => g.op('ListDiff', [g.i([4], 0, 5), g.const('int32', [0], [])], { out_idx: a.type('int32') }, { n: 2 }));

// ---- graph ----
C('PlaceholderWithDefault', (g) => g.op('PlaceholderWithDefault', [g.cf([1, 2, 3])], { dtype: a.type('float32'), shape: a.shape([3]) }));
C('Placeholder', (g) => g.op('Neg', [g.f([2, 3])]));
C('Const', (g) => g.op('Neg', [g.cf([1, -2, 3])]));
C('Identity', (g) => g.op('Identity', [g.f([2, 3])]));
C('IdentityN', (g) => g.op('IdentityN', [g.f([2]), g.i([3])], { T: a.types(['float32', 'int32']) }, { n: 2 }));
C('Snapshot', (g) => g.op('Snapshot', [g.f([2, 3])]));
C('StopGradient', (g) => g.op('StopGradient', [g.f([2, 3])]));
C('Rank', (g) => g.op('Rank', [g.f([2, 3, 1])]));
C('Size', (g) => g.op('Size', [g.f([2, 3, 4])], { out_type: a.type('int32') }));
C('Size.empty', (g) => g.op('Size', [g.f([2, 0])], { out_type: a.type('int32') }));
C('Shape', (g) => g.op('Shape', [g.f([2, 3, 4])], { out_type: a.type('int32') }));
C('Shape.scalar', (g) => g.op('Shape', [g.f([])], { out_type: a.type('int32') }));
C('ShapeN', (g) => g.op('ShapeN', [g.f([2, 3]), g.i([4])], { N: a.i(2), out_type: a.type('int32') }, { n: 2 }));
C('Print', (g) => {
  const x = g.f([2, 3]);
  return g.op('Print', [x, x], { message: a.s('conformance'), summarize: a.i(3), first_n: a.i(-1), U: a.types(['float32']) });
});
C('NoOp', (g) => {
  const x = g.f([3]);
  const noop = g.node('NoOp', []);
  return g.node('Identity', [x, `^${noop}`], { T: a.type('float32') });
});
C('FakeQuantWithMinMaxVars', (g) => g.op('FakeQuantWithMinMaxVars', [g.f([2, 5], -8, 8)], { min: a.f(-6), max: a.f(6), num_bits: a.i(8), narrow_range: a.b(false) }));

// ---- sparse ----
C('SparseFillEmptyRows', (g) => g.op('SparseFillEmptyRows', [g.ci([0, 0, 1, 0, 1, 3, 3, 1], [4, 2]), g.f([4]), g.ci([5, 4]), g.sf(-1)], {}, { n: 4 }));
C('SparseReshape', (g) => g.op('SparseReshape', [g.ci([0, 0, 0, 1, 1, 2, 2, 3], [4, 2]), g.ci([3, 4]), g.ci([2, -1])], {}, { n: 2 }));
for (const op of ['SparseSegmentMean', 'SparseSegmentSum']) {
  C(op, (g) => g.op(op, [g.f([5, 3]), g.ci([0, 2, 3, 4]), g.ci([0, 0, 1, 3])], { Tidx: a.type('int32'), Tsegmentids: a.type('int32') }));
}
// int32 data: the sum wraps like an Int32Array, the mean truncates toward zero.
C('SparseSegmentMean.int32', (g) => g.op('SparseSegmentMean', [g.ci([7, -7, 5, 2, -3, 1, 2147483647, 1], [4, 2]), g.ci([0, 1, 2, 3, 3, 3]), g.ci([0, 0, 1, 1, 2, 2])], { T: a.type('int32'), Tidx: a.type('int32'), Tsegmentids: a.type('int32') }));

// ---- spectral: complex in through Complex, out through Real and Imag ----
C('FFT', (g) => complexOut(g, g.op('FFT', [g.op('Complex', [g.f([2, 8]), g.f([2, 8])])])));
C('IFFT', (g) => complexOut(g, g.op('IFFT', [g.op('Complex', [g.f([3, 5]), g.f([3, 5])])])));
C('RFFT', (g) => complexOut(g, g.op('RFFT', [g.f([2, 8]), g.ci([8])])));
C('IRFFT', (g) => g.op('IRFFT', [g.op('Complex', [g.f([2, 5]), g.f([2, 5])]), g.ci([8])]));
// Sizes that are not powers of two take TF.js's naive DFT, the others its radix-2 FFT.
C('FFT.naive', (g) => complexOut(g, g.op('FFT', [cx(g, [3, 6])])));
C('FFT.rank3', (g) => complexOut(g, g.op('FFT', [cx(g, [2, 3, 4])])));
C('FFT.size1', (g) => complexOut(g, g.op('FFT', [cx(g, [3, 1])])));
C('FFT.reshaped', (g) => complexOut(g, g.op('FFT', [g.op('Reshape', [cx(g, [2, 8]), g.ci([4, 4])])])));
C('IFFT.radix2', (g) => complexOut(g, g.op('IFFT', [cx(g, [2, 16])])));
C('RFFT.odd', (g) => complexOut(g, g.op('RFFT', [g.f([3, 7]), g.ci([7])])));
// TF.js's op mapper drops fft_length: the transform takes the input's innermost size (TF: 8).
C('RFFT.fft_length_ignored', (g) => complexOut(g, g.op('RFFT', [g.f([2, 6]), g.ci([8])])));
C('IRFFT.naive', (g) => g.op('IRFFT', [cx(g, [2, 6]), g.ci([10])]));
C('IRFFT.rank3', (g) => g.op('IRFFT', [cx(g, [2, 2, 5]), g.ci([8])]));
// TF.js returns [1, n] for a vector and [batch, n] for rank 4 (TF: [n], [a, b, c, n]).
C('IRFFT.rank1', (g) => g.op('IRFFT', [cx(g, [5]), g.ci([8])]));
C('IRFFT.rank4', (g) => g.op('IRFFT', [cx(g, [2, 1, 2, 3]), g.ci([4])]));
C('IRFFT.inner2', (g) => g.op('IRFFT', [cx(g, [3, 2]), g.ci([2])]));
C('IRFFT.fft_length_ignored', (g) => g.op('IRFFT', [cx(g, [2, 4]), g.ci([7])]));

// ---- string (strings come in as Const: .npy has no string type) ----
C('StaticRegexReplace', (g) => g.op('StaticRegexReplace', [g.cs(['hello world', 'tfjs inspector', 'aaa'])], { pattern: a.s('[aeiou]'), rewrite: a.s('_'), replace_global: a.b(true) }));
C('StaticRegexReplace.first', (g) => g.op('StaticRegexReplace', [g.cs(['hello world', 'aaa'])], { pattern: a.s('o|a'), rewrite: a.s('0'), replace_global: a.b(false) }));
C('StringNGrams', (g) => g.op('StringNGrams', [g.cs(['a', 'b', 'c', 'd', 'e']), g.ci([0, 3, 5])], { separator: a.s(' '), ngram_widths: a.ints([1, 2]), left_pad: a.s('<'), right_pad: a.s('>'), pad_width: a.i(1), preserve_short_sequences: a.b(false), Tsplits: a.type('int32') }, { n: 2 }));
C('StringSplit', (g) => g.op('StringSplit', [g.cs(['a b c', 'de', '', 'f  g']), g.const('string', [], [' '])], { skip_empty: a.b(true) }, { n: 3 }));
C('StringToHashBucketFast', (g) => g.op('StringToHashBucketFast', [g.cs(['apple', 'banana', '', 'tfjs'])], { num_buckets: a.i(100) }));
// Fingerprint64 mixes 0-16, 17-32 and 33-64 bytes each its own way and loops over longer input;
// UTF-8 bytes count, not characters.
C('StringToHashBucketFast.lengths', (g) => g.op('StringToHashBucketFast', [g.cs(['a', 'abcdefgh', 'été', 'x'.repeat(17), 'text model '.repeat(3), 'y'.repeat(64), 'tokens '.repeat(19), 'z'.repeat(129)])], { num_buckets: a.i(2000000000) }));
C('StringSplit.keep_empty', (g) => g.op('StringSplit', [g.cs(['#a', 'b#', '#c#', '', 'd,e#f']), g.const('string', [], ['#,'])], { skip_empty: a.b(false) }, { n: 3 }));
C('StaticRegexReplace.groups', (g) => g.op('StaticRegexReplace', [g.cs(['ann@example', 'no at sign', 'x@y z@w'])], { pattern: a.s('(\\w+)@(\\w+)'), rewrite: a.s('$2 at $1 ($&)'), replace_global: a.b(true) }));
C('StringNGrams.preserve_short', (g) => g.op('StringNGrams', [g.cs(['a', 'b', 'c', 'd', 'e', 'f']), g.ci([0, 4, 4, 6])], { separator: a.s('|'), ngram_widths: a.ints([3]), left_pad: a.s(''), right_pad: a.s(''), pad_width: a.i(0), preserve_short_sequences: a.b(true), Tsplits: a.type('int32') }, { n: 2 }));
C('StringNGrams.dynamic_pad', (g) => g.op('StringNGrams', [g.cs(['a', 'b', 'c', 'd']), g.ci([0, 0, 1, 4])], { separator: a.s('|'), ngram_widths: a.ints([2, 3]), left_pad: a.s('L'), right_pad: a.s('R'), pad_width: a.i(-1), preserve_short_sequences: a.b(false), Tsplits: a.type('int32') }, { n: 2 }));

// ---- ragged ----
// TF.js's loadGraphModel cannot run these; registered-ops.mjs runs them through tf.registerOp.
const rg = (splits, values, indices, outRank) => (g) =>
  g.op('RaggedGather', [...splits, values, indices], { OUTPUT_RAGGED_RANK: a.i(outRank), PARAMS_RAGGED_RANK: a.i(splits.length), Tindices: a.type('int32'), Tsplits: a.type('int32') }, { n: outRank + 1 });
C('RaggedGather', (g) => rg([g.ci([0, 2, 2, 5])], g.f([5]), g.ci([2, 0]), 1)(g));
C('RaggedGather.repeat_empty_rows', (g) => rg([g.ci([0, 2, 2, 5, 5])], g.f([5]), g.ci([1, 3, 2, 2, 0, 1]), 1)(g));
C('RaggedGather.indices_2d', (g) => rg([g.ci([0, 2, 2, 5])], g.i([5], -9, 9), g.ci([2, 0, 1, 2], [2, 2]), 2)(g));
C('RaggedGather.ragged_rank2', (g) => rg([g.ci([0, 2, 3]), g.ci([0, 2, 2, 5])], g.f([5]), g.ci([1, 0, 1]), 2)(g));
C('RaggedGather.inner_dims', (g) => rg([g.ci([0, 1, 4])], g.f([4, 2, 3]), g.ci([1, 0]), 1)(g));
C('RaggedGather.no_indices', (g) => rg([g.ci([0, 2, 5])], g.f([5]), g.const('int32', [0], []), 1)(g));
const rr = (starts, limits, deltas) => (g) => g.op('RaggedRange', [starts, limits, deltas], { Tsplits: a.type('int32') }, { n: 2 });
C('RaggedRange', (g) => rr(g.ci([0, 5, 8]), g.ci([3, 5, 12]), g.ci([1, 1, 2]))(g));
C('RaggedRange.float', (g) => rr(g.cf([0, 1.5, 3, 2]), g.cf([1, -1, 3.5, 2]), g.cf([0.25, -0.5, 0.2, 1]))(g));
C('RaggedRange.negative_delta', (g) => rr(g.ci([9, 0, 4]), g.ci([0, 3, 4]), g.ci([-2, -1, 3]))(g));
C('RaggedRange.broadcast', (g) => rr(g.si(1), g.ci([4, 0, 7]), g.si(2))(g));
C('RaggedRange.scalars', (g) => rr(g.sf(-1), g.sf(1), g.sf(0.5))(g));
const r2t = (shape, values, dflt, partitions, types) => (g) =>
  g.op('RaggedTensorToTensor', [shape, values, dflt, ...partitions], { row_partition_types: a.strs(types), Tindex: a.type('int32'), Tshape: a.type('int32'), num_row_partition_tensors: a.i(partitions.length) });
C('RaggedTensorToTensor', (g) => r2t(g.ci([3, 4]), g.f([6]), g.sf(-1), [g.ci([0, 3, 3, 6])], ['ROW_SPLITS'])(g));
C('RaggedTensorToTensor.natural_shape', (g) => r2t(g.ci([-1, -1]), g.f([6]), g.sf(0.5), [g.ci([0, 1, 1, 4, 6])], ['ROW_SPLITS'])(g));
C('RaggedTensorToTensor.truncate', (g) => r2t(g.ci([2, 2]), g.f([6]), g.sf(9), [g.ci([0, 3, 3, 6])], ['ROW_SPLITS'])(g));
C('RaggedTensorToTensor.more_rows', (g) => r2t(g.ci([5, -1]), g.i([6], -9, 9), g.si(7), [g.ci([0, 1, 3, 6])], ['ROW_SPLITS'])(g));
C('RaggedTensorToTensor.value_rowids', (g) => r2t(g.ci([-1, -1]), g.f([6]), g.sf(-2), [g.si(5), g.ci([0, 0, 1, 3, 3, 3])], ['FIRST_DIM_SIZE', 'VALUE_ROWIDS'])(g));
C('RaggedTensorToTensor.value_rowids_cut', (g) => r2t(g.ci([3, 2]), g.f([6]), g.sf(0), [g.si(4), g.ci([0, 0, 0, 1, 3, 3])], ['FIRST_DIM_SIZE', 'VALUE_ROWIDS'])(g));
C('RaggedTensorToTensor.ragged_rank2', (g) => r2t(g.ci([-1, -1, -1]), g.f([7]), g.sf(-1), [g.ci([0, 2, 2, 4]), g.ci([0, 3, 3, 4, 7])], ['ROW_SPLITS', 'ROW_SPLITS'])(g));
C('RaggedTensorToTensor.inner_dims', (g) => r2t(g.ci([-1, 3, 2]), g.f([5, 2]), g.sf(-1), [g.ci([0, 2, 2, 5])], ['ROW_SPLITS'])(g));
C('RaggedTensorToTensor.empty_rows', (g) => r2t(g.ci([-1, -1]), g.const('float32', [0], []), g.sf(3), [g.ci([0, 0, 0])], ['ROW_SPLITS'])(g));

// ---- tfdf: TF Decision Forests, resources TF.js makes only with its tfdf package ----
C('SimpleMLCreateModelResource', (g) => g.op('SimpleMLCreateModelResource', [], { container: a.s(''), shared_name: a.s('m') }));
C('SimpleMLLoadModelFromPathWithHandle', (g) => g.op('SimpleMLLoadModelFromPathWithHandle', [g.op('SimpleMLCreateModelResource', []), g.cs(['/nonexistent/'], [])], {}));
C('SimpleMLInferenceOpWithHandle', (g) => g.op('SimpleMLInferenceOpWithHandle', [g.f([1, 2]), g.const('int32', [1, 0], []), g.const('int32', [1, 0], []), g.ci([0]), g.ci([0]), g.const('int32', [0, 2], []), g.op('SimpleMLCreateModelResource', [])], {}, { n: 3 }));
