// Reads the weights of a saved bundle and writes re-encoded copies of it (quantized, re-sharded).
import fs from 'node:fs';
import path from 'node:path';
import { quantizeWeight } from './quantize.mjs';

const BYTES = { float32: 4, int32: 4, bool: 1 };

/** [{spec, values}] of a float bundle (no quantization), in manifest order. */
export function readWeights(modelJsonPath) {
  const json = JSON.parse(fs.readFileSync(modelJsonPath, 'utf8'));
  const dir = path.dirname(modelJsonPath);
  const out = [];
  for (const group of json.weightsManifest) {
    const data = Buffer.concat(group.paths.map((p) => fs.readFileSync(path.join(dir, p))));
    let offset = 0;
    for (const spec of group.weights) {
      if (spec.quantization) throw new Error(`${modelJsonPath}: ${spec.name} is already quantized`);
      const count = spec.shape.reduce((a, b) => a * b, 1);
      const size = count * BYTES[spec.dtype];
      const slice = data.subarray(offset, offset + size);
      if (slice.length !== size) throw new Error(`${modelJsonPath}: weights end inside ${spec.name}`);
      const values =
        spec.dtype === 'float32' ? new Float32Array(count) : spec.dtype === 'int32' ? new Int32Array(count) : new Uint8Array(count);
      for (let i = 0; i < count; ++i) {
        values[i] = spec.dtype === 'float32' ? slice.readFloatLE(i * 4) : spec.dtype === 'int32' ? slice.readInt32LE(i * 4) : slice[i];
      }
      out.push({ spec, values, raw: Buffer.from(slice) });
      offset += size;
    }
  }
  return { json, weights: out };
}

/**
 * Writes a copy of the bundle at `srcJson` into `dstDir`, each float32 weight encoded as
 * `dtypeFor(name)` returns (uint8, uint16, float16, or null to keep float32), in one weight group
 * cut into shards of at most `shardBytes` named the converter's way (group1-shardKofN.bin).
 */
export function writeCopy(srcJson, dstDir, { dtypeFor = () => null, shardBytes = 4 * 1024 * 1024 } = {}) {
  const { json, weights } = readWeights(srcJson);
  const specs = [];
  const chunks = [];
  for (const { spec, values, raw } of weights) {
    const dtype = spec.dtype === 'float32' ? dtypeFor(spec.name) : null;
    if (dtype) {
      const { bytes, quantization } = quantizeWeight(values, dtype);
      specs.push({ name: spec.name, shape: spec.shape, dtype: spec.dtype, quantization });
      chunks.push(bytes);
    } else {
      specs.push({ name: spec.name, shape: spec.shape, dtype: spec.dtype });
      chunks.push(raw);
    }
  }
  const all = Buffer.concat(chunks);
  const n = Math.max(1, Math.ceil(all.length / shardBytes));
  const paths = [];
  fs.mkdirSync(dstDir, { recursive: true });
  for (let k = 0; k < n; ++k) {
    const name = `group1-shard${k + 1}of${n}.bin`;
    fs.writeFileSync(path.join(dstDir, name), all.subarray(k * shardBytes, (k + 1) * shardBytes));
    paths.push(name);
  }
  const out = { ...json, weightsManifest: [{ paths, weights: specs }] };
  fs.writeFileSync(path.join(dstDir, 'model.json'), JSON.stringify(out), 'utf8');
}
