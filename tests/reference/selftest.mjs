// Checks the reference data and the helpers that made it, so the oracle itself is tested:
// the input generator against exact BigInt arithmetic, every golden file against its golden.json,
// the half-float encoder on known values, and every quantized bundle against its float original
// as TF.js dequantizes it.
//   node selftest.mjs OUT
import fs from 'node:fs';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { generate } from './lib/inputs.mjs';
import { readNpy } from './lib/npy.mjs';
import { toHalfBits } from './lib/quantize.mjs';
import { fileLoader } from './lib/fsio.mjs';

let failures = 0;
let checks = 0;
function check(ok, what) {
  ++checks;
  if (!ok) {
    ++failures;
    console.error(`selftest: FAIL ${what}`);
  }
}

function checkGenerator() {
  const n = 1 << 20;
  const f = generate(n, 'float32');
  const q = generate(n, 'int32');
  for (let i = 0; i < n; i += i < 4096 ? 1 : 997) {
    const u = (BigInt(i) * 2654435761n) % 4294967296n;
    check(f[i] === Math.fround(Number(u) / 4294967296), `float generator at ${i}`);
    check(q[i] === Number(u >> 24n), `int generator at ${i}`);
  }
}

function checkHalf() {
  const known = [
    [1, 0x3c00], [-2, 0xc000], [0.1, 0x2e66], [65504, 0x7bff], [65519.99, 0x7bff], [65520, 0x7c00],
    [1e9, 0x7c00], [-Infinity, 0xfc00], [2 ** -24, 0x0001], [2 ** -25, 0x0000], [1.5 * 2 ** -25, 0x0001],
    [2 ** -14, 0x0400], [1 + 2 ** -11, 0x3c00], [1 + 3 * 2 ** -11, 0x3c02], [0, 0],
  ];
  for (const [v, bits] of known) check(toHalfBits(v) === bits, `toHalfBits(${v}) = 0x${toHalfBits(v).toString(16)}, want 0x${bits.toString(16)}`);
  // Every half value must survive half -> float32 -> half (NaNs aside).
  for (let i = 0; i < 65536; ++i) {
    const exp = (i >> 10) & 0x1f;
    const mant = i & 0x3ff;
    if (exp === 0x1f && mant) continue;
    const sign = i & 0x8000 ? -1 : 1;
    const v = exp === 0x1f ? sign * Infinity : exp === 0 ? sign * mant * 2 ** -24 : sign * (1 + mant / 1024) * 2 ** (exp - 15);
    check(toHalfBits(v) === i, `half 0x${i.toString(16)} round trip`);
  }
}

function checkGolden(out) {
  const root = path.join(out, 'golden');
  for (const name of fs.readdirSync(root)) {
    const g = JSON.parse(fs.readFileSync(path.join(root, name, 'golden.json'), 'utf8'));
    if (g.error) continue;
    for (const e of [...g.inputs, ...g.outputs]) {
      const a = readNpy(path.join(root, name, e.file));
      check(a.dtype === e.dtype && JSON.stringify(a.shape) === JSON.stringify(e.shape), `${name}/${e.file} matches golden.json`);
    }
    for (const e of g.inputs) {
      if (e.generator !== 'deterministic') continue;
      const a = readNpy(path.join(root, name, e.file));
      const want = generate(a.values.length, a.dtype);
      check(a.values.every((v, i) => v === want[i]), `${name}/${e.file} follows the generator`);
    }
  }
}

async function checkQuantized(out) {
  const root = path.join(out, 'layers');
  for (const name of fs.readdirSync(root).filter((n) => n.includes('-'))) {
    const from = name.slice(0, name.lastIndexOf('-'));
    const q = JSON.parse(fs.readFileSync(path.join(root, name, 'model.json'), 'utf8'));
    const specs = Object.fromEntries(q.weightsManifest.flatMap((g) => g.weights).map((w) => [w.name, w]));
    const [mq, mf] = [await tf.loadLayersModel(fileLoader(path.join(root, name, 'model.json'))), await tf.loadLayersModel(fileLoader(path.join(root, from, 'model.json')))];
    mf.weights.forEach((wf, k) => {
      const spec = specs[wf.originalName];
      const a = wf.read().dataSync();
      const b = mq.weights[k].read().dataSync();
      let tol;
      if (!spec?.quantization) tol = () => 0;
      else if (spec.quantization.dtype === 'float16') tol = (v) => Math.abs(v) * 2 ** -11 + 2 ** -25;
      else tol = () => spec.quantization.scale * 0.501 + 1e-7;
      let worst = 0;
      for (let i = 0; i < a.length; ++i) worst = Math.max(worst, Math.abs(a[i] - b[i]) - tol(a[i]));
      check(worst <= 0, `${name}: ${wf.originalName} dequantizes within tolerance (excess ${worst})`);
    });
    mq.dispose();
    mf.dispose();
  }
}

async function main() {
  const out = process.argv[2];
  await tf.setBackend('cpu');
  checkGenerator();
  checkHalf();
  checkGolden(out);
  await checkQuantized(out);
  if (failures) throw new Error(`${failures} self-test checks failed`);
  console.error(`selftest: ok (${checks} checks)`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
