// File-system IOHandlers for TF.js in plain Node (no tfjs-node): a loader that reads model.json and
// its weight shards with fs, and a saver that writes model.json + weights.bin the way tfjs-node's
// file:// saver does (one weight group, one shard named weights.bin, JSON.stringify'd topology).
import fs from 'node:fs';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';

function toArrayBuffer(buf) {
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
}

/** An IOHandler that loads the bundle whose model.json is at `modelJsonPath`. */
export function fileLoader(modelJsonPath) {
  const dir = path.dirname(modelJsonPath);
  return {
    async load() {
      const json = JSON.parse(fs.readFileSync(modelJsonPath, 'utf8'));
      return tf.io.getModelArtifactsForJSON(json, async (manifest) => {
        const specs = [];
        const shards = [];
        for (const group of manifest) {
          for (const p of group.paths) shards.push(fs.readFileSync(path.join(dir, p)));
          specs.push(...group.weights);
        }
        return [specs, toArrayBuffer(Buffer.concat(shards))];
      });
    },
  };
}

/** The model.json object tfjs-node's saver would write for `artifacts` with one shard `shardName`. */
export function modelJsonFor(artifacts, weightSpecs, shardPaths) {
  const json = {
    modelTopology: artifacts.modelTopology,
    weightsManifest: [{ paths: shardPaths, weights: weightSpecs }],
    format: artifacts.format,
    generatedBy: artifacts.generatedBy,
    convertedBy: artifacts.convertedBy,
  };
  if (artifacts.trainingConfig != null) json.trainingConfig = artifacts.trainingConfig;
  if (artifacts.signature != null) json.signature = artifacts.signature;
  if (artifacts.userDefinedMetadata != null) json.userDefinedMetadata = artifacts.userDefinedMetadata;
  return json;
}

/** An IOHandler that saves a model into folder `dir` as model.json + weights.bin. */
export function fileSaver(dir) {
  return {
    async save(artifacts) {
      if (artifacts.modelTopology instanceof ArrayBuffer) {
        throw new Error(`fileSaver(${dir}): binary topologies are not supported`);
      }
      fs.mkdirSync(dir, { recursive: true });
      const json = modelJsonFor(artifacts, artifacts.weightSpecs, ['weights.bin']);
      fs.writeFileSync(path.join(dir, 'model.json'), JSON.stringify(json), 'utf8');
      const data = artifacts.weightData;
      const bytes = Array.isArray(data)
        ? Buffer.concat(data.map((b) => Buffer.from(b)))
        : Buffer.from(data);
      fs.writeFileSync(path.join(dir, 'weights.bin'), bytes);
      return { modelArtifactsInfo: tf.io.getModelArtifactsInfoForJSON(artifacts) };
    },
  };
}
