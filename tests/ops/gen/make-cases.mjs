// Writes the op conformance suite: for every case of cases_*.mjs, a graph model (model.json +
// weights.bin, what tf.loadGraphModel loads) and what real TF.js 4.22 (cpu backend) computes
// from it, into OUT/cases/<case>/, and OUT/index.json listing every converter op with its cases.
//   node tests/ops/gen/make-cases.mjs OUT
// It fails when a converter op (op-list.mjs, read from node_modules) has no case. A case TF.js
// refuses (it throws loading or running it) is kept, with TF.js's message, as {"refused": ...}.
//
// OUT/cases/<case>/golden.json:
//   {"case", "op", "model": "model.json", "execute": "execute"|"executeAsync", "tfjs",
//    "inputs":  [{"name", "file", "shape", "dtype"}],           (Placeholders, fed by name)
//    "outputs": [{"name", "file", "shape", "dtype"}]}            (node or node:K, .npy)
//   strings go inline as "values" (no .npy); a refused case: {"case", "op", "refused", "tfjs"}.
//   "via": how TF.js ran an op its loadGraphModel cannot (registered-ops.mjs).
//   "check": {"uniform": [lo, hi]}: TF.js draws without a seed, so its values are one sample of
//   the distribution and the C++ suite checks ours (and TF.js's) against the distribution.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileLoader } from '../../reference/lib/fsio.mjs';
import { writeNpy } from '../../reference/lib/npy.mjs';
import { cases } from './case.mjs';
import { Graph, setOpInfo } from './graph.mjs';
import { converterOps, converterVersion, referenceDir } from './op-list.mjs';
import { registerUnreachableOps } from './registered-ops.mjs';
import './cases_math.mjs';
import './cases_nn.mjs';
import './cases_array.mjs';
import './cases_control.mjs';

const require = createRequire(path.join(referenceDir, 'package.json'));
const tf = require('@tensorflow/tfjs');
// op -> how TF.js runs it when its loadGraphModel path cannot (registered-ops.mjs).
const via = registerUnreachableOps(tf);

function formatJson(value) {
  const text = JSON.stringify(value, null, 1);
  return text.replace(/\[[-\d.,\s]*\]/g, (m) => `[${m.slice(1, -1).split(',').map((x) => x.trim()).filter(Boolean).join(', ')}]`) + '\n';
}

async function run(model, feed, names) {
  try {
    return { mode: 'execute', outputs: [model.execute(feed, names)].flat() };
  } catch (e) {
    if (!/executeAsync/.test(e.message)) throw e;
  }
  return { mode: 'executeAsync', outputs: [await model.executeAsync(feed, names)].flat() };
}

async function makeCase(c, dir) {
  const g = new Graph();
  const outNames = [c.build(g)].flat();
  const { json, bin } = g.bundle();
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'model.json'), JSON.stringify(json, null, 1));
  fs.writeFileSync(path.join(dir, 'weights.bin'), bin);
  const base = { case: c.name, op: c.op, model: 'model.json', tfjs: tf.version.tfjs, ...(via[c.op] ? { via: via[c.op] } : {}) };
  let model;
  const inputs = g.feeds.map((f) => tf.tensor(f.values, f.shape, f.dtype));
  try {
    model = await tf.loadGraphModel(fileLoader(path.join(dir, 'model.json')));
    const feed = Object.fromEntries(g.feeds.map((f, k) => [f.name, inputs[k]]));
    const { mode, outputs } = await run(model, feed, outNames);
    const golden = { ...base, execute: mode, ...(c.check ? { check: c.check } : {}), inputs: [], outputs: [] };
    g.feeds.forEach((f, k) => {
      const file = `input_${k}.npy`;
      writeNpy(path.join(dir, file), f.values, f.shape, f.dtype);
      golden.inputs.push({ name: f.name, file, shape: f.shape, dtype: f.dtype });
    });
    outputs.forEach((t, k) => {
      const entry = { name: outNames[k], shape: t.shape, dtype: t.dtype };
      if (t.dtype === 'string') {
        // TF.js holds strings as bytes; they are UTF-8 text in every case here.
        entry.values = t.dataSync().map((s) => (typeof s === 'string' ? s : Buffer.from(s).toString('utf8')));
      } else if (['float32', 'int32', 'bool'].includes(t.dtype)) {
        entry.file = `output_${k}.npy`;
        const data = t.dataSync();
        if (data.length !== t.size) throw new Error(`TF.js computed ${data.length} values for its own output shape [${t.shape}]`);
        writeNpy(path.join(dir, entry.file), data, t.shape, t.dtype);
      } else {
        throw new Error(`output ${outNames[k]} has dtype ${t.dtype}, which the suite cannot store`);
      }
      golden.outputs.push(entry);
    });
    fs.writeFileSync(path.join(dir, 'golden.json'), formatJson(golden));
    tf.dispose(outputs);
    return null;
  } catch (e) {
    const msg = String(e.message ?? e).split('\n')[0];
    fs.writeFileSync(path.join(dir, 'golden.json'), formatJson({ ...base, refused: msg }));
    return msg;
  } finally {
    tf.dispose(inputs);
    model?.dispose();
  }
}

// TF.js lets some errors of async kernels escape as unhandled rejections (TensorList ops); the
// case they belong to has failed already and is recorded with its own error.
process.on('unhandledRejection', (e) => console.error(`make-cases: TF.js left an unhandled error: ${e?.message ?? e}`));

async function main() {
  const [out, flag] = process.argv.slice(2);
  if (!out) throw new Error('usage: node make-cases.mjs OUT [--dry]');
  const dry = flag === '--dry'; // build every graph, run none (checks the case list only)
  await tf.setBackend('cpu');
  if (tf.getBackend() !== 'cpu') throw new Error('TF.js cpu backend did not start');
  const ops = converterOps();
  setOpInfo(ops);

  // Every converter op is the op or an `also` of some case.
  const covered = new Set(cases.flatMap((c) => [c.op, ...c.also]));
  const missing = ops.map((o) => o.op).filter((op) => !covered.has(op));
  if (missing.length) throw new Error(`no case for converter op(s): ${missing.join(' ')} (add them to tests/ops/gen/cases_*.mjs)`);
  const unknown = cases.filter((c) => !ops.some((o) => o.op === c.op)).map((c) => c.name);
  if (unknown.length) throw new Error(`cases of ops the converter does not map: ${unknown.join(' ')}`);

  // TF.js logs its own notices (Print's output among them) on stdout: send them to stderr.
  console.log = (...args) => console.error(...args);
  const index = { tfjs: tf.version.tfjs, converter: converterVersion(), ops: [], cases: [] };
  const refused = [];
  if (dry) {
    for (const c of cases) {
      const g = new Graph();
      c.build(g);
      g.bundle();
    }
    console.error(`make-cases: ${cases.length} cases for ${ops.length} ops built (dry run)`);
    return;
  }
  for (const c of cases) {
    const msg = await makeCase(c, path.join(out, 'cases', c.name));
    index.cases.push({ name: c.name, op: c.op, also: c.also, ...(msg ? { refused: msg } : {}) });
    if (msg) refused.push(`${c.name}: ${msg}`);
  }
  for (const o of ops) {
    index.ops.push({ op: o.op, category: o.category, cases: cases.filter((c) => c.op === o.op || c.also.includes(o.op)).map((c) => c.name) });
  }
  fs.writeFileSync(path.join(out, 'index.json'), formatJson(index));
  console.error(`make-cases: ${cases.length} cases for ${ops.length} ops; TF.js refused ${refused.length}:`);
  for (const r of refused) console.error(`  ${r}`);
}

main().catch((e) => {
  console.error(e.stack ?? String(e));
  process.exit(1);
});
