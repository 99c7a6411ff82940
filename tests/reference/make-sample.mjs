// Makes the bundled sample model, resources/sample/: a small CNN that tells four drawn shapes
// apart on 28x28x1 images, trained for a few seconds by tfjs-layers on synthetic data with fixed
// seeds, saved as a layers model (model.json + weights.bin). Also writes one example input per
// class as .npy (inputs/<class>.npy) for the quick start.
//   node make-sample.mjs [OUT_DIR]      (default: resources/sample of this repository)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs';
import { fileSaver } from './lib/fsio.mjs';
import { rng } from './lib/seeded.mjs';
import { writeNpy } from './lib/npy.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const CLASSES = ['circle', 'square', 'triangle', 'cross'];
const SIZE = 28;

/** One 28x28 image of class `c`: a bright shape of random size and place on a noisy dark field. */
function draw(c, next) {
  const img = new Float32Array(SIZE * SIZE);
  const r = 5 + next() * 6; // half-size in pixels
  const cx = r + 1 + next() * (SIZE - 2 * r - 2);
  const cy = r + 1 + next() * (SIZE - 2 * r - 2);
  const ink = 0.6 + 0.4 * next();
  for (let y = 0; y < SIZE; ++y) {
    for (let x = 0; x < SIZE; ++x) {
      const dx = x + 0.5 - cx;
      const dy = y + 0.5 - cy;
      let inside;
      switch (CLASSES[c]) {
        case 'circle':
          inside = dx * dx + dy * dy <= r * r;
          break;
        case 'square':
          inside = Math.abs(dx) <= r * 0.85 && Math.abs(dy) <= r * 0.85;
          break;
        case 'triangle': // apex up; the width grows from top to bottom
          inside = dy >= -r && dy <= r && Math.abs(dx) <= (dy + r) / 2;
          break;
        default: // cross: two bars
          inside = (Math.abs(dx) <= r * 0.3 && Math.abs(dy) <= r) || (Math.abs(dy) <= r * 0.3 && Math.abs(dx) <= r);
      }
      img[y * SIZE + x] = Math.min(1, (inside ? ink : 0) + 0.15 * next());
    }
  }
  return img;
}

function dataset(count, seed) {
  const next = rng(seed);
  const xs = new Float32Array(count * SIZE * SIZE);
  const ys = new Int32Array(count);
  for (let i = 0; i < count; ++i) {
    ys[i] = i % CLASSES.length;
    xs.set(draw(ys[i], next), i * SIZE * SIZE);
  }
  return { xs: tf.tensor4d(xs, [count, SIZE, SIZE, 1]), ys: tf.oneHot(tf.tensor1d(ys, 'int32'), CLASSES.length), labels: ys };
}

/**
 * tfjs-backend-cpu computes the Conv2D filter gradient with one TensorBuffer.get() per term, which
 * makes this few-second training take ten minutes. This replaces that kernel (NHWC only) with the
 * same sum over typed arrays, after checking that both agree on a small case.
 */
function speedUpFilterGradient() {
  const original = tf.getKernel('Conv2DBackpropFilter', 'cpu');
  const fast = (args) => {
    const { inputs, backend, attrs } = args;
    const { x, dy } = inputs;
    if (attrs.dataFormat !== 'NHWC') return original.kernelFunc(args);
    const info = tf.backend_util.computeConv2DInfo(x.shape, attrs.filterShape, attrs.strides, 1, attrs.pad, attrs.dimRoundingMode, false, 'channelsLast');
    const xv = backend.data.get(x.dataId).values;
    const dyv = backend.data.get(dy.dataId).values;
    const [, inH, inW, inC] = x.shape;
    const { outHeight: outH, outWidth: outW, outChannels: outC, filterHeight: fh, filterWidth: fw } = info;
    const dw = new Float32Array(fh * fw * inC * outC);
    for (let b = 0; b < info.batchSize; ++b) {
      for (let oy = 0; oy < outH; ++oy) {
        for (let ox = 0; ox < outW; ++ox) {
          const dyBase = ((b * outH + oy) * outW + ox) * outC;
          for (let ky = 0; ky < fh; ++ky) {
            const iy = oy * info.strideHeight + ky - info.padInfo.top;
            if (iy < 0 || iy >= inH) continue;
            for (let kx = 0; kx < fw; ++kx) {
              const ix = ox * info.strideWidth + kx - info.padInfo.left;
              if (ix < 0 || ix >= inW) continue;
              const xBase = ((b * inH + iy) * inW + ix) * inC;
              const wBase = (ky * fw + kx) * inC * outC;
              for (let ci = 0; ci < inC; ++ci) {
                const xval = xv[xBase + ci];
                const row = wBase + ci * outC;
                for (let co = 0; co < outC; ++co) dw[row + co] += xval * dyv[dyBase + co];
              }
            }
          }
        }
      }
    }
    return backend.makeTensorInfo(info.filterShape, 'float32', dw);
  };
  const x = tf.randomUniform([2, 7, 6, 3], -1, 1, 'float32', 7);
  const dy = tf.randomUniform([2, 4, 3, 5], -1, 1, 'float32', 8);
  const attrs = { strides: [2, 2], pad: 'same', dataFormat: 'NHWC', dimRoundingMode: undefined, filterShape: [3, 3, 3, 5] };
  const want = tf.engine().runKernel('Conv2DBackpropFilter', { x, dy }, attrs).dataSync();
  tf.unregisterKernel('Conv2DBackpropFilter', 'cpu');
  tf.registerKernel({ ...original, kernelFunc: fast });
  const got = tf.engine().runKernel('Conv2DBackpropFilter', { x, dy }, attrs).dataSync();
  const err = Math.max(...want.map((v, i) => Math.abs(v - got[i])));
  if (!(err < 1e-4)) throw new Error(`fast Conv2DBackpropFilter differs from TF.js's by ${err}`);
}

function build() {
  const L = tf.layers;
  const init = (seed) => tf.initializers.glorotUniform({ seed });
  const m = tf.sequential({ name: 'shapes_cnn' });
  m.add(L.conv2d({ name: 'conv1', inputShape: [SIZE, SIZE, 1], filters: 6, kernelSize: 3, activation: 'relu', kernelInitializer: init(1) }));
  m.add(L.maxPooling2d({ name: 'pool1', poolSize: 2 }));
  m.add(L.conv2d({ name: 'conv2', filters: 10, kernelSize: 3, activation: 'relu', kernelInitializer: init(2) }));
  m.add(L.maxPooling2d({ name: 'pool2', poolSize: 2 }));
  m.add(L.flatten({ name: 'flatten' }));
  m.add(L.dense({ name: 'dense1', units: 24, activation: 'relu', kernelInitializer: init(3) }));
  m.add(L.dense({ name: 'probs', units: CLASSES.length, activation: 'softmax', kernelInitializer: init(4) }));
  return m;
}

async function main() {
  const out = process.argv[2] ?? path.join(here, '..', '..', 'resources', 'sample');
  await tf.setBackend('cpu');
  speedUpFilterGradient();
  const train = dataset(800, 1234);
  const test = dataset(200, 5678);
  const model = build();
  model.compile({ optimizer: tf.train.adam(0.005), loss: 'categoricalCrossentropy', metrics: ['accuracy'] });
  const t0 = performance.now();
  await model.fit(train.xs, train.ys, {
    epochs: 5,
    batchSize: 32,
    shuffle: false, // fit's shuffle draws from Math.random
    verbose: 0,
    callbacks: { onEpochEnd: (e, logs) => console.error(`make-sample: epoch ${e + 1} loss ${logs.loss.toFixed(4)} acc ${logs.acc.toFixed(3)}`) },
  });
  const pred = model.predict(test.xs).argMax(-1).dataSync();
  const accuracy = pred.reduce((n, p, i) => n + (p === test.labels[i] ? 1 : 0), 0) / pred.length;
  console.error(`make-sample: trained in ${((performance.now() - t0) / 1000).toFixed(1)} s, test accuracy ${accuracy}`);
  if (accuracy < 0.9) throw new Error(`sample model only reaches ${accuracy} on held-out shapes`);

  model.setUserDefinedMetadata({
    description: 'Tells four drawn shapes apart. Input: 28x28x1 grayscale in [0,1], a light shape on a dark background.',
    classes: CLASSES,
    test_accuracy: accuracy,
    made_by: 'tests/reference/make-sample.mjs',
  });
  fs.rmSync(out, { recursive: true, force: true });
  await model.save(fileSaver(out));
  fs.mkdirSync(path.join(out, 'inputs'), { recursive: true });
  const next = rng(42);
  CLASSES.forEach((name, c) => writeNpy(path.join(out, 'inputs', `${name}.npy`), draw(c, next), [1, SIZE, SIZE, 1], 'float32'));
  const size = fs.statSync(path.join(out, 'weights.bin')).size + fs.statSync(path.join(out, 'model.json')).size;
  console.error(`make-sample: wrote ${out} (${size} bytes)`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
