// Runs a corpus model on one TF.js backend with its golden inputs and prints, per output, the
// largest difference from the golden (TF.js cpu) outputs against DESIGN.md's tolerance
// 1e-3 * max(1, max |golden|). Tells whether an error seen on our backends is TF.js's own too.
//   node golden-error.mjs GOLDEN_DIR [--backend wasm|cpu] [--out DIR]
// GOLDEN_DIR is REFERENCE/golden/<model> (golden.json names the model file and the .npy files).
// --out writes that backend's outputs as output_K.npy for a closer look.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths, setThreadsCount } from '@tensorflow/tfjs-backend-wasm';
import { fileLoader } from './lib/fsio.mjs';
import { readNpy, writeNpy } from './lib/npy.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

function usage(msg) {
  if (msg) console.error(msg);
  console.error('usage: node golden-error.mjs GOLDEN_DIR [--backend wasm|cpu] [--out DIR]');
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { dir: null, backend: 'wasm', out: null };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--backend' || a === '--out') {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      opts[a.slice(2)] = argv[++i];
    } else if (!opts.dir) {
      opts.dir = a;
    } else {
      usage(`unexpected argument ${a}`);
    }
  }
  if (!opts.dir) usage();
  if (!['cpu', 'wasm'].includes(opts.backend)) usage(`backend ${opts.backend}: cpu or wasm`);
  return opts;
}

async function startBackend(name) {
  if (name === 'wasm') {
    setWasmPaths(path.join(here, 'node_modules', '@tensorflow', 'tfjs-backend-wasm', 'dist') + path.sep);
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
    setThreadsCount(1);
  }
  if (!(await tf.setBackend(name)) || tf.getBackend() !== name) throw new Error(`TF.js backend ${name} did not start`);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const golden = JSON.parse(fs.readFileSync(path.join(opts.dir, 'golden.json'), 'utf8'));
  if (golden.kind !== 'graph') throw new Error(`${opts.dir}: only graph models are handled here`);
  await startBackend(opts.backend);
  const model = await tf.loadGraphModel(fileLoader(golden.model));
  const feed = {};
  for (const inp of golden.inputs) {
    const { values, shape, dtype } = readNpy(path.join(opts.dir, inp.file));
    feed[inp.key ?? inp.name] = tf.tensor(values, shape, dtype);
  }
  const nodes = golden.outputs.map((o) => o.node ?? o.name);
  let outs;
  try {
    outs = [model.execute(feed, nodes)].flat();
  } catch (e) {
    if (!/executeAsync/.test(e.message)) throw e;
    outs = [await model.executeAsync(feed, nodes)].flat();
  }
  if (opts.out) fs.mkdirSync(opts.out, { recursive: true });
  const rows = golden.outputs.map((o, k) => {
    const ref = readNpy(path.join(opts.dir, o.file)).values;
    const got = outs[k].dataSync();
    if (opts.out) writeNpy(path.join(opts.out, `output_${k}.npy`), got, outs[k].shape, outs[k].dtype);
    let maxAbs = 0;
    let maxErr = 0;
    let at = -1;
    for (let i = 0; i < ref.length; ++i) {
      maxAbs = Math.max(maxAbs, Math.abs(ref[i]));
      const e = Math.abs(got[i] - ref[i]);
      if (e > maxErr) (maxErr = e), (at = i);
    }
    const tol = 1e-3 * Math.max(1, maxAbs);
    return { name: o.name, max_error: maxErr, at, tolerance: tol, ratio: maxErr / tol };
  });
  console.log(JSON.stringify({ model: golden.model, backend: opts.backend, outputs: rows }, null, 1));
}

main().catch((e) => {
  console.error(e.stack || String(e));
  process.exit(1);
});
