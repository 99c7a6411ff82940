// Runs inside the page that run-webgl.mjs serves: TF.js 4.22 (tf.min.js) on its webgl backend.
// window.benchModel(cfg) loads one model over HTTP from the local server, times its first
// inference (shader compile, weight upload, every output read back with data()) and warm ones,
// posts the first run's outputs back as .npy, and returns the figures.
/* global tf */

function parseNpy(buf) {
  const bytes = new Uint8Array(buf);
  if (bytes[0] !== 0x93 || String.fromCharCode(...bytes.slice(1, 6)) !== 'NUMPY') throw new Error('not a .npy file');
  const major = bytes[6];
  const view = new DataView(buf);
  const headerLen = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const start = major === 1 ? 10 : 12;
  const header = new TextDecoder('latin1').decode(bytes.slice(start, start + headerLen));
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  if (/'fortran_order':\s*True/.test(header)) throw new Error('Fortran-order .npy');
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(header)[1];
  const shape = shapeText.split(',').map((s) => s.trim()).filter(Boolean).map(Number);
  const data = buf.slice(start + headerLen);
  if (descr === '<f4') return { dtype: 'float32', shape, values: new Float32Array(data) };
  if (descr === '<i4') return { dtype: 'int32', shape, values: new Int32Array(data) };
  if (descr === '|b1' || descr === '|u1') return { dtype: 'bool', shape, values: new Uint8Array(data) };
  throw new Error(`.npy dtype ${descr} is not handled here`);
}

async function fetchOk(url, init) {
  const r = await fetch(url, init);
  if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
  return r;
}

function rendererInfo() {
  const gl = tf.backend().gpgpu.gl;
  const dbg = gl.getExtension('WEBGL_debug_renderer_info');
  return {
    renderer: dbg ? gl.getParameter(dbg.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER),
    vendor: dbg ? gl.getParameter(dbg.UNMASKED_VENDOR_WEBGL) : gl.getParameter(gl.VENDOR),
    version: gl.getParameter(gl.VERSION),
  };
}

// A value that half floats cannot hold, written by a GPU kernel (4096 elements: above TF.js's
// cpu hand-off threshold, so it runs on webgl) and read back: tells which precision the render
// textures really had.
async function precisionProbe() {
  const v = 1.0001;
  const a = tf.fill([64, 64], v);
  const z = tf.zeros([64, 64]);
  const s = tf.add(a, z);
  const got = (await s.data())[0];
  tf.dispose([a, z, s]);
  return { wrote: Math.fround(v), read: got, fp16: got !== Math.fround(v) };
}

window.benchModel = async function benchModel(cfg) {
  const result = { tfjs: tf.version.tfjs, precision: cfg.precision };
  const fp16 = cfg.precision === 'fp16';
  // Flags before the backend starts: WEBGL_RENDER_FLOAT32_ENABLED is evaluated from
  // WEBGL_FORCE_F16_TEXTURES, but set both so that neither depends on evaluation order.
  tf.env().set('WEBGL_FORCE_F16_TEXTURES', fp16);
  if (fp16) tf.env().set('WEBGL_RENDER_FLOAT32_ENABLED', false);
  let t0 = performance.now();
  const started = await tf.setBackend('webgl');
  await tf.ready();
  result.backend_init_ms = performance.now() - t0;
  result.backend = tf.getBackend();
  if (!started || result.backend !== 'webgl') throw new Error(`TF.js webgl backend did not start (backend: ${result.backend})`);
  result.gl = rendererInfo();
  result.flags = {};
  for (const f of ['WEBGL_VERSION', 'WEBGL_FORCE_F16_TEXTURES', 'WEBGL_RENDER_FLOAT32_ENABLED', 'WEBGL_RENDER_FLOAT32_CAPABLE', 'WEBGL_PACK', 'WEBGL_CPU_FORWARD', 'WEBGL_USE_SHAPES_UNIFORMS']) {
    result.flags[f] = tf.env().get(f);
  }

  t0 = performance.now();
  const model = cfg.kind === 'graph' ? await tf.loadGraphModel(cfg.modelUrl) : await tf.loadLayersModel(cfg.modelUrl);
  result.load_ms = performance.now() - t0;

  const specs = [];
  for (const inp of cfg.inputs) {
    const npy = parseNpy(await (await fetchOk(inp.url)).arrayBuffer());
    specs.push({ ...inp, npy });
  }
  const inputs = specs.map((s) => tf.tensor(s.npy.values, s.npy.shape, s.npy.dtype));
  const feed = Object.fromEntries(specs.map((s, k) => [s.key, inputs[k]]));

  // As make-golden.mjs runs them: predict for layers; execute, or executeAsync where the graph
  // needs it (control flow, dynamic ops).
  let mode = cfg.kind === 'layers' ? 'predict' : cfg.execute === 'executeAsync' ? 'executeAsync' : 'execute';
  const run = async () => {
    let out;
    if (mode === 'predict') out = model.predict(inputs.length === 1 ? inputs[0] : inputs);
    else if (mode === 'executeAsync') out = await model.executeAsync(feed, model.outputNodes);
    else {
      try {
        out = model.execute(feed, model.outputNodes);
      } catch (e) {
        if (!/executeAsync/.test(e.message)) throw e;
        mode = 'executeAsync';
        out = await model.executeAsync(feed, model.outputNodes);
      }
    }
    out = [out].flat();
    const data = await Promise.all(out.map((t) => t.data()));
    const meta = out.map((t) => ({ shape: t.shape, dtype: t.dtype }));
    tf.dispose(out);
    return { data, meta };
  };

  t0 = performance.now();
  const first = await run();
  result.first_ms = performance.now() - t0;
  result.execute = mode;

  // The first run's outputs, as .npy through the local server.
  result.outputs = [];
  for (let k = 0; k < first.data.length; ++k) {
    const { shape, dtype } = first.meta[k];
    const q = new URLSearchParams({ k: String(k), shape: shape.join(','), dtype });
    await fetchOk(`/output?${q}`, { method: 'POST', body: first.data[k] });
    result.outputs.push({ file: `output_${k}.npy`, shape, dtype });
  }
  first.data.length = 0;

  for (let i = 0; i < cfg.warmup; ++i) await run();
  const times = [];
  for (let i = 0; i < cfg.runs; ++i) {
    t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const m = sorted.length >> 1;
  result.warmup = cfg.warmup;
  result.runs = cfg.runs;
  result.times_ms = times;
  result.median_ms = sorted.length % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
  result.min_ms = sorted[0];
  result.max_ms = sorted[sorted.length - 1];

  result.probe = await precisionProbe();
  // TF.js 4.22 reports the two modes the wrong way round (shared/PLATFORM.md): kept as told.
  result.float_precision_reported = tf.backend().floatPrecision();
  result.memory = tf.memory();
  tf.dispose(inputs);
  model.dispose();
  return result;
};
