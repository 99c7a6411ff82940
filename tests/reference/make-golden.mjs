// Runs every model of the reference set in TF.js (cpu backend) on the deterministic inputs and
// writes OUT/golden/<model>/{input_K.npy, output_K.npy, golden.json}.
//   node make-golden.mjs OUT CORPUS_DIR CORPUS_CMAKE
// Corpus models are the graph models CORPUS_DIR/<name>.json named in CORPUS_CMAKE; layers models
// are the folders of OUT/layers. A corpus model TF.js cannot run gets golden.json {model, error}.
import fs from 'node:fs';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { fileLoader } from './lib/fsio.mjs';
import { inputSpecs, loadOverrides } from './lib/inputs.mjs';
import { writeNpy } from './lib/npy.mjs';

const TFJS_VERSION = tf.version.tfjs;

function corpusNames(cmakeFile) {
  const text = fs.readFileSync(cmakeFile, 'utf8');
  const m = /set\(TFJSI_CORPUS_MODELS([^)]*)\)/.exec(text);
  if (!m) throw new Error(`${cmakeFile}: no set(TFJSI_CORPUS_MODELS ...)`);
  return m[1].split(/\s+/).filter(Boolean);
}

/** Graph models with control flow or dynamic ops refuse execute(); those need executeAsync(). */
async function runGraph(model, feed) {
  const names = model.outputNodes;
  try {
    return { mode: 'execute', outputs: [model.execute(feed, names)].flat() };
  } catch (e) {
    if (!/executeAsync/.test(e.message)) throw e;
  }
  return { mode: 'executeAsync', outputs: [await model.executeAsync(feed, names)].flat() };
}

/** Indented JSON with number arrays (shapes) kept on one line. */
function formatJson(value) {
  const text = JSON.stringify(value, null, 1);
  return text.replace(/\[[-\d.,\s]*\]/g, (m) => `[${m.slice(1, -1).split(',').map((x) => x.trim()).filter(Boolean).join(', ')}]`) + '\n';
}

function writeTensors(dir, prefix, tensors, names) {
  return tensors.map((t, k) => {
    if (!['float32', 'int32', 'bool'].includes(t.dtype)) {
      throw new Error(`${names[k]}: dtype ${t.dtype} has no .npy mapping here`);
    }
    const values = t.dataSync();
    const file = `${prefix}_${k}.npy`;
    writeNpy(path.join(dir, file), values, t.shape, t.dtype);
    let nonFinite = 0;
    if (t.dtype === 'float32') for (const v of values) if (!Number.isFinite(v)) ++nonFinite;
    const entry = { name: names[k], file, shape: t.shape, dtype: t.dtype };
    if (nonFinite) entry.non_finite = nonFinite;
    return entry;
  });
}

async function goldenFor(name, kind, modelPath, modelRef, outDir, overrides) {
  const dir = path.join(outDir, 'golden', name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const modelJson = JSON.parse(fs.readFileSync(modelPath, 'utf8'));
  const model = kind === 'graph' ? await tf.loadGraphModel(fileLoader(modelPath)) : await tf.loadLayersModel(fileLoader(modelPath));
  const specs = inputSpecs(model, kind, modelJson, overrides);
  const inputs = specs.map((s) => tf.tensor(s.values, s.shape, s.dtype));
  const t0 = performance.now();
  let mode;
  let outputs;
  let outNames;
  if (kind === 'graph') {
    const feed = Object.fromEntries(specs.map((s, k) => [s.key, inputs[k]]));
    ({ mode, outputs } = await runGraph(model, feed));
    outNames = model.outputNodes;
  } else {
    mode = 'predict';
    outputs = [model.predict(inputs.length === 1 ? inputs[0] : inputs)].flat();
    // model.outputNames, which a Sequential fills only once it has run: the output layers' names.
    outNames = model.outputs.map((t) => t.sourceLayer.name);
  }
  const ms = performance.now() - t0;
  const inputEntries = writeTensors(dir, 'input', inputs, specs.map((s) => s.name));
  inputEntries.forEach((e, k) => {
    if (specs[k].key !== specs[k].name) e.key = specs[k].key;
    e.generator = specs[k].override && 'value' in specs[k].override ? `constant ${specs[k].override.value}` : 'deterministic';
  });
  const outputEntries = writeTensors(dir, 'output', outputs, outNames);
  if (kind === 'graph') {
    // The graph tensor behind each output, for tools that name outputs by node rather than by
    // signature key.
    const nodes = model.executor?.graph?.outputs ?? [];
    outputEntries.forEach((e, k) => {
      const node = nodes[k];
      if (node) e.node = `${node.name}:${node.defaultOutput ?? 0}`;
    });
  }
  const golden = {
    model: modelRef,
    kind,
    inputs: inputEntries,
    outputs: outputEntries,
    backend: tf.getBackend(),
    tfjs: TFJS_VERSION,
    execute: mode,
  };
  fs.writeFileSync(path.join(dir, 'golden.json'), formatJson(golden));
  tf.dispose([...inputs, ...outputs]);
  model.dispose();
  const bad = outputEntries.filter((e) => e.non_finite);
  console.error(
    `make-golden: ${name} ${mode} ${ms.toFixed(0)} ms` + (bad.length ? ` (non-finite values in ${bad.map((e) => e.name)})` : ''),
  );
}

async function main() {
  const [outDir, corpusDir, corpusCmake] = process.argv.slice(2);
  if (!outDir || !corpusDir || !corpusCmake) throw new Error('usage: node make-golden.mjs OUT CORPUS_DIR CORPUS_CMAKE');
  await tf.setBackend('cpu');
  if (tf.getBackend() !== 'cpu') throw new Error('TF.js cpu backend did not start');
  const overrides = loadOverrides();
  const failed = [];

  const layersRoot = path.join(outDir, 'layers');
  for (const name of fs.readdirSync(layersRoot).sort()) {
    // Our own models must run: any error here is fatal.
    await goldenFor(name, 'layers', path.join(layersRoot, name, 'model.json'), `layers/${name}/model.json`, outDir, overrides[name]);
  }

  for (const name of corpusNames(corpusCmake)) {
    const modelPath = path.resolve(corpusDir, `${name}.json`);
    if (!fs.existsSync(modelPath)) throw new Error(`corpus model ${modelPath} is missing`);
    try {
      await goldenFor(name, 'graph', modelPath, modelPath, outDir, overrides[name]);
    } catch (e) {
      // Recorded, not hidden: the C++ tests read this and report the model as unrunnable in TF.js.
      const dir = path.join(outDir, 'golden', name);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'golden.json'), formatJson({ model: modelPath, kind: 'graph', error: String(e.message ?? e), backend: 'cpu', tfjs: TFJS_VERSION }));
      failed.push(name);
      console.error(`make-golden: ${name} FAILED in TF.js: ${e.message}`);
    }
  }
  if (failed.length) console.error(`make-golden: TF.js could not run: ${failed.join(' ')}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
