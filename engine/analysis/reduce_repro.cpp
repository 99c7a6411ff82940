// repro.js of `tfjsi reduce`: the reduced bundle run by real TF.js in Node.
#include <string>

#include "analysis/reduce.h"
#include "graph/graphdef_export.h"

namespace tfjsi::analysis {
namespace {

constexpr const char* kBody = R"JS(
function readNpy(file) {
  const b = fs.readFileSync(path.join(__dirname, file));
  const start = b[6] >= 2 ? 12 : 10;
  const hlen = b[6] >= 2 ? b.readUInt32LE(8) : b.readUInt16LE(8);
  const header = b.toString('latin1', start, start + hlen);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',')
      .map((s) => s.trim()).filter(Boolean).map(Number);
  const body = b.subarray(start + hlen);
  const bytes = body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength);
  if (descr === '<f4') return tf.tensor(new Float32Array(bytes), shape, 'float32');
  if (descr === '<i4') return tf.tensor(new Int32Array(bytes), shape, 'int32');
  if (descr === '|b1') return tf.tensor(new Uint8Array(bytes), shape, 'bool');
  throw new Error(`${file}: dtype ${descr} is not handled`);
}

// tf.loadGraphModel from the files beside this script (plain @tensorflow/tfjs reads no files).
function loader(file) {
  return {
    async load() {
      const json = JSON.parse(fs.readFileSync(file, 'utf8'));
      return tf.io.getModelArtifactsForJSON(json, async (manifest) => {
        const specs = [];
        const shards = [];
        for (const group of manifest) {
          for (const p of group.paths) shards.push(fs.readFileSync(path.join(path.dirname(file), p)));
          specs.push(...group.weights);
        }
        const all = Buffer.concat(shards);
        return [specs, all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength)];
      });
    },
  };
}

function stats(values) {
  const s = { count: values.length, min: Infinity, max: -Infinity, maxAbs: 0, nan: 0, inf: 0, pastHalf: 0 };
  for (const v of values) {
    if (Number.isNaN(v)) { s.nan++; continue; }
    if (!Number.isFinite(v)) { s.inf++; continue; }
    s.min = Math.min(s.min, v);
    s.max = Math.max(s.max, v);
    s.maxAbs = Math.max(s.maxAbs, Math.abs(v));
    if (Math.abs(v) > 65504) s.pastHalf++;
  }
  return s;
}

function describe(s) {
  return `min ${s.min}, max ${s.max}, max |x| ${s.maxAbs}, ${s.nan} NaN, ${s.inf} inf, ` +
      `${s.pastHalf} of ${s.count} past half's 65504`;
}

// max |a - b| / max(1, max |a|) over elements finite in both (DESIGN.md's measure).
function mismatch(a, b) {
  let err = 0, mag = 0;
  for (let i = 0; i < a.length; i++) {
    if (!Number.isFinite(a[i]) || !Number.isFinite(b[i])) continue;
    mag = Math.max(mag, Math.abs(a[i]));
    err = Math.max(err, Math.abs(a[i] - b[i]));
  }
  return { maxAbs: err, normalized: err / Math.max(1, mag) };
}

async function main() {
  const backend = process.argv[2] || 'cpu';
  await tf.setBackend(backend);
  await tf.ready();
  const model = await tf.loadGraphModel(loader(path.join(__dirname, 'model.json')));
  const feeds = {};
  for (const i of REPRO.inputs) feeds[i.name] = readNpy(i.file);
  const label = `node '${REPRO.node}' (${REPRO.op})`;
  console.log(`tfjsi reduce found: ${REPRO.found}`);
  let outs;
  try {
    outs = [await model.executeAsync(feeds, [REPRO.tensor])].flat();
  } catch (e) {
    if (REPRO.condition !== 'error') throw e;
    console.log(`TF.js (${backend}): running ${label} fails: ${e.message}`);
    console.log('REPRODUCED: the run fails');
    return 0;
  }
  if (REPRO.condition === 'error') {
    console.log(`TF.js (${backend}) runs ${label} without error (tfjsi failed on ${REPRO.backend})`);
    console.log('NOT REPRODUCED in TF.js');
    return 1;
  }
  const k = REPRO.output;
  const values = await outs[0].data();
  const s = stats(values);
  console.log(`TF.js (${backend}): ${label} output ${k}, shape [${outs[0].shape}]: ${describe(s)}`);
  if (REPRO.condition === 'fp16-overflow') {
    if (s.pastHalf === 0) { console.log('NOT REPRODUCED in TF.js'); return 1; }
    console.log(`REPRODUCED: max |x| ${s.maxAbs} > 65504, the largest half float: stored as fp16 ` +
        `(WebGL without float32 textures) it overflows to inf`);
    return 0;
  }
  if (REPRO.condition === 'nonfinite') {
    if (s.nan + s.inf === 0) {
      console.log(`NOT REPRODUCED in TF.js (tfjsi saw it on ${REPRO.backend})`);
      return 1;
    }
    console.log(`REPRODUCED: ${s.nan} NaN and ${s.inf} inf`);
    return 0;
  }
  // diverge: TF.js runs one backend of its own; the two of tfjsi are the recorded values.
  const ref = await readNpy(REPRO.reference[k].file).data();
  const test = await readNpy(REPRO.test[k].file).data();
  const ab = mismatch(ref, test);
  const tr = mismatch(ref, values);
  const tt = mismatch(test, values);
  console.log(`recorded: ${REPRO.backend} against ${REPRO.reference_backend}: max |diff| ${ab.maxAbs} ` +
      `(normalized ${ab.normalized}, tolerance ${REPRO.tolerance})`);
  console.log(`TF.js (${backend}) against ${REPRO.reference_backend}: max |diff| ${tr.maxAbs} ` +
      `(normalized ${tr.normalized}); against ${REPRO.backend}: ${tt.maxAbs} (normalized ${tt.normalized})`);
  console.log(`REPRODUCED: ${REPRO.backend} differs from ${REPRO.reference_backend} at ${label}; ` +
      `TF.js agrees with ${tr.normalized <= tt.normalized ? REPRO.reference_backend : REPRO.backend}`);
  return 0;
}

main().then((code) => process.exit(code), (e) => {
  console.error(`repro.js: ${e.message}`);
  process.exit(2);
});
)JS";

}  // namespace

std::string repro_script(const Reduction& r, const nlohmann::json& files) {
  const ReduceCondition& c = r.condition;
  nlohmann::json repro = {
      {"condition", c.kind == ReduceConditionKind::Diverge ? std::string("diverge") : c.text()},
      {"node", r.reduced.node},
      {"op", r.reduced.op},
      {"output", r.reduced.output},
      // The one output that shows it (TF.js may make fewer outputs of an op than TF declares).
      {"tensor", graph::tensor_name(r.reduced.node, r.reduced.output)},
      {"inputs", files.at("inputs")},
      {"backend", c.backend},
      {"found", r.reduced.summary(c)}};
  if (c.kind == ReduceConditionKind::Error) repro["error"] = r.reduced.error;
  if (c.kind == ReduceConditionKind::Diverge) {
    repro["reference_backend"] = c.reference;
    repro["tolerance"] = c.tolerance;
    repro["reference"] = files.at("reference");
    repro["test"] = files.at("test");
  }
  std::string s =
      "// What `tfjsi reduce --until " + c.text() +
      "` found, run by TF.js:\n"
      "//   npm install @tensorflow/tfjs@4.22.0   (here, or set NODE_PATH to a node_modules)\n"
      "//   node repro.js [BACKEND]               (cpu by default)\n"
      "// It loads model.json beside it with tf.loadGraphModel, feeds the inputs (inputs.json),\n"
      "// runs the culprit's outputs and prints what shows the condition. Exit code 0: TF.js\n"
      "// shows it; 1: it does not (tfjsi's backend alone does); 2: the script failed.\n"
      "'use strict';\n"
      "const fs = require('fs');\n"
      "const path = require('path');\n"
      "const tf = require('@tensorflow/tfjs');\n\n"
      "const REPRO = " +
      repro.dump(2, ' ', true) + ";\n";
  s += kBody;
  return s;
}

}  // namespace tfjsi::analysis
