// Converter ops TF.js 4.22 has kernels for but whose graph-model path cannot reach them, run here
// through tf.registerOp (TF.js's own hook for ops the converter does not execute) so the goldens
// still come from TF.js's kernels (tfjs-core's op, tfjs-backend-cpu's kernel). Why
// tf.loadGraphModel alone refuses them (tfjs-converter 4.22, every bundle of dist/):
//   - RaggedGather, RaggedRange, RaggedTensorToTensor: OperationMapper's list of op lists leaves
//     out op_list/ragged.js, so a node of these ops gets no category and the executor throws
//     "Unknown op". (Were it mapped: RaggedGather's entry reads the splits as inputs [0, -3),
//     one short; row_partition_types is read with getStringArrayParam, which lower-cases it.)
//   - BitwiseAnd: op_list/logical.js names its inputs x and y, logical_executor reads 'a' and
//     'b', so bitwiseAnd gets null ("... must be a Tensor ..., but got 'null'").
// Each executor below reads the node as TF defines the op (inputs in TF's order, attributes by
// their TF names, string attributes in their own case) and calls the TF.js op.

// TF's op -> [tf op used, executor(node, tf)]. `node` is converter's NodeValue: inputs, attrs.
function stringList(node, key) {
  const list = node.node.rawAttrs?.[key]?.list?.s ?? [];
  return list.map((s) => Buffer.from(s, 'base64').toString('utf8'));
}

const executors = {
  BitwiseAnd: ['tf.bitwiseAnd', (node, tf) => tf.bitwiseAnd(node.inputs[0], node.inputs[1])],
  RaggedGather: [
    'tf.raggedGather',
    (node, tf) => {
      const n = node.inputs.length;
      const r = tf.raggedGather(node.inputs.slice(0, n - 2), node.inputs[n - 2], node.inputs[n - 1], node.attrs.OUTPUT_RAGGED_RANK);
      return [...r.outputNestedSplits, r.outputDenseValues];
    },
  ],
  RaggedRange: [
    'tf.raggedRange',
    (node, tf) => {
      const r = tf.raggedRange(node.inputs[0], node.inputs[1], node.inputs[2]);
      return [r.rtNestedSplits, r.rtDenseValues];
    },
  ],
  RaggedTensorToTensor: [
    'tf.raggedTensorToTensor',
    (node, tf) => tf.raggedTensorToTensor(node.inputs[0], node.inputs[1], node.inputs[2], node.inputs.slice(3), stringList(node, 'row_partition_types')),
  ],
};

/** Registers the executors with TF.js's converter; returns op -> how its goldens are made. */
export function registerUnreachableOps(tf) {
  const via = {};
  for (const [op, [fn, exec]] of Object.entries(executors)) {
    tf.registerOp(op, (node) => exec(node, tf));
    via[op] = `tf.registerOp('${op}') -> ${fn} (TF.js 4.22's loadGraphModel cannot run ${op}: tests/ops/gen/registered-ops.mjs)`;
  }
  return via;
}
