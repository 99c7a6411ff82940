// Runs one bundle in real TF.js (cpu backend) on given .npy inputs and writes its outputs as .npy:
// the oracle for bundles tfjsi writes (tests/cli/quantize_tfjs_test.cpp).
//   node tfjs_run_bundle.mjs REFERENCE_PKG MODEL_JSON graph|layers OUT_DIR KEY=INPUT.npy...
// REFERENCE_PKG is tests/reference, whose node_modules holds @tensorflow/tfjs 4.22 (this file
// lives outside it so that the reference data's hash does not change with it). Inputs are given
// in TF.js's model.inputs order; KEY is the signature key a graph model is fed by. Outputs are
// written as output_K.npy in model.outputNodes order (graph) or the output layers' order (layers),
// with OUT_DIR/outputs.json listing them.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const [pkg, modelJson, kind, outDir, ...feeds] = process.argv.slice(2);
if (!feeds.length || !['graph', 'layers'].includes(kind)) {
  console.error('usage: node tfjs_run_bundle.mjs REFERENCE_PKG MODEL_JSON graph|layers OUT_DIR KEY=INPUT.npy...');
  process.exit(2);
}
const require = createRequire(path.join(path.resolve(pkg), 'package.json'));
const tf = require('@tensorflow/tfjs');
const { encodeNpy } = await import(pathToFileURL(path.join(path.resolve(pkg), 'lib', 'npy.mjs')).href);

function readNpy(file) {
  const b = fs.readFileSync(file);
  const hlen = b.readUInt16LE(8);
  const header = b.toString('latin1', 10, 10 + hlen);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',').map((s) => s.trim()).filter(Boolean).map(Number);
  const body = b.subarray(10 + hlen);
  const bytes = body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength);
  if (descr === '<f4') return tf.tensor(new Float32Array(bytes), shape, 'float32');
  if (descr === '<i4') return tf.tensor(new Int32Array(bytes), shape, 'int32');
  throw new Error(`${file}: dtype ${descr} is not handled here`);
}

function loader(file) {
  const dir = path.dirname(file);
  return {
    async load() {
      const json = JSON.parse(fs.readFileSync(file, 'utf8'));
      return tf.io.getModelArtifactsForJSON(json, async (manifest) => {
        const specs = [];
        const shards = [];
        for (const group of manifest) {
          for (const p of group.paths) shards.push(fs.readFileSync(path.join(dir, p)));
          specs.push(...group.weights);
        }
        const all = Buffer.concat(shards);
        return [specs, all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength)];
      });
    },
  };
}

await tf.setBackend('cpu');
const inputs = feeds.map((f) => {
  const eq = f.indexOf('=');
  return { key: f.slice(0, eq), tensor: readNpy(f.slice(eq + 1)) };
});
let outputs;
if (kind === 'graph') {
  const model = await tf.loadGraphModel(loader(modelJson));
  const feed = Object.fromEntries(inputs.map((i) => [i.key, i.tensor]));
  try {
    outputs = [model.execute(feed, model.outputNodes)].flat();
  } catch (e) {
    if (!/executeAsync/.test(e.message)) throw e;
    outputs = [await model.executeAsync(feed, model.outputNodes)].flat();
  }
} else {
  const model = await tf.loadLayersModel(loader(modelJson));
  const xs = inputs.map((i) => i.tensor);
  outputs = [model.predict(xs.length === 1 ? xs[0] : xs)].flat();
}
fs.mkdirSync(outDir, { recursive: true });
const list = outputs.map((t, k) => {
  const file = `output_${k}.npy`;
  fs.writeFileSync(path.join(outDir, file), encodeNpy(t.dataSync(), t.shape, t.dtype));
  return { file, shape: t.shape, dtype: t.dtype };
});
fs.writeFileSync(path.join(outDir, 'outputs.json'), JSON.stringify(list));
