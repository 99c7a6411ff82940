// Two Keras application architectures as tfjs-layers models, for #24's rows "a Keras MobileNet v2
// (layers)" and "a Keras Inception v3 (layers)", which tests/reference does not make: built with
// tf.layers the way keras.applications builds them (MobileNetV2 alpha 1.0 at 128x128, 1000
// classes; InceptionV3 at 139x139, 1000 classes), seeded weights (no trained ones are stored
// here), saved with model.save, and given golden data by TF.js cpu in tests/reference's layout:
//   node bench/webgl/make-keras-apps.mjs OUT
// writes OUT/layers/<name>/{model.json,weights.bin} and OUT/golden/<name>/{golden.json,*.npy};
// then bench/webgl_side_by_side.py --reference OUT --models mobilenet_v2,inception_v3 (and
// `tfjsi run` on OUT/layers/<name>/model.json) measure both sides on them.
import fs from 'node:fs';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { generate } from '../../tests/reference/lib/inputs.mjs';
import { writeNpy } from '../../tests/reference/lib/npy.mjs';
import { fileSaver } from '../../tests/reference/lib/fsio.mjs';
import { rng } from '../../tests/reference/lib/seeded.mjs';

const L = tf.layers;

// ---- MobileNetV2 (keras.applications.mobilenet_v2) ----
function mobilenetV2(size) {
  const x = tf.input({ name: 'input_1', shape: [size, size, 3] });
  let id = 0;
  const bn = (y, name) => L.batchNormalization({ name, epsilon: 1e-3, momentum: 0.999 }).apply(y);
  const relu6 = (y, name) => L.reLU({ name, maxValue: 6 }).apply(y);
  let y = L.conv2d({ name: 'Conv1', filters: 32, kernelSize: 3, strides: 2, padding: 'same', useBias: false }).apply(x);
  y = relu6(bn(y, 'bn_Conv1'), 'Conv1_relu');
  let channels = 32;
  const block = (input, expansion, filters, stride) => {
    const p = id ? `block_${id}_` : 'expanded_conv_';
    let h = input;
    if (id) {
      h = L.conv2d({ name: `${p}expand`, filters: expansion * channels, kernelSize: 1, padding: 'same', useBias: false }).apply(h);
      h = relu6(bn(h, `${p}expand_BN`), `${p}expand_relu`);
    }
    if (stride === 2) {
      // keras' correct_pad for an even size and a 3x3 kernel: ((0, 1), (0, 1)).
      h = L.zeroPadding2d({ name: `${p}pad`, padding: [[0, 1], [0, 1]] }).apply(h);
    }
    h = L.depthwiseConv2d({ name: `${p}depthwise`, kernelSize: 3, strides: stride, padding: stride === 2 ? 'valid' : 'same', useBias: false }).apply(h);
    h = relu6(bn(h, `${p}depthwise_BN`), `${p}depthwise_relu`);
    h = L.conv2d({ name: `${p}project`, filters, kernelSize: 1, padding: 'same', useBias: false }).apply(h);
    h = bn(h, `${p}project_BN`);
    if (stride === 1 && channels === filters) h = L.add({ name: `${p}add` }).apply([input, h]);
    channels = filters;
    ++id;
    return h;
  };
  const cfg = [[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 3, 2], [6, 64, 4, 2], [6, 96, 3, 1], [6, 160, 3, 2], [6, 320, 1, 1]];
  for (const [t, c, n, s] of cfg) for (let i = 0; i < n; ++i) y = block(y, t, c, i === 0 ? s : 1);
  y = L.conv2d({ name: 'Conv_1', filters: 1280, kernelSize: 1, useBias: false }).apply(y);
  y = relu6(bn(y, 'Conv_1_bn'), 'out_relu');
  y = L.globalAveragePooling2d({ name: 'global_average_pooling2d' }).apply(y);
  const out = L.dense({ name: 'predictions', units: 1000, activation: 'softmax' }).apply(y);
  return tf.model({ name: 'mobilenetv2_1.00_' + size, inputs: x, outputs: out });
}

// ---- InceptionV3 (keras.applications.inception_v3) ----
function inceptionV3(size) {
  const x = tf.input({ name: 'input_1', shape: [size, size, 3] });
  let n = 0;
  const cbn = (y, filters, rows, cols, padding = 'same', strides = 1) => {
    ++n;
    y = L.conv2d({ name: `conv2d_${n}`, filters, kernelSize: [rows, cols], strides, padding, useBias: false }).apply(y);
    y = L.batchNormalization({ name: `batch_normalization_${n}`, scale: false, epsilon: 1e-3 }).apply(y);
    return L.activation({ name: `activation_${n}`, activation: 'relu' }).apply(y);
  };
  let p = 0;
  const avg = (y) => L.averagePooling2d({ name: `average_pooling2d_${++p}`, poolSize: 3, strides: 1, padding: 'same' }).apply(y);
  let m = 0;
  const maxp = (y) => L.maxPooling2d({ name: `max_pooling2d_${++m}`, poolSize: 3, strides: 2 }).apply(y);
  const cat = (ys, name) => L.concatenate({ name, axis: -1 }).apply(ys);
  let y = cbn(x, 32, 3, 3, 'valid', 2);
  y = cbn(y, 32, 3, 3, 'valid');
  y = cbn(y, 64, 3, 3);
  y = maxp(y);
  y = cbn(y, 80, 1, 1, 'valid');
  y = cbn(y, 192, 3, 3, 'valid');
  y = maxp(y);
  // mixed 0, 1, 2: 35 x 35 in the original
  for (let i = 0; i < 3; ++i) {
    const b1 = cbn(y, 64, 1, 1);
    let b5 = cbn(y, 48, 1, 1);
    b5 = cbn(b5, 64, 5, 5);
    let b3 = cbn(y, 64, 1, 1);
    b3 = cbn(b3, 96, 3, 3);
    b3 = cbn(b3, 96, 3, 3);
    const bp = cbn(avg(y), i === 0 ? 32 : 64, 1, 1);
    y = cat([b1, b5, b3, bp], `mixed${i}`);
  }
  // mixed 3
  {
    const b3 = cbn(y, 384, 3, 3, 'valid', 2);
    let bd = cbn(y, 64, 1, 1);
    bd = cbn(bd, 96, 3, 3);
    bd = cbn(bd, 96, 3, 3, 'valid', 2);
    const bp = maxp(y);
    y = cat([b3, bd, bp], 'mixed3');
  }
  // mixed 4 .. 7: 17 x 17
  for (const [i, c] of [[4, 128], [5, 160], [6, 160], [7, 192]]) {
    const b1 = cbn(y, 192, 1, 1);
    let b7 = cbn(y, c, 1, 1);
    b7 = cbn(b7, c, 1, 7);
    b7 = cbn(b7, 192, 7, 1);
    let bd = cbn(y, c, 1, 1);
    bd = cbn(bd, c, 7, 1);
    bd = cbn(bd, c, 1, 7);
    bd = cbn(bd, c, 7, 1);
    bd = cbn(bd, 192, 1, 7);
    const bp = cbn(avg(y), 192, 1, 1);
    y = cat([b1, b7, bd, bp], `mixed${i}`);
  }
  // mixed 8
  {
    let b3 = cbn(y, 192, 1, 1);
    b3 = cbn(b3, 320, 3, 3, 'valid', 2);
    let b7 = cbn(y, 192, 1, 1);
    b7 = cbn(b7, 192, 1, 7);
    b7 = cbn(b7, 192, 7, 1);
    b7 = cbn(b7, 192, 3, 3, 'valid', 2);
    const bp = maxp(y);
    y = cat([b3, b7, bp], 'mixed8');
  }
  // mixed 9, 10: 8 x 8
  for (let i = 0; i < 2; ++i) {
    const b1 = cbn(y, 320, 1, 1);
    let b3 = cbn(y, 384, 1, 1);
    const b3a = cbn(b3, 384, 1, 3);
    const b3b = cbn(b3, 384, 3, 1);
    b3 = cat([b3a, b3b], `mixed9_${i}`);
    let bd = cbn(y, 448, 1, 1);
    bd = cbn(bd, 384, 3, 3);
    const bda = cbn(bd, 384, 1, 3);
    const bdb = cbn(bd, 384, 3, 1);
    bd = cat([bda, bdb], `concatenate_${i + 1}`);
    const bp = cbn(avg(y), 192, 1, 1);
    y = cat([b1, b3, bd, bp], `mixed${9 + i}`);
  }
  y = L.globalAveragePooling2d({ name: 'avg_pool' }).apply(y);
  const out = L.dense({ name: 'predictions', units: 1000, activation: 'softmax' }).apply(y);
  return tf.model({ name: 'inception_v3', inputs: x, outputs: out });
}

// ---- seeded weights: tests/reference's generator, ranges by role as its seeded.mjs chooses them,
// except a depthwise kernel, whose fan-in is its window (one input channel per output), so that
// these deep stacks keep their activations in range ----
function seed(model, seedValue) {
  const next = rng(seedValue);
  const values = model.weights.map((w) => {
    const role = (w.originalName ?? w.name).split('/').pop().replace(/_\d+$/, '');
    const count = w.shape.reduce((a, b) => a * b, 1);
    const fanIn = Math.max(1, count / Math.max(1, w.shape[w.shape.length - 1]));
    const ranges = {
      kernel: [-Math.sqrt(6 / fanIn), Math.sqrt(6 / fanIn)],
      depthwise_kernel: [-Math.sqrt(6 / (count / w.shape[2])), Math.sqrt(6 / (count / w.shape[2]))],
      bias: [-0.3, 0.3],
      beta: [-0.3, 0.3],
      gamma: [0.6, 1.4],
      moving_mean: [-0.4, 0.4],
      moving_variance: [0.4, 1.6],
    };
    const r = ranges[role];
    if (!r) throw new Error(`no range for ${w.name}`);
    const data = new Float32Array(count);
    for (let i = 0; i < count; ++i) data[i] = r[0] + (r[1] - r[0]) * next();
    return tf.tensor(data, w.shape, 'float32');
  });
  model.setWeights(values);
  tf.dispose(values);
}

async function main() {
  const out = process.argv[2];
  if (!out) throw new Error('usage: node make-keras-apps.mjs OUT');
  await tf.setBackend('cpu');
  const apps = { mobilenet_v2: () => mobilenetV2(128), inception_v3: () => inceptionV3(139) };
  let s = 24;
  for (const [name, make] of Object.entries(apps)) {
    const model = make();
    seed(model, ++s);
    await model.save(fileSaver(path.join(out, 'layers', name)));
    const shape = [1, ...model.inputs[0].shape.slice(1)];
    const count = shape.reduce((a, b) => a * b, 1);
    const input = tf.tensor(generate(count, 'float32'), shape, 'float32');
    const t0 = performance.now();
    const y = model.predict(input);
    const gdir = path.join(out, 'golden', name);
    fs.mkdirSync(gdir, { recursive: true });
    writeNpy(path.join(gdir, 'input_0.npy'), input.dataSync(), shape, 'float32');
    writeNpy(path.join(gdir, 'output_0.npy'), y.dataSync(), y.shape, 'float32');
    const golden = {
      model: `layers/${name}/model.json`,
      kind: 'layers',
      inputs: [{ name: 'input_1', file: 'input_0.npy', shape, dtype: 'float32', generator: 'deterministic' }],
      outputs: [{ name: 'predictions', file: 'output_0.npy', shape: y.shape, dtype: 'float32' }],
      backend: 'cpu',
      tfjs: tf.version.tfjs,
      execute: 'predict',
    };
    fs.writeFileSync(path.join(gdir, 'golden.json'), JSON.stringify(golden, null, 1) + '\n');
    const v = y.dataSync();
    console.error(`make-keras-apps: ${name} ${model.countParams()} weights, ${(performance.now() - t0).toFixed(0)} ms on cpu, output max ${Math.max(...v)}`);
    tf.dispose([input, y]);
    model.dispose();
  }
  fs.writeFileSync(path.join(out, '.complete'), '');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
