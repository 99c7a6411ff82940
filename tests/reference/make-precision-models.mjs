// Builds the three fp16 test models of the precision checker with real tfjs-layers and saves
// them to OUT/layers/<name>/ (make-golden.mjs then writes their golden data like any layers
// model). For each it also writes OUT/precision/<name>.json: every layer's output range as TF.js
// computes it on the golden inputs, and the first layer that leaves half's range, so that the C++
// tests learn which layer is to blame from TF.js rather than from our own checker.
//   node make-precision-models.mjs OUT
//
//   fp16_overflow   a 1x1 convolution ('boost') whose activations pass 65504, then one ('shrink')
//                   that brings them back to a normal range: fine in fp32, inf or clamped in fp16
//   fp16_underflow  two bias-free dense layers ('shrink1', 'shrink2') take activations to about
//                   1e-8, below half's smallest subnormal (6e-8), and two ('grow1', 'grow2') bring
//                   them back: in fp16 'shrink2' flushes to zero and the outputs lose their signal
//   fp16_safe       a small CNN whose values stay well inside half's range
import fs from 'node:fs';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { fileSaver } from './lib/fsio.mjs';
import { seedWeights } from './lib/seeded.mjs';
import { generate } from './lib/inputs.mjs';

const L = tf.layers;
const HALF_MAX = 65504;
const HALF_FLUSH = 6e-8; // under about this a half subnormal rounds to zero

const models = {
  fp16_overflow() {
    const x = tf.input({ name: 'image', shape: [8, 8, 3] });
    let y = L.conv2d({ name: 'conv1', filters: 8, kernelSize: 3, padding: 'same', activation: 'relu' }).apply(x);
    y = L.conv2d({ name: 'boost', filters: 8, kernelSize: 1 }).apply(y);
    y = L.conv2d({ name: 'shrink', filters: 6, kernelSize: 1, activation: 'relu' }).apply(y);
    y = L.globalAveragePooling2d({ name: 'gap' }).apply(y);
    const out = L.dense({ name: 'out', units: 3 }).apply(y);
    // Kernels of 'boost' about 2e5 (values near 1e5), of 'shrink' about 1e-4 (back to about 10).
    return { model: tf.model({ name: 'fp16_overflow', inputs: x, outputs: out }), gain: { 'boost/kernel': 2e5, 'shrink/kernel': 1e-4 } };
  },

  fp16_underflow() {
    const x = tf.input({ name: 'features', shape: [16] });
    let y = L.dense({ name: 'pre', units: 16, activation: 'tanh' }).apply(x);
    // No biases here: a bias of 0.3 would swamp activations of 1e-8.
    y = L.dense({ name: 'shrink1', units: 16, useBias: false }).apply(y);
    y = L.dense({ name: 'shrink2', units: 16, useBias: false }).apply(y);
    y = L.dense({ name: 'grow1', units: 16, useBias: false }).apply(y);
    y = L.dense({ name: 'grow2', units: 16, useBias: false }).apply(y);
    const out = L.dense({ name: 'out', units: 4 }).apply(y);
    // Every kernel stays inside half's normal range (1e-4 .. 1e4); only activations leave it.
    const gain = { 'shrink1/kernel': 1e-4, 'shrink2/kernel': 1e-4, 'grow1/kernel': 1e4, 'grow2/kernel': 1e4 };
    return { model: tf.model({ name: 'fp16_underflow', inputs: x, outputs: out }), gain };
  },

  fp16_safe() {
    const x = tf.input({ name: 'image', shape: [12, 12, 3] });
    let y = L.conv2d({ name: 'conv1', filters: 8, kernelSize: 3, padding: 'same', activation: 'relu' }).apply(x);
    y = L.maxPooling2d({ name: 'pool', poolSize: 2 }).apply(y);
    y = L.conv2d({ name: 'conv2', filters: 8, kernelSize: 3, padding: 'same', activation: 'relu' }).apply(y);
    y = L.globalAveragePooling2d({ name: 'gap' }).apply(y);
    const out = L.dense({ name: 'out', units: 5, activation: 'softmax' }).apply(y);
    return { model: tf.model({ name: 'fp16_safe', inputs: x, outputs: out }) };
  },
};

/** Range facts of one layer's output, as the C++ checker records them. */
function layerStats(name, values) {
  let maxAbs = 0;
  let overflow = 0;
  let flushed = 0;
  let maxFlushed = 0;
  for (const v of values) {
    const a = Math.abs(v);
    if (!Number.isFinite(a)) continue;
    maxAbs = Math.max(maxAbs, a);
    if (a > HALF_MAX) ++overflow;
    if (a > 0 && a < HALF_FLUSH) {
      ++flushed;
      maxFlushed = Math.max(maxFlushed, a);
    }
  }
  return { layer: name, max_abs: maxAbs, overflow, flushed, max_flushed: maxFlushed };
}

async function describe(model, name, outDir) {
  const layers = model.layers.filter((l) => l.getClassName() !== 'InputLayer');
  const probe = tf.model({ inputs: model.inputs, outputs: layers.map((l) => l.output) });
  const inputs = model.inputs.map((t) => {
    const shape = t.shape.map((d) => d ?? 1);
    return tf.tensor(generate(shape.reduce((a, b) => a * b, 1), 'float32'), shape);
  });
  const outs = [probe.predict(inputs.length === 1 ? inputs[0] : inputs)].flat();
  const stats = layers.map((l, k) => layerStats(l.name, outs[k].dataSync()));
  tf.dispose([...inputs, ...outs]);
  // A layer underflows when flushing its tiny values to zero changes it by more than 1% of its
  // largest magnitude (a softmax with a few 1e-9 probabilities does not).
  const firstOverflow = stats.find((s) => s.overflow > 0)?.layer ?? null;
  const firstUnderflow = stats.find((s) => s.flushed > 0 && s.max_flushed > 0.01 * s.max_abs)?.layer ?? null;
  const facts = { model: `layers/${name}/model.json`, first_overflow_layer: firstOverflow, first_underflow_layer: firstUnderflow, layers: stats };
  fs.writeFileSync(path.join(outDir, `${name}.json`), JSON.stringify(facts, null, 1) + '\n');
  return facts;
}

async function main() {
  const out = process.argv[2];
  if (!out) throw new Error('usage: node make-precision-models.mjs OUT');
  await tf.setBackend('cpu');
  const root = path.join(out, 'layers');
  const factsDir = path.join(out, 'precision');
  fs.mkdirSync(root, { recursive: true });
  fs.mkdirSync(factsDir, { recursive: true });
  for (const [name, build] of Object.entries(models)) {
    const { model, gain } = build();
    seedWeights(model, name, gain);
    await model.save(fileSaver(path.join(root, name)));
    const facts = await describe(model, name, factsDir);
    // The models exist to show these facts; if seeding ever stops producing them, fail loudly.
    const want = { fp16_overflow: ['boost', null], fp16_underflow: [null, 'shrink2'], fp16_safe: [null, null] }[name];
    if (facts.first_overflow_layer !== want[0] || facts.first_underflow_layer !== want[1]) {
      throw new Error(`${name}: first overflow ${facts.first_overflow_layer}, first underflow ${facts.first_underflow_layer}; expected ${want}`);
    }
    console.error(`make-precision-models: ${name} (overflow ${facts.first_overflow_layer}, underflow ${facts.first_underflow_layer})`);
    model.dispose();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
