// A small GraphDef-JSON builder: the model.json + weights that tensorflowjs_converter writes for a
// graph model, made node by node. Cases (cases_*.mjs) use it to build one graph around the op they
// test; make-cases.mjs writes it and runs it in TF.js.
import { hashIndex } from '../../reference/lib/inputs.mjs';

const DT = { float32: 'DT_FLOAT', int32: 'DT_INT32', bool: 'DT_BOOL', string: 'DT_STRING', complex64: 'DT_COMPLEX64' };

// Attribute values as the converter writes them (protobuf JSON: int64 as strings, bytes base64).
const b64 = (text) => Buffer.from(text, 'utf8').toString('base64');
export const a = {
  i: (v) => ({ i: String(v) }),
  f: (v) => ({ f: v }),
  b: (v) => ({ b: v }),
  s: (v) => ({ s: b64(v) }),
  type: (dtype) => ({ type: DT[dtype] }),
  ints: (vs) => ({ list: { i: vs.map(String) } }),
  floats: (vs) => ({ list: { f: vs } }),
  strs: (vs) => ({ list: { s: vs.map(b64) } }),
  types: (ds) => ({ list: { type: ds.map((d) => DT[d]) } }),
  shape: (dims) => ({ shape: dims == null ? { unknownRank: true } : { dim: dims.map((d) => ({ size: String(d) })) } }),
  func: (name) => ({ func: { name } }),
};

const count = (shape) => shape.reduce((x, y) => x * y, 1);

/** Deterministic values for a tensor: floats in [lo, hi), ints in [lo, hi], bools; `seed` varies them. */
export function values(dtype, shape, { lo, hi, seed = 0 } = {}) {
  const n = count(shape);
  const h = (i) => hashIndex(i + 7919 * seed + 1);
  if (dtype === 'float32') {
    const [l, u] = [lo ?? -1, hi ?? 1];
    return Float32Array.from({ length: n }, (_, i) => l + ((u - l) * h(i)) / 4294967296);
  }
  if (dtype === 'int32') {
    const [l, u] = [lo ?? 0, hi ?? 9];
    return Int32Array.from({ length: n }, (_, i) => l + (h(i) % (u - l + 1)));
  }
  if (dtype === 'bool') return Uint8Array.from({ length: n }, (_, i) => h(i) >>> 31);
  if (dtype === 'complex64') return values('float32', [...shape, 2], { lo, hi, seed });
  throw new Error(`no generated values for ${dtype}`);
}

function typed(dtype, vs) {
  if (dtype === 'float32') return Float32Array.from(vs);
  if (dtype === 'int32') return Int32Array.from(vs);
  if (dtype === 'bool') return Uint8Array.from(vs, (v) => (v ? 1 : 0));
  if (dtype === 'string') return vs.map(String);
  if (dtype === 'complex64') return Float32Array.from(vs); // (real, imag) pairs, as TF.js's weights
  throw new Error(`unknown dtype ${dtype}`);
}

// op -> converter entry, set by make-cases.mjs (for Graph.op's T attribute).
let opInfo = new Map();
export function setOpInfo(ops) {
  opInfo = new Map(ops.map((o) => [o.op, o]));
}

export class Graph {
  constructor() {
    this.dtypes = {}; // node name -> dtype of its output 0, where known
    this.nodes = [];
    this.weights = []; // {name, dtype, shape, values}
    this.feeds = []; // {name, dtype, shape, values}
    this.functions = [];
    this.seed = 0;
  }

  #name(base) {
    let name = base;
    for (let k = 1; this.nodes.some((n) => n.name === name); ++k) name = `${base}_${k}`;
    return name;
  }

  /** A node; returns its name ("op:k" refs are plain strings). */
  node(op, inputs = [], attr = {}, name = op) {
    const n = { name: this.#name(name), op, input: inputs, attr };
    this.nodes.push(n);
    return n.name;
  }

  /**
   * A node of the op under test (or a helper op). Where the converter marks the op's T attribute
   * as the inputs' type only (notSupported: TF.js ignores it), T is added as the real converter
   * writes it, from the first input's dtype (float32 when not known); `dtype` names the output's.
   */
  op(op, inputs = [], attr = {}, { n = 1, dtype, name } = {}) {
    const info = opInfo.get(op);
    const t = info?.attrs.find((x) => x.tfName === 'T');
    const full = { ...attr };
    if (t && t.notSupported && !('T' in full) && inputs.length) {
      full.T = a.type(this.dtypes[inputs[0].split(':')[0]] ?? 'float32');
    }
    const node = this.node(op, inputs, full, name ?? op);
    if (dtype) this.dtypes[node] = dtype;
    return n === 1 ? node : this.outs(node, n);
  }

  /** Output refs NAME:0 .. NAME:n-1 of a node. */
  outs(name, n) {
    return Array.from({ length: n }, (_, k) => `${name}:${k}`);
  }

  /** A fed input (Placeholder) with generated values, or `vals` when given. */
  input(dtype, shape, opts = {}) {
    const vs = opts.vals ? typed(dtype, opts.vals) : values(dtype, shape, { ...opts, seed: ++this.seed });
    const name = this.node('Placeholder', [], { dtype: a.type(dtype), shape: a.shape(shape) }, opts.name ?? 'x');
    this.feeds.push({ name, dtype, shape, values: vs });
    this.dtypes[name] = dtype;
    return name;
  }

  f(shape, lo, hi) {
    return this.input('float32', shape, { lo, hi });
  }
  i(shape, lo, hi) {
    return this.input('int32', shape, { lo, hi });
  }
  b(shape) {
    return this.input('bool', shape);
  }

  /** A weight (Const node). `vals` may be a list, or omitted for generated values. */
  const(dtype, shape, vals, opts = {}) {
    const vs = vals != null ? typed(dtype, vals) : values(dtype, shape, { ...opts, seed: ++this.seed });
    if (vs.length !== count(shape) * (dtype === 'complex64' ? 2 : 1)) throw new Error(`const of shape [${shape}] given ${vs.length} values`);
    const name = this.node('Const', [], { value: { tensor: { dtype: DT[dtype], tensorShape: a.shape(shape).shape } }, dtype: a.type(dtype) }, opts.name ?? 'c');
    this.weights.push({ name, dtype, shape, values: vs });
    this.dtypes[name] = dtype;
    return name;
  }
  ci(vals, shape = [vals.length]) {
    return this.const('int32', shape, vals);
  }
  cf(vals, shape = [vals.length]) {
    return this.const('float32', shape, vals);
  }
  /** A scalar int32 / float32 const. */
  si(v) {
    return this.const('int32', [], [v]);
  }
  sf(v) {
    return this.const('float32', [], [v]);
  }
  cs(vals, shape = [vals.length]) {
    return this.const('string', shape, vals);
  }

  /** A library function: args [{name, dtype}], body(g) adds nodes to a sub-builder and returns {outName: ref}. */
  fn(name, args, outTypes, body) {
    const sub = new Graph();
    const ret = body(sub, ...args.map((x) => x.name));
    this.functions.push({
      signature: {
        name,
        inputArg: args.map((x) => ({ name: x.name, type: DT[x.dtype] })),
        outputArg: Object.keys(ret).map((k, i) => ({ name: k, type: DT[outTypes[i]] })),
      },
      nodeDef: sub.nodes,
      ret,
    });
    if (sub.weights.length || sub.feeds.length) throw new Error(`function ${name}: no consts or inputs inside`);
    return name;
  }

  /** model.json (as an object) and the one weights shard, as the converter writes them. */
  bundle() {
    const chunks = [];
    const specs = [];
    for (const w of this.weights) {
      specs.push({ name: w.name, shape: w.shape, dtype: w.dtype });
      if (w.dtype === 'string') {
        for (const s of w.values) {
          const bytes = Buffer.from(s, 'utf8');
          const len = Buffer.alloc(4);
          len.writeUInt32LE(bytes.length, 0);
          chunks.push(len, bytes);
        }
      } else if (w.dtype === 'bool') {
        chunks.push(Buffer.from(w.values));
      } else {
        chunks.push(Buffer.from(w.values.buffer, w.values.byteOffset, w.values.byteLength));
      }
    }
    const topology = { node: this.nodes, library: {}, versions: { producer: 1395 } };
    if (this.functions.length) topology.library = { function: this.functions };
    const json = {
      format: 'graph-model',
      generatedBy: '2.18.0',
      convertedBy: 'tfjs-inspector tests/ops/gen',
      modelTopology: topology,
      weightsManifest: [{ paths: ['weights.bin'], weights: specs }],
    };
    return { json, bin: Buffer.concat(chunks) };
  }
}
