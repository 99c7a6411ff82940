// Times TF.js on one model for bench/: load time and inference on the cpu or wasm backend, with
// the deterministic inputs (and input-overrides.json) the golden data uses. Prints one JSON
// object on stdout; TF.js's notices and our progress go to stderr.
//
//   node time-tfjs.mjs MODEL [--backend cpu|wasm] [--warmup N] [--runs N] [--load-runs N]
//                            [--name NAME]
//
// MODEL is a model.json file (any name) or a folder holding model.json; graph and layers models
// are told apart by their "format". NAME picks the input-overrides.json entry (default: the file
// name without .json, or the folder name for model.json).
//
// Load: loadGraphModel / loadLayersModel from disk, repeated --load-runs times (default 5) in this
// same process, each model disposed before the next; load_ms is the median, load_first_ms the
// first (cold) one. Inference: each run feeds the inputs, executes (executeAsync for graphs with
// control flow or dynamic ops) and reads every output back (data()), as TF.js's benchmark does.
// first_ms is the first run (kernel set-up, weight upload), then --warmup runs (default 3) are
// discarded and --runs (default 20) are timed; --runs 0 skips inference. wasm runs single-threaded with its .wasm files
// from node_modules.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths, setThreadsCount } from '@tensorflow/tfjs-backend-wasm';
import { fileLoader } from './lib/fsio.mjs';
import { inputSpecs, loadOverrides } from './lib/inputs.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

function usage(msg) {
  console.error(`time-tfjs: ${msg}`);
  console.error('usage: node time-tfjs.mjs MODEL [--backend cpu|wasm] [--warmup N] [--runs N] [--load-runs N] [--name NAME]');
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { backend: 'cpu', warmup: 3, runs: 20, loadRuns: 5, name: null, model: null };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    const count = (min) => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < min) usage(`${a} needs an integer >= ${min}`);
      return n;
    };
    if (a === '--backend') opts.backend = value();
    else if (a === '--warmup') opts.warmup = count(0);
    else if (a === '--runs') opts.runs = count(0);
    else if (a === '--load-runs') opts.loadRuns = count(1);
    else if (a === '--name') opts.name = value();
    else if (a.startsWith('--')) usage(`unknown option ${a}`);
    else if (opts.model) usage('only one MODEL');
    else opts.model = a;
  }
  if (!opts.model) usage('MODEL is missing');
  if (!['cpu', 'wasm'].includes(opts.backend)) usage(`backend ${opts.backend}: cpu or wasm`);
  return opts;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const round = (x) => Math.round(x * 1000) / 1000;

async function startBackend(name) {
  if (name === 'wasm') {
    setWasmPaths(path.join(here, 'node_modules', '@tensorflow', 'tfjs-backend-wasm', 'dist') + path.sep);
    // Node has no cross-origin-isolated SharedArrayBuffer threads here; say so explicitly.
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
    setThreadsCount(1);
  }
  if (!(await tf.setBackend(name)) || tf.getBackend() !== name) throw new Error(`TF.js backend ${name} did not start`);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  let file = path.resolve(opts.model);
  if (fs.statSync(file).isDirectory()) file = path.join(file, 'model.json');
  const modelJson = JSON.parse(fs.readFileSync(file, 'utf8'));
  const kind = modelJson.format === 'layers-model' || modelJson.modelTopology?.class_name ? 'layers' : 'graph';
  const name = opts.name ?? (path.basename(file) === 'model.json' ? path.basename(path.dirname(file)) : path.basename(file, '.json'));

  await startBackend(opts.backend);
  const load = () => (kind === 'graph' ? tf.loadGraphModel(fileLoader(file)) : tf.loadLayersModel(fileLoader(file)));
  const loadTimes = [];
  let model;
  for (let i = 0; i < opts.loadRuns; ++i) {
    if (model) model.dispose();
    const t0 = performance.now();
    model = await load();
    loadTimes.push(performance.now() - t0);
  }

  const specs = inputSpecs(model, kind, modelJson, loadOverrides()[name]);
  const inputs = specs.map((s) => tf.tensor(s.values, s.shape, s.dtype));
  const feed = Object.fromEntries(specs.map((s, k) => [s.key, inputs[k]]));
  let useAsync = false;
  const infer = async () => {
    let out;
    if (kind === 'layers') out = model.predict(inputs.length === 1 ? inputs[0] : inputs);
    else if (useAsync) out = await model.executeAsync(feed, model.outputNodes);
    else {
      try {
        out = model.execute(feed, model.outputNodes);
      } catch (e) {
        if (!/executeAsync/.test(e.message)) throw e;
        useAsync = true;
        out = await model.executeAsync(feed, model.outputNodes);
      }
    }
    out = [out].flat();
    await Promise.all(out.map((t) => t.data()));
    tf.dispose(out);
  };
  const timed = async () => {
    const t0 = performance.now();
    await infer();
    return performance.now() - t0;
  };

  // --runs 0 times the load alone.
  const first = opts.runs ? await timed() : NaN;
  for (let i = 0; opts.runs && i < opts.warmup; ++i) await infer();
  const times = [];
  for (let i = 0; i < opts.runs; ++i) {
    times.push(await timed());
    console.error(`time-tfjs: run ${i + 1}/${opts.runs} ${times[i].toFixed(1)} ms`);
  }


  const result = {
    model: file,
    name,
    kind,
    backend: opts.backend,
    tfjs: tf.version.tfjs,
    threads: 1,
    simd: opts.backend === 'wasm' ? await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT') : null,
    execute: kind === 'layers' ? 'predict' : useAsync ? 'executeAsync' : 'execute',
    inputs: specs.map((s) => ({ name: s.name, shape: s.shape, dtype: s.dtype })),
    load_mode: 'same process',
    load_runs: opts.loadRuns,
    load_first_ms: round(loadTimes[0]),
    load_ms: round(median(loadTimes)),
    load_min_ms: round(Math.min(...loadTimes)),
    load_max_ms: round(Math.max(...loadTimes)),
    first_ms: opts.runs ? round(first) : null,
    warmup: opts.warmup,
    runs: opts.runs,
    median_ms: times.length ? round(median(times)) : null,
    min_ms: times.length ? round(Math.min(...times)) : null,
    max_ms: times.length ? round(Math.max(...times)) : null,
    times_ms: times.map(round),
    peak_rss_mb: round(process.resourceUsage().maxRSS / 1024),
  };

  process.stdout.write(JSON.stringify(result) + '\n');
  tf.dispose(inputs);
  model.dispose();
}

main().catch((e) => {
  console.error(`time-tfjs: ${e.stack ?? e}`);
  process.exit(1);
});
