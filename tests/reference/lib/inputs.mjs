// The deterministic inputs of DESIGN.md, shared by the golden writer and the timer.
//   float element i: ((i * 2654435761) mod 2^32) / 2^32, rounded to float32
//   int   element i: ((i * 2654435761) mod 2^32) >> 24   (0..255)
// Unknown dims are 1 unless the model's signature or input-overrides.json says otherwise.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const overridesFile = path.join(here, '..', 'input-overrides.json');

/** uint32 of element i; Math.imul keeps the low 32 bits of the product exactly. */
export function hashIndex(i) {
  return Math.imul(i, 2654435761 | 0) >>> 0;
}

/** Values of a generated input of `count` elements; dtype float32, int32 or bool. */
export function generate(count, dtype) {
  if (dtype === 'float32') {
    const out = new Float32Array(count);
    for (let i = 0; i < count; ++i) out[i] = hashIndex(i) / 4294967296;
    return out;
  }
  if (dtype === 'int32') {
    const out = new Int32Array(count);
    for (let i = 0; i < count; ++i) out[i] = hashIndex(i) >>> 24;
    return out;
  }
  if (dtype === 'bool') {
    // Not in DESIGN.md (no model here takes one): the top bit of the same hash.
    const out = new Uint8Array(count);
    for (let i = 0; i < count; ++i) out[i] = hashIndex(i) >>> 31;
    return out;
  }
  throw new Error(`no generator for input dtype ${dtype}`);
}

export function loadOverrides() {
  return JSON.parse(fs.readFileSync(overridesFile, 'utf8'));
}

/** TF.js names int8/uint8/int64 inputs int32 already; this maps the rest to what we generate. */
function genDtype(dtype) {
  if (dtype === 'float32' || dtype === 'int32' || dtype === 'bool') return dtype;
  throw new Error(`unsupported input dtype ${dtype}`);
}

/**
 * Input specs {name, key, shape, dtype, values} for a loaded model.
 * `kind` is 'graph' or 'layers'; `modelJson` is the parsed model.json (for the signature);
 * `overrides` the entry of input-overrides.json for this model, or undefined.
 */
export function inputSpecs(model, kind, modelJson, overrides = {}) {
  const specs = [];
  if (kind === 'graph') {
    const sigInputs = modelJson.signature?.inputs ?? {};
    const sigByNode = {};
    for (const [key, info] of Object.entries(sigInputs)) {
      sigByNode[info.name.replace(/:0$/, '')] = { key, info };
    }
    model.inputs.forEach((input, idx) => {
      const sig = sigByNode[input.name];
      const key = model.inputNodes[idx];
      const ov = overrides[input.name] ?? overrides[key];
      let shape = input.shape;
      const sigDims = sig?.info.tensorShape?.dim?.map((d) => Number(d.size));
      if (shape && sigDims && sigDims.length === shape.length) {
        shape = shape.map((d, k) => (d >= 0 ? d : sigDims[k] >= 0 ? sigDims[k] : d));
      }
      specs.push(resolve(input.name, key, shape, input.dtype, ov));
    });
  } else {
    // The input layers' names (model.inputNames, which a Sequential leaves empty until it runs;
    // its implicit input layer is "<first layer>_input", as in Keras).
    model.inputs.forEach((input) => {
      const name = input.sourceLayer.name;
      const ov = overrides[name];
      specs.push(resolve(name, name, input.shape, input.dtype, ov));
    });
  }
  return specs;
}

function resolve(name, key, shape, dtype, ov) {
  dtype = genDtype(ov?.dtype ?? dtype);
  if (ov?.shape) shape = ov.shape;
  if (shape == null) {
    throw new Error(`input ${name} has unknown rank: give its shape in ${overridesFile}`);
  }
  shape = shape.map((d) => (d == null || d < 0 ? 1 : d));
  const count = shape.reduce((a, b) => a * b, 1);
  let values;
  if (ov && 'value' in ov) {
    values = dtype === 'float32' ? new Float32Array(count) : dtype === 'int32' ? new Int32Array(count) : new Uint8Array(count);
    values.fill(ov.value);
  } else {
    values = generate(count, dtype);
  }
  return { name, key, shape, dtype, values, override: ov ?? null };
}
