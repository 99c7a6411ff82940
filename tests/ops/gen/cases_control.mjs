// Cases of the converter's control (TF1 frames, functional While/If, TensorArray, TensorList) and
// hash_table ops. These cannot stand alone: each case is the smallest graph around its op.
import { C } from './case.mjs';
import { a } from './graph.mjs';

const F = a.type('float32');
const I = a.type('int32');

// A TF1 while loop: i from 0 while i < 4: x = x * 1.5 + i. Outputs x and i after the loop.
function tf1Loop(g) {
  const frame = { frame_name: a.s('loop'), is_constant: a.b(false), parallel_iterations: a.i(10) };
  const konst = { frame_name: a.s('loop'), is_constant: a.b(true), parallel_iterations: a.i(10) };
  const x0 = g.f([3]);
  const i0 = g.si(0);
  const ei = g.node('Enter', [i0], { T: I, ...frame }, 'enter_i');
  const ex = g.node('Enter', [x0], { T: F, ...frame }, 'enter_x');
  const en = g.node('Enter', [g.si(4)], { T: I, ...konst }, 'enter_n');
  const eone = g.node('Enter', [g.si(1)], { T: I, ...konst }, 'enter_one');
  const ek = g.node('Enter', [g.sf(1.5)], { T: F, ...konst }, 'enter_k');
  const mi = g.node('Merge', [ei, 'next_i'], { T: I, N: a.i(2) }, 'merge_i');
  const mx = g.node('Merge', [ex, 'next_x'], { T: F, N: a.i(2) }, 'merge_x');
  const cond = g.node('LoopCond', [g.node('Less', [mi, en], { T: I })]);
  const si = g.node('Switch', [mi, cond], { T: I }, 'switch_i');
  const sx = g.node('Switch', [mx, cond], { T: F }, 'switch_x');
  const bi = g.node('Identity', [`${si}:1`], { T: I }, 'body_i');
  const bx = g.node('Identity', [`${sx}:1`], { T: F }, 'body_x');
  const fi = g.node('Cast', [bi], { SrcT: I, DstT: F });
  const nx = g.node('AddV2', [g.node('Mul', [bx, ek], { T: F }), fi], { T: F });
  const ni = g.node('AddV2', [bi, eone], { T: I });
  g.node('NextIteration', [ni], { T: I }, 'next_i');
  g.node('NextIteration', [nx], { T: F }, 'next_x');
  return [g.node('Exit', [sx], { T: F }, 'exit_x'), g.node('Exit', [si], { T: I }, 'exit_i')];
}
const tf1 = ['Enter', 'Exit', 'Merge', 'Switch', 'NextIteration', 'LoopCond'];
C('LoopCond.tf1_while', tf1Loop, { also: tf1 });
// A TF1 cond: pred ? -x : x * 2, through Switch and Merge.
C('Switch.tf1_cond', (g) => {
  const x = g.f([4]);
  const p = g.input('bool', [], { vals: [1], name: 'pred' });
  const sw = g.node('Switch', [x, p], { T: F });
  const f = g.node('Mul', [`${sw}:0`, g.sf(2)], { T: F });
  const t = g.node('Neg', [`${sw}:1`], { T: F });
  return g.node('Merge', [f, t], { T: F, N: a.i(2) }, 'merge');
}, { also: ['Merge'] });
C('Merge.false_branch', (g) => {
  const x = g.f([4]);
  const p = g.input('bool', [], { vals: [0], name: 'pred' });
  const sw = g.node('Switch', [x, p], { T: F });
  const f = g.node('Mul', [`${sw}:0`, g.sf(2)], { T: F });
  const t = g.node('Neg', [`${sw}:1`], { T: F });
  return g.op('Merge', [f, t], { T: F, N: a.i(2) });
}, { also: ['Switch'] });

// ---- functional control flow: While and If with library functions (no Const inside them) ----
for (const op of ['While', 'StatelessWhile']) {
  C(op, (g) => {
    const args = [{ name: 'i', dtype: 'int32' }, { name: 'n', dtype: 'int32' }, { name: 'one', dtype: 'int32' }, { name: 'x', dtype: 'float32' }];
    const cond = g.fn(`${op}_cond`, args, ['bool'], (s, i, n) => ({ out: `${s.node('Less', [i, n], { T: I })}:z:0` }));
    const body = g.fn(`${op}_body`, args, ['int32', 'int32', 'int32', 'float32'], (s, i, n, one, x) => ({
      i_next: `${s.node('AddV2', [i, one], { T: I })}:z:0`,
      n_out: `${s.node('Identity', [n], { T: I }, 'n_id')}:output:0`,
      one_out: `${s.node('Identity', [one], { T: I }, 'one_id')}:output:0`,
      x_next: `${s.node('Mul', [x, x], { T: F })}:z:0`,
    }));
    return g.op(op, [g.si(0), g.si(3), g.si(1), g.f([4], 0.5, 1.2)], { T: a.types(['int32', 'int32', 'int32', 'float32']), cond: a.func(cond), body: a.func(body), parallel_iterations: a.i(10) }, { n: 4 }).slice(3);
  });
}
for (const op of ['If', 'StatelessIf']) {
  for (const [variant, pred] of [['then', 1], ['else', 0]]) {
    C(`${op}.${variant}`, (g) => {
      const args = [{ name: 'x', dtype: 'float32' }, { name: 'y', dtype: 'float32' }];
      const then = g.fn(`${op}_${variant}_then`, args, ['float32'], (s, x, y) => ({ out: `${s.node('AddV2', [x, y], { T: F })}:z:0` }));
      const other = g.fn(`${op}_${variant}_else`, args, ['float32'], (s, x, y) => ({ out: `${s.node('Mul', [x, y], { T: F })}:z:0` }));
      const p = g.input('bool', [], { vals: [pred], name: 'pred' });
      return g.op(op, [p, g.f([3]), g.f([3])], { Tcond: a.type('bool'), Tin: a.types(['float32', 'float32']), Tout: a.types(['float32']), then_branch: a.func(then), else_branch: a.func(other) });
    });
  }
}

// ---- TensorArray ----
const ta = (g, size, shape = [2]) =>
  g.op('TensorArrayV3', [g.si(size)], { dtype: F, element_shape: a.shape(shape), dynamic_size: a.b(false), clear_after_read: a.b(true), identical_element_shapes: a.b(true), tensor_array_name: a.s('') }, { n: 2 });
const scatter = (g, [h, flow], value, indices) => g.op('TensorArrayScatterV3', [h, g.ci(indices), value, flow], { T: F });
C('TensorArrayV3.scatter_gather', (g) => {
  const t = ta(g, 3);
  const flow = scatter(g, t, g.f([3, 2]), [0, 1, 2]);
  return g.op('TensorArrayGatherV3', [t[0], g.ci([2, 0]), flow], { dtype: F, element_shape: a.shape([2]) });
}, { also: ['TensorArrayScatterV3', 'TensorArrayGatherV3'] });
C('TensorArrayWriteV3', (g) => {
  const [h, flow] = ta(g, 2);
  const f1 = g.op('TensorArrayWriteV3', [h, g.si(0), g.f([2]), flow], { T: F });
  const f2 = g.op('TensorArrayWriteV3', [h, g.si(1), g.f([2]), f1], { T: F });
  return g.op('TensorArrayReadV3', [h, g.si(1), f2], { dtype: F });
}, { also: ['TensorArrayReadV3'] });
C('TensorArrayConcatV3', (g) => {
  const t = ta(g, 3);
  const flow = scatter(g, t, g.f([3, 2]), [0, 1, 2]);
  return g.op('TensorArrayConcatV3', [t[0], flow], { dtype: F, element_shape_except0: a.shape([]) }, { n: 2 })[0];
});
C('TensorArraySplitV3', (g) => {
  const [h, flow] = ta(g, 2, [3]);
  const f = g.op('TensorArraySplitV3', [h, g.f([6]), g.ci([3, 3]), flow], { T: F });
  return g.op('TensorArrayReadV3', [h, g.si(1), f], { dtype: F });
});
C('TensorArraySizeV3', (g) => {
  const t = ta(g, 4);
  const flow = scatter(g, t, g.f([2, 2]), [0, 3]);
  return g.op('TensorArraySizeV3', [t[0], flow]);
});
C('TensorArrayCloseV3', (g) => {
  const t = ta(g, 2);
  const flow = scatter(g, t, g.f([2, 2]), [0, 1]);
  // TF.js frees the array's tensors on close: what is read must be used before.
  const neg = g.op('Neg', [g.op('TensorArrayReadV3', [t[0], g.si(0), flow], { dtype: F })]);
  const close = g.op('TensorArrayCloseV3', [t[0], `^${neg}`]);
  return g.node('Identity', [neg, `^${close}`], { T: F }, 'after_close');
});

// ---- TensorList ----
const el = { element_dtype: F, shape_type: I };
const reserve = (g, n, shape = [2]) => g.op('TensorListReserve', [g.ci(shape), g.si(n)], el);
const stack = (g, list, n = -1, shape = [2]) => g.op('TensorListStack', [list, g.ci(shape)], { element_dtype: F, num_elements: a.i(n) });
C('TensorListReserve.set_stack', (g) => {
  let l = reserve(g, 3);
  l = g.op('TensorListSetItem', [l, g.si(2), g.f([2])], { element_dtype: F });
  l = g.op('TensorListSetItem', [l, g.si(0), g.f([2])], { element_dtype: F });
  l = g.op('TensorListSetItem', [l, g.si(1), g.f([2])], { element_dtype: F });
  return stack(g, l, 3);
}, { also: ['TensorListSetItem', 'TensorListStack'] });
C('TensorListFromTensor.get_item', (g) => {
  const l = g.op('TensorListFromTensor', [g.f([3, 2]), g.ci([2])], el);
  return g.op('TensorListGetItem', [l, g.si(1), g.ci([2])], { element_dtype: F });
}, { also: ['TensorListGetItem'] });
C('TensorListGather', (g) => {
  const l = g.op('TensorListFromTensor', [g.f([4, 2]), g.ci([2])], el);
  return g.op('TensorListGather', [l, g.ci([3, 0, 3]), g.ci([2])], { element_dtype: F });
});
C('TensorListScatter', (g) => {
  const l = g.op('TensorListScatter', [g.f([2, 2]), g.ci([1, 0]), g.ci([2])], el);
  return stack(g, l);
});
C('TensorListScatterV2', (g) => {
  const l = g.op('TensorListScatterV2', [g.f([2, 2]), g.ci([2, 0]), g.ci([2]), g.si(3)], el);
  return g.op('TensorListGetItem', [l, g.si(2), g.ci([2])], { element_dtype: F });
});
C('TensorListSplit', (g) => {
  // Element shape -1: unknown (TF.js merges it with the tensor's shape past the first dim).
  const l = g.op('TensorListSplit', [g.f([5, 2]), g.si(-1), g.ci([2, 3])], { element_dtype: F, shape_type: I, lengths_type: I });
  return g.op('TensorListGetItem', [l, g.si(1), g.si(-1)], { element_dtype: F });
});
// TF's TensorListConcat takes the list alone (element_shape an attribute); V2 adds the shape and
// leading dims as inputs.
C('TensorListConcat', (g) => {
  const l = g.op('TensorListFromTensor', [g.f([3, 2, 2]), g.ci([2, 2])], el);
  return g.op('TensorListConcat', [l], { element_dtype: F, element_shape: a.shape([-1, 2]) }, { n: 2 })[0];
});
C('TensorListConcatV2', (g) => {
  const l = g.op('TensorListFromTensor', [g.f([3, 2, 2]), g.ci([2, 2])], el);
  return g.op('TensorListConcatV2', [l, g.ci([-1, 2]), g.const('int32', [0], [])], { element_dtype: F, element_shape: a.shape([-1, 2]), shape_type: I }, { n: 2 })[0];
});
C('TensorListPopBack', (g) => {
  const l = g.op('TensorListFromTensor', [g.f([3, 2]), g.ci([2])], el);
  // TF's outputs: the shorter list, then the element.
  const [rest, item] = g.op('TensorListPopBack', [l, g.ci([2])], { element_dtype: F }, { n: 2 });
  return [item, stack(g, rest)];
});
C('TensorListPushBack', (g) => {
  const l = g.op('TensorListFromTensor', [g.f([2, 2]), g.ci([2])], el);
  return stack(g, g.op('TensorListPushBack', [l, g.f([2])], { element_dtype: F }));
});
// Not after TensorListReserve: TF.js's reserved list is empty (length 0) where TF's has the
// reserved length; we follow TF there (see tests/ops/README.md).
C('TensorListLength', (g) => g.op('TensorListLength', [g.op('TensorListFromTensor', [g.f([4, 2]), g.ci([2])], el)]));
C('TensorListResize', (g) => {
  const l = g.op('TensorListFromTensor', [g.f([3, 2]), g.ci([2])], el);
  return g.op('TensorListLength', [g.op('TensorListResize', [l, g.si(5)])]);
});
C('EmptyTensorList', (g) => {
  let l = g.op('EmptyTensorList', [g.ci([2]), g.si(4)], el);
  l = g.op('TensorListPushBack', [l, g.f([2])], { element_dtype: F });
  l = g.op('TensorListPushBack', [l, g.f([2])], { element_dtype: F });
  return stack(g, l);
});

// ---- hash tables: int32 keys to float values; lookups wait for the initializer ----
for (const v of ['', 'V2']) {
  const table = (g) => g.op(`HashTable${v}`, [], { key_dtype: I, value_dtype: F, shared_name: a.s(''), use_node_name_sharing: a.b(false) });
  const init = (g, h, op = `InitializeTable${v}`) => g.op(op, [h, g.ci([3, 7, 11, 20]), g.cf([0.5, -1, 2.5, 4])], { Tkey: I, Tval: F, Tin: I, Tout: F });
  C(`LookupTableFind${v}`, (g) => {
    const h = table(g);
    const i = init(g, h);
    return g.op(`LookupTableFind${v}`, [h, g.i([6], 0, 21), g.sf(-9), `^${i}`], { Tin: I, Tout: F });
  }, { also: [`HashTable${v}`, `InitializeTable${v}`] });
  C(`LookupTableFind${v}.hits`, (g) => {
    const h = table(g);
    const i = init(g, h);
    return g.op(`LookupTableFind${v}`, [h, g.ci([20, 3, 5, 11]), g.sf(0), `^${i}`], { Tin: I, Tout: F });
  });
  C(`LookupTableImport${v}`, (g) => {
    const h = table(g);
    const i = init(g, h, `LookupTableImport${v}`);
    return g.op(`LookupTableFind${v}`, [h, g.ci([7, 8]), g.sf(-1), `^${i}`], { Tin: I, Tout: F });
  });
  C(`LookupTableSize${v}`, (g) => {
    const h = table(g);
    const i = init(g, h);
    return g.op(`LookupTableSize${v}`, [h, `^${i}`]);
  });
}
// A vocabulary: string keys to int32 ids (what text models look tokens up in), keys given twice
// (the last value wins), a token not in it gets the default id.
C('LookupTableFindV2.strings', (g) => {
  const h = g.op('HashTableV2', [], { key_dtype: a.type('string'), value_dtype: I, shared_name: a.s(''), use_node_name_sharing: a.b(false) });
  const i = g.op('InitializeTableV2', [h, g.cs(['the', 'cat', 'sat', '', 'été', 'cat']), g.ci([0, 1, 2, 3, 4, 5])], { Tkey: a.type('string'), Tval: I });
  return g.op('LookupTableFindV2', [h, g.cs(['cat', 'dog', '', 'été', 'the', 'ete']), g.si(-1), `^${i}`], { Tin: a.type('string'), Tout: I });
});
