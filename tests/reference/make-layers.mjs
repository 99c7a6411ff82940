// Builds the layers models of the reference data with real tfjs-layers, gives them seeded
// weights, saves them with model.save (file saver of lib/fsio.mjs) to OUT/layers/<name>/, and
// writes quantized copies of some of them the way tensorflowjs_converter would.
//   node make-layers.mjs OUT
import fs from 'node:fs';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { fileSaver } from './lib/fsio.mjs';
import { seedWeights } from './lib/seeded.mjs';
import { writeCopy } from './lib/bundle.mjs';

const L = tf.layers;

// Every layer is named so weight names do not depend on tfjs-layers' global name counters.
const models = {
  // Sequential CNN: Conv2D, BatchNormalization, Max/AveragePooling2D, Flatten, Dense, Dropout.
  seq_cnn() {
    const m = tf.sequential({ name: 'seq_cnn' });
    m.add(L.conv2d({ name: 'conv1', inputShape: [17, 19, 3], filters: 5, kernelSize: 3, padding: 'same', activation: 'relu' }));
    m.add(L.batchNormalization({ name: 'bn1' }));
    m.add(L.maxPooling2d({ name: 'pool1', poolSize: 2, strides: 2, padding: 'valid' }));
    m.add(L.conv2d({ name: 'conv2', filters: 7, kernelSize: [3, 2], strides: 2, padding: 'same', activation: 'elu' }));
    m.add(L.averagePooling2d({ name: 'pool2', poolSize: 3, strides: 1, padding: 'same' }));
    m.add(L.maxPooling2d({ name: 'pool3', poolSize: [2, 3], strides: [1, 2], padding: 'same' }));
    m.add(L.flatten({ name: 'flat' }));
    m.add(L.dense({ name: 'fc1', units: 10, activation: 'tanh' }));
    m.add(L.dropout({ name: 'drop', rate: 0.3 }));
    m.add(L.dense({ name: 'fc2', units: 6, activation: 'softmax' }));
    return { model: m };
  },

  // Depthwise and separable convolutions with strides, dilations and odd paddings.
  func_depthwise() {
    const x = tf.input({ name: 'image', shape: [20, 20, 6] });
    let y = L.depthwiseConv2d({ name: 'dw1', kernelSize: 3, depthMultiplier: 2, strides: 2, padding: 'same' }).apply(x);
    y = L.reLU({ name: 'relu1', maxValue: 6 }).apply(y);
    y = L.separableConv2d({ name: 'sep1', filters: 9, kernelSize: 3, dilationRate: 2, padding: 'same' }).apply(y);
    y = L.batchNormalization({ name: 'bn1', epsilon: 0.01 }).apply(y);
    y = L.activation({ name: 'act1', activation: 'relu6' }).apply(y);
    y = L.zeroPadding2d({ name: 'pad1', padding: [[1, 2], [0, 1]] }).apply(y);
    y = L.conv2d({ name: 'conv1', filters: 5, kernelSize: [2, 3], padding: 'valid', dilationRate: [1, 2] }).apply(y);
    // depthMultiplier stays 1 here: tfjs-layers 4.22 leaves depth_multiplier out of a saved
    // SeparableConv2D config, so a model saved with another value does not load again.
    y = L.separableConv2d({ name: 'sep2', filters: 6, kernelSize: 3, strides: 2, padding: 'valid', activation: 'relu' }).apply(y);
    y = L.depthwiseConv2d({ name: 'dw2', kernelSize: [2, 2], padding: 'valid', useBias: false }).apply(y);
    y = L.globalAveragePooling2d({ name: 'gap' }).apply(y);
    const out = L.dense({ name: 'out', units: 3, activation: 'sigmoid' }).apply(y);
    return { model: tf.model({ name: 'func_depthwise', inputs: x, outputs: out }) };
  },

  // Transposed convolutions, UpSampling2D, LeakyReLU, PReLU, softplus.
  func_upsample() {
    const x = tf.input({ name: 'small', shape: [9, 11, 5] });
    let y = L.conv2dTranspose({ name: 'deconv1', filters: 7, kernelSize: 3, strides: 2, padding: 'same' }).apply(x);
    y = L.leakyReLU({ name: 'lrelu', alpha: 0.2 }).apply(y);
    y = L.upSampling2d({ name: 'up1', size: [2, 1] }).apply(y);
    y = L.conv2dTranspose({ name: 'deconv2', filters: 3, kernelSize: [2, 3], strides: [1, 2], padding: 'valid', activation: 'softplus' }).apply(y);
    y = L.conv2d({ name: 'conv1', filters: 4, kernelSize: 1 }).apply(y);
    y = L.prelu({ name: 'prelu', sharedAxes: [1, 2] }).apply(y);
    y = L.maxPooling2d({ name: 'pool', poolSize: 3, strides: 2, padding: 'same' }).apply(y);
    y = L.upSampling2d({ name: 'up2', size: [2, 2] }).apply(y);
    y = L.conv2dTranspose({ name: 'deconv3', filters: 2, kernelSize: 4, strides: 3, padding: 'same', activation: 'tanh' }).apply(y);
    return { model: tf.model({ name: 'func_upsample', inputs: x, outputs: y }) };
  },

  // Every Activation (hardSigmoid is saved as Keras' hard_sigmoid), side by side on
  // pre-activations spread over about [-10, 10].
  activations() {
    const x = tf.input({ name: 'x', shape: [4, 5, 3] });
    const pre = L.conv2d({ name: 'pre', filters: 6, kernelSize: 1 }).apply(x);
    const kinds = ['relu', 'relu6', 'sigmoid', 'tanh', 'softmax', 'elu', 'selu', 'softplus', 'hardSigmoid', 'linear'];
    const branches = kinds.map((a) => L.activation({ name: `act_${a.replace('hardSigmoid', 'hard_sigmoid')}`, activation: a }).apply(pre));
    branches.push(L.reLU({ name: 'relu_layer' }).apply(pre));
    branches.push(L.leakyReLU({ name: 'lrelu_default' }).apply(pre));
    const all = L.concatenate({ name: 'all', axis: -1 }).apply(branches);
    const flat = L.flatten({ name: 'flat' }).apply(pre);
    const probs = L.dense({ name: 'probs', units: 5, activation: 'softmax' }).apply(flat);
    return { model: tf.model({ name: 'activations', inputs: x, outputs: [all, probs] }), gain: { 'pre/kernel': 4 } };
  },

  // Two inputs, merge layers (Add, Multiply, Average, Concatenate on two axes), Permute, Reshape,
  // Dense on a rank-3 tensor; two outputs.
  merge_ops() {
    const a = tf.input({ name: 'a', shape: [8, 8, 3] });
    const b = tf.input({ name: 'b', shape: [8, 8, 3] });
    const ca = L.conv2d({ name: 'conv_a', filters: 5, kernelSize: 3, padding: 'same' }).apply(a);
    const cb = L.conv2d({ name: 'conv_b', filters: 5, kernelSize: 3, padding: 'same' }).apply(b);
    const add = L.add({ name: 'add' }).apply([ca, cb]);
    const mul = L.multiply({ name: 'mul' }).apply([ca, cb]);
    const avg = L.average({ name: 'avg' }).apply([ca, cb, add]);
    const cat = L.concatenate({ name: 'cat', axis: -1 }).apply([add, mul, avg]);
    let y = L.permute({ name: 'perm', dims: [3, 1, 2] }).apply(cat);
    y = L.reshape({ name: 'rs', targetShape: [15, 64] }).apply(y);
    const out1 = L.dense({ name: 'rows', units: 4 }).apply(y);
    let z = L.concatenate({ name: 'cat_h', axis: 1 }).apply([ca, cb]);
    z = L.maxPooling2d({ name: 'pool', poolSize: 2 }).apply(z);
    z = L.flatten({ name: 'flat' }).apply(z);
    const out2 = L.dense({ name: 'score', units: 2, activation: 'sigmoid' }).apply(z);
    return { model: tf.model({ name: 'merge_ops', inputs: [a, b], outputs: [out1, out2] }) };
  },

  // Sequential shape plumbing: Reshape, Permute, Flatten, Dense, Reshape back.
  seq_reshape() {
    const m = tf.sequential({ name: 'seq_reshape' });
    m.add(L.reshape({ name: 'rs1', inputShape: [6, 10], targetShape: [3, 4, 5] }));
    m.add(L.permute({ name: 'perm', dims: [2, 3, 1] }));
    m.add(L.flatten({ name: 'flat' }));
    m.add(L.dense({ name: 'fc', units: 7, activation: 'relu' }));
    m.add(L.reshape({ name: 'rs2', targetShape: [7, 1] }));
    return { model: m };
  },

  // Integer token input, Embedding, two stacked LSTMs (tfjs default hard_sigmoid recurrence).
  embed_lstm() {
    const x = tf.input({ name: 'tokens', shape: [9], dtype: 'int32' });
    let y = L.embedding({ name: 'emb', inputDim: 256, outputDim: 6 }).apply(x);
    y = L.lstm({ name: 'lstm1', units: 5, returnSequences: true }).apply(y);
    y = L.lstm({ name: 'lstm2', units: 4 }).apply(y);
    const out = L.dense({ name: 'out', units: 3, activation: 'softmax' }).apply(y);
    return { model: tf.model({ name: 'embed_lstm', inputs: x, outputs: out }) };
  },

  // Sequential GRUs (reset gate before the matmul, the only mode tfjs-layers has).
  seq_gru() {
    const m = tf.sequential({ name: 'seq_gru' });
    m.add(L.gru({ name: 'gru1', inputShape: [7, 5], units: 6, returnSequences: true, recurrentActivation: 'sigmoid' }));
    m.add(L.gru({ name: 'gru2', units: 3 }));
    m.add(L.dense({ name: 'out', units: 2 }));
    return { model: m };
  },

  // A Sequential model used as a layer inside a functional model.
  nested() {
    const block = tf.sequential({ name: 'block' });
    block.add(L.conv2d({ name: 'block_conv', inputShape: [12, 12, 5], filters: 4, kernelSize: 3, padding: 'same' }));
    block.add(L.batchNormalization({ name: 'block_bn' }));
    block.add(L.reLU({ name: 'block_relu' }));
    const x = tf.input({ name: 'img', shape: [12, 12, 3] });
    let y = L.conv2d({ name: 'stem', filters: 5, kernelSize: 1, activation: 'relu' }).apply(x);
    y = block.apply(y);
    y = L.globalAveragePooling2d({ name: 'gap' }).apply(y);
    const out = L.dense({ name: 'out', units: 3 }).apply(y);
    return { model: tf.model({ name: 'nested', inputs: x, outputs: out }) };
  },

  // Image + vector inputs, two heads; outputs listed regression first.
  multi_io() {
    const img = tf.input({ name: 'img', shape: [10, 10, 4] });
    const vec = tf.input({ name: 'vec', shape: [5] });
    let a = L.conv2d({ name: 'conv', filters: 6, kernelSize: 3, strides: 2, padding: 'valid', activation: 'relu' }).apply(img);
    a = L.maxPooling2d({ name: 'pool', poolSize: 2 }).apply(a);
    a = L.flatten({ name: 'flat' }).apply(a);
    const v = L.dense({ name: 'vec_fc', units: 8, activation: 'relu' }).apply(vec);
    let h = L.concatenate({ name: 'join' }).apply([a, v]);
    h = L.dense({ name: 'hidden', units: 12, activation: 'relu' }).apply(h);
    const cls = L.dense({ name: 'cls', units: 3, activation: 'softmax' }).apply(h);
    const reg = L.dense({ name: 'reg', units: 1 }).apply(h);
    return { model: tf.model({ name: 'multi_io', inputs: [img, vec], outputs: [reg, cls] }) };
  },
};

// Quantized and re-sharded copies, written from the saved float bundles.
const copies = [
  { name: 'seq_cnn-q8', from: 'seq_cnn', dtypeFor: () => 'uint8' },
  { name: 'func_depthwise-q16', from: 'func_depthwise', dtypeFor: () => 'uint16' },
  { name: 'func_upsample-f16', from: 'func_upsample', dtypeFor: () => 'float16' },
  // As `--quantize_uint8 '*kernel*' --quantize_float16` would: kernels uint8, the rest float16;
  // small shards so that weights straddle shard boundaries.
  { name: 'multi_io-mixed', from: 'multi_io', dtypeFor: (n) => (/kernel/.test(n) ? 'uint8' : 'float16'), shardBytes: 512 },
];

async function main() {
  const out = process.argv[2];
  if (!out) throw new Error('usage: node make-layers.mjs OUT');
  await tf.setBackend('cpu');
  const root = path.join(out, 'layers');
  fs.mkdirSync(root, { recursive: true });
  for (const [name, build] of Object.entries(models)) {
    const { model, gain } = build();
    seedWeights(model, name, gain);
    await model.save(fileSaver(path.join(root, name)));
    const size = fs.statSync(path.join(root, name, 'weights.bin')).size;
    if (size > 1024 * 1024) throw new Error(`layers model ${name} is too big: ${size} bytes`);
    console.error(`make-layers: ${name} (${model.countParams()} parameters)`);
    model.dispose();
  }
  for (const c of copies) {
    writeCopy(path.join(root, c.from, 'model.json'), path.join(root, c.name), c);
    console.error(`make-layers: ${c.name}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
