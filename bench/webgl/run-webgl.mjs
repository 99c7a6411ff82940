// One model on TF.js 4.22's webgl backend in a fresh headless Chromium (Debian's, driven by
// playwright-core) on Mesa llvmpipe, fed the golden inputs of tests/reference; prints one JSON
// object on stdout (load, cold first inference, warm median/min/max) and writes the first run's
// outputs as OUT/output_K.npy + OUT/outputs.json (the layout of `tfjsi run --out`).
//
//   node run-webgl.mjs --golden DIR --reference DIR --precision fp32|fp16 --out DIR
//                      --profile-dir DIR [--warmup N] [--runs N] [--chromium PATH]
//                      [--timeout SECONDS] [--allow-renderer REGEX]
//
// --golden is tests/reference's golden/<model> folder (golden.json names the model, its kind, its
// inputs and how TF.js ran it). --profile-dir must not exist: it is made to hold this process's
// --user-data-dir, MESA_SHADER_CACHE_DIR and XDG_CACHE_HOME, so that nothing is compiled
// already (a cold start on both Chromium's and Mesa's shader caches). Everything is served from
// a local HTTP server on 127.0.0.1. The run fails unless tf.getBackend() is 'webgl', the WebGL
// renderer is llvmpipe (--allow-renderer to change) and the render textures are the precision
// asked for (a probe after the timed runs).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const TF_MIN_JS = path.join(here, 'node_modules', '@tensorflow', 'tfjs', 'dist', 'tf.min.js');

// shared/PLATFORM.md: ANGLE on desktop GL through EGL reaches Mesa without X; without
// --ignore-gpu-blocklist WebGL is refused and TF.js silently falls back to cpu.
export const CHROMIUM_ARGS = [
  '--use-gl=angle',
  '--use-angle=gl-egl',
  '--ignore-gpu-blocklist',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

function usage(msg) {
  console.error(`run-webgl: ${msg}`);
  console.error('usage: node run-webgl.mjs --golden DIR --reference DIR --precision fp32|fp16 --out DIR --profile-dir DIR [--warmup N] [--runs N] [--chromium PATH] [--timeout S] [--allow-renderer REGEX]');
  process.exit(2);
}

function parseArgs(argv) {
  const o = { warmup: 2, runs: 10, chromium: '/usr/bin/chromium', timeout: 1800, precision: 'fp32', allowRenderer: 'llvmpipe' };
  const keys = { '--golden': 'golden', '--reference': 'reference', '--precision': 'precision', '--out': 'out', '--profile-dir': 'profileDir', '--warmup': 'warmup', '--runs': 'runs', '--chromium': 'chromium', '--timeout': 'timeout', '--allow-renderer': 'allowRenderer' };
  for (let i = 0; i < argv.length; ++i) {
    const k = keys[argv[i]];
    if (!k) usage(`unknown argument ${argv[i]}`);
    if (i + 1 >= argv.length) usage(`${argv[i]} needs a value`);
    o[k] = argv[++i];
  }
  for (const k of ['golden', 'reference', 'out', 'profileDir']) if (!o[k]) usage(`--${k.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())} is missing`);
  if (!['fp32', 'fp16'].includes(o.precision)) usage('--precision is fp32 or fp16');
  for (const k of ['warmup', 'runs', 'timeout']) {
    o[k] = Number(o[k]);
    if (!Number.isInteger(o[k]) || o[k] < (k === 'warmup' ? 0 : 1)) usage(`--${k} needs a whole number`);
  }
  return o;
}

function npyBytes(data, shape, dtype) {
  const descr = { float32: '<f4', int32: '<i4', bool: '|b1' }[dtype];
  if (!descr) throw new Error(`output dtype ${dtype} has no .npy mapping here`);
  const shapeText = shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shapeText}, }`;
  header += ' '.repeat((64 - ((10 + header.length + 1) % 64)) % 64) + '\n';
  const pre = Buffer.alloc(10);
  Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]).copy(pre);
  pre.writeUInt16LE(header.length, 8);
  return Buffer.concat([pre, Buffer.from(header, 'latin1'), data]);
}

/** The local server: the page, tf.min.js, the model's folder, the inputs; outputs are POSTed. */
function serve(modelDir, goldenDir, outDir) {
  const page = `<!doctype html><meta charset="utf-8"><title>tfjsi webgl peer</title>
<script src="/tf.min.js"></script><script src="/page.js"></script>`;
  const inside = (root, rel) => {
    const p = path.resolve(root, rel);
    return p.startsWith(path.resolve(root) + path.sep) ? p : null;
  };
  const sendFile = (res, file, type) => {
    if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store' });
    fs.createReadStream(file).pipe(res);
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const p = decodeURIComponent(url.pathname);
    if (req.method === 'POST' && p === '/output') {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const k = Number(url.searchParams.get('k'));
        const shapeText = url.searchParams.get('shape');
        const shape = shapeText ? shapeText.split(',').map(Number) : [];
        const dtype = url.searchParams.get('dtype');
        fs.writeFileSync(path.join(outDir, `output_${k}.npy`), npyBytes(Buffer.concat(chunks), shape, dtype));
        res.writeHead(204).end();
      });
      return;
    }
    if (p === '/favicon.ico') res.writeHead(204).end();
    else if (p === '/') res.writeHead(200, { 'Content-Type': 'text/html' }).end(page);
    else if (p === '/tf.min.js') sendFile(res, TF_MIN_JS, 'text/javascript');
    else if (p === '/page.js') sendFile(res, path.join(here, 'page.js'), 'text/javascript');
    else if (p.startsWith('/model/')) sendFile(res, inside(modelDir, p.slice(7)), p.endsWith('.json') ? 'application/json' : 'application/octet-stream');
    else if (p.startsWith('/input/')) sendFile(res, inside(goldenDir, p.slice(7)), 'application/octet-stream');
    else res.writeHead(404).end();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const golden = JSON.parse(fs.readFileSync(path.join(o.golden, 'golden.json'), 'utf8'));
  if (golden.error) throw new Error(`${o.golden}: TF.js cpu could not run this model (${golden.error})`);
  const modelJson = path.isAbsolute(golden.model) ? golden.model : path.join(o.reference, golden.model);
  if (fs.existsSync(o.profileDir)) throw new Error(`--profile-dir ${o.profileDir} exists: it must be new, for a cold start`);
  const userData = path.join(o.profileDir, 'user-data');
  const mesaCache = path.join(o.profileDir, 'mesa_shader_cache');
  const xdgCache = path.join(o.profileDir, 'xdg-cache');
  for (const d of [userData, mesaCache, xdgCache, o.out]) fs.mkdirSync(d, { recursive: true });

  const server = await serve(path.dirname(modelJson), o.golden, o.out);
  const base = `http://127.0.0.1:${server.address().port}`;
  const cfg = {
    precision: o.precision,
    kind: golden.kind,
    execute: golden.execute,
    modelUrl: `${base}/model/${encodeURIComponent(path.basename(modelJson))}`,
    inputs: golden.inputs.map((e) => ({ name: e.name, key: e.key ?? e.name, url: `${base}/input/${encodeURIComponent(e.file)}` })),
    warmup: o.warmup,
    runs: o.runs,
  };

  let context;
  const timer = setTimeout(() => {
    console.error(`run-webgl: timed out after ${o.timeout} s`);
    process.exit(1);
  }, o.timeout * 1000);
  try {
    const t0 = performance.now();
    context = await chromium.launchPersistentContext(userData, {
      // Through chromium.sh, which keeps it from raising its own priority (see there).
      executablePath: path.join(here, 'chromium.sh'),
      headless: true,
      args: CHROMIUM_ARGS,
      // Playwright's default --enable-unsafe-swiftshader would let WebGL fall back to
      // SwiftShader where ANGLE on llvmpipe fails; we would rather fail.
      ignoreDefaultArgs: ['--enable-unsafe-swiftshader'],
      env: { ...process.env, MESA_SHADER_CACHE_DIR: mesaCache, XDG_CACHE_HOME: xdgCache, TFJSI_BENCH_CHROMIUM: o.chromium },
    });
    const browserVersion = context.browser()?.version() ?? null;
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (m) => console.error(`run-webgl: page ${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => console.error(`run-webgl: page error: ${e.message}`));
    await page.goto(`${base}/`);
    const launch_ms = performance.now() - t0;
    const r = await page.evaluate((c) => window.benchModel(c), cfg);
    if (!new RegExp(o.allowRenderer, 'i').test(r.gl.renderer)) {
      throw new Error(`WebGL renderer is "${r.gl.renderer}", not ${o.allowRenderer}: check the Chromium flags and Mesa`);
    }
    if (r.probe.fp16 !== (o.precision === 'fp16')) {
      throw new Error(`asked for ${o.precision} but the probe read ${r.probe.read} for ${r.probe.wrote}: render textures are ${r.probe.fp16 ? 'half' : 'full'} float`);
    }
    if (r.outputs.length !== golden.outputs.length) {
      throw new Error(`${r.outputs.length} outputs, the golden data has ${golden.outputs.length}`);
    }
    const outputs = r.outputs.map((e, k) => ({ name: golden.outputs[k].name, ...e }));
    fs.writeFileSync(path.join(o.out, 'outputs.json'), JSON.stringify(outputs, null, 1) + '\n');
    const result = {
      model: modelJson,
      golden: o.golden,
      side: 'tfjs-webgl',
      browser: `${browserVersion}`,
      chromium_args: CHROMIUM_ARGS,
      launch_ms,
      ...r,
      outputs,
    };
    process.stdout.write(JSON.stringify(result) + '\n');
  } finally {
    clearTimeout(timer);
    if (context) await context.close();
    server.close();
  }
}

main().catch((e) => {
  console.error(`run-webgl: ${e.stack ?? e}`);
  process.exit(1);
});
