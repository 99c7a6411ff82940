// Seeded, deterministic weights for tfjs-layers models, so that nothing depends on Math.random and
// every layer does real work (BatchNorm statistics far from identity, PReLU slopes not zero, ...).
import * as tf from '@tensorflow/tfjs';

/** 32-bit FNV-1a of a string: the seed of a model's generator. */
export function fnv1a(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; ++i) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** mulberry32: a small, well-mixed 32-bit generator; returns floats in [0, 1). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Range [lo, hi) for a weight, chosen by its role (the last part of its name). */
function rangeFor(name, shape) {
  const role = name.split('/').pop().replace(/_\d+$/, '');
  const count = shape.reduce((a, b) => a * b, 1);
  const fanIn = Math.max(1, count / Math.max(1, shape[shape.length - 1]));
  switch (role) {
    case 'kernel':
    case 'depthwise_kernel':
    case 'pointwise_kernel':
    case 'recurrent_kernel': {
      const a = Math.sqrt(6 / fanIn);
      return [-a, a];
    }
    case 'bias':
    case 'beta':
      return [-0.3, 0.3];
    case 'gamma':
      return [0.6, 1.4];
    case 'moving_mean':
      return [-0.4, 0.4];
    case 'moving_variance':
      return [0.4, 1.6];
    case 'alpha':
      return [0.05, 0.45];
    case 'embeddings':
      return [-1, 1];
    default:
      throw new Error(`seeded weights: no range for weight ${name}`);
  }
}

/**
 * Replaces every weight of `model` with seeded values. `gain` maps a weight name to a factor
 * (e.g. to push pre-activations into the saturating range of relu6 or hard_sigmoid).
 */
export function seedWeights(model, seedText, gain = {}) {
  const next = rng(fnv1a(seedText));
  const values = model.weights.map((w) => {
    const [lo, hi] = rangeFor(w.originalName ?? w.name, w.shape);
    const g = gain[w.originalName] ?? gain[w.name] ?? 1;
    const count = w.shape.reduce((a, b) => a * b, 1);
    const data = new Float32Array(count);
    for (let i = 0; i < count; ++i) data[i] = g * (lo + (hi - lo) * next());
    return tf.tensor(data, w.shape, 'float32');
  });
  model.setWeights(values);
  tf.dispose(values);
}
