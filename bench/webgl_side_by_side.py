#!/usr/bin/env python3
"""tfjsi's gl backend beside TF.js 4.22's webgl backend, both on Mesa llvmpipe, both cold.

For each model, one after the other and alternating which side goes first, in fp32 and fp16:
  - TF.js webgl: bench/webgl/run-webgl.mjs, a fresh headless Chromium (Debian's) per model and
    precision, with a fresh --user-data-dir, MESA_SHADER_CACHE_DIR and XDG_CACHE_HOME; fp16 is
    WEBGL_FORCE_F16_TEXTURES=true (WEBGL_RENDER_FLOAT32_ENABLED=false), checked by a probe;
  - ours: `tfjsi bench MODEL --backend gl [--precision fp16] --json` in a fresh process with a new
    XDG_CACHE_HOME and MESA_SHADER_CACHE_DIR (cold), the same again on the caches it left (warm
    cache), and in fp16 also once on the fp32 run's caches (precision switch, a second process)
    and once as a live switch (`--switch-from fp32` on fresh caches: a cold fp32 first run, then
    fp16 in the same process, as the app switches); then `tfjsi run --backend gl --out DIR` for
    the outputs (untimed).
Both sides are fed the golden inputs of tests/reference (DESIGN.md's deterministic generator, with
input-overrides.json), and both sides' first-run outputs are compared with TF.js cpu's golden
outputs: for each float output max|x - golden| / max(1, max|golden|), the largest over a model's
outputs (inf where one side has NaN/inf that the golden has not).

Writes bench/results/webgl-side-by-side-<date>.md (or --out) and the raw figures beside it as
.json; --render JSON... writes the table again from such files (merging models).

usage: bench/webgl_side_by_side.py [--tfjsi PATH] [--models A,B,... | --all] [--precisions fp32,fp16]
                                  [--runs N] [--warmup N] [--out FILE.md] [--reference DIR]
       bench/webgl_side_by_side.py --render RAW.json... [--out FILE.md]
       bench/webgl_side_by_side.py --summary RAW.json... [--out FILE.md]  (#19's ratios per pass, medians)
Run bench/webgl/setup.sh once first (Chromium from Debian, npm ci).
"""
import argparse
import datetime
import glob
import hashlib
import json
import math
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from array import array

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WEBGL_DIR = os.path.join(ROOT, "bench", "webgl")
RUNNER = os.path.join(WEBGL_DIR, "run-webgl.mjs")
DEFAULT_MODELS = ["movenet-lightning", "blazeface", "selfie", "emotion", "func_depthwise"]
# The layers model of the five: the reference set has no Keras MobileNet v2; func_depthwise is its
# MobileNet-like one (depthwise and separable convolutions, batch norm, relu6).
PRECISIONS = ["fp32", "fp16"]


def log(msg):
    print(f"webgl-bench: {msg}", file=sys.stderr, flush=True)


def load_average():
    with open("/proc/loadavg") as f:
        return [float(x) for x in f.read().split()[:3]]


def uptime():
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


# ---- .npy and errors ----

def read_npy(path):
    """(descr, shape, values as a flat sequence) of a NumPy 1.0/2.0 file, C order."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY":
        raise ValueError(f"{path}: not a .npy file")
    if data[6] == 1:
        hlen, start = struct.unpack("<H", data[8:10])[0], 10
    else:
        hlen, start = struct.unpack("<I", data[8:12])[0], 12
    header = data[start:start + hlen].decode("latin1")
    hd = eval(header, {"__builtins__": {}}, {"True": True, "False": False})  # a Python dict literal
    if hd["fortran_order"]:
        raise ValueError(f"{path}: Fortran order")
    body = data[start + hlen:]
    descr = hd["descr"]
    codes = {"<f4": "f", "<i4": "i", "<i8": "q", "|b1": "B", "|u1": "B"}
    if descr == "<f2":
        n = len(body) // 2
        values = list(struct.unpack(f"<{n}e", body))
    elif descr in codes:
        values = array(codes[descr])
        values.frombytes(body)
        if sys.byteorder != "little" and values.itemsize > 1:
            values.byteswap()
    else:
        raise ValueError(f"{path}: dtype {descr} not handled")
    return descr, list(hd["shape"]), values


def output_error(ours_path, golden_path):
    """{'error': scaled max error or None, 'mismatch': int share} of one output against its golden."""
    d1, s1, x = read_npy(ours_path)
    d2, s2, y = read_npy(golden_path)
    if s1 != s2:
        return {"error": math.inf, "note": f"shape {s1}, golden {s2}"}
    if d2 not in ("<f4", "<f2"):
        diff = sum(1 for a, b in zip(x, y) if a != b)
        return {"error": None, "mismatch": diff / max(1, len(y))}
    max_golden = 0.0
    max_err = 0.0
    for a, b in zip(x, y):
        if math.isfinite(b):
            if abs(b) > max_golden:
                max_golden = abs(b)
            if math.isfinite(a):
                e = abs(a - b)
                if e > max_err:
                    max_err = e
                continue
        if not ((math.isnan(a) and math.isnan(b)) or a == b):
            max_err = math.inf
    return {"error": max_err / max(1.0, max_golden), "max_golden": max_golden}


def model_error(out_dir, golden_dir, golden):
    """Largest scaled error over the float outputs, and each output's figures."""
    with open(os.path.join(out_dir, "outputs.json")) as f:
        outs = json.load(f)
    if len(outs) != len(golden["outputs"]):
        raise RuntimeError(f"{len(outs)} outputs, golden has {len(golden['outputs'])}")
    per = []
    worst = None
    for k, g in enumerate(golden["outputs"]):
        r = output_error(os.path.join(out_dir, outs[k]["file"]), os.path.join(golden_dir, g["file"]))
        r["name"] = g["name"]
        per.append(r)
        if r["error"] is not None and (worst is None or r["error"] > worst):
            worst = r["error"]
    return {"max": worst, "outputs": per}


# ---- the two sides ----

def input_args(golden_dir, golden):
    args = []
    for e in golden["inputs"]:
        args += ["--input", f"{e.get('key', e['name'])}={os.path.join(golden_dir, e['file'])}"]
    return args


def model_path(reference, golden):
    p = golden["model"]
    return p if os.path.isabs(p) else os.path.join(reference, p)


def run_json(cmd, timeout, env=None, nice=0):
    t0 = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    wall = (time.monotonic() - t0) * 1000
    if proc.returncode != 0:
        lines = [ln for ln in proc.stderr.strip().splitlines() if ln.strip()]
        said = next((ln.strip() for ln in lines if "rror" in ln), lines[-1] if lines else "")
        raise RuntimeError(f"{os.path.basename(cmd[0])} {cmd[1]} exit {proc.returncode}: {said}")
    j = json.loads(proc.stdout)
    j["process_wall_ms"] = wall
    return j


def ours_env(cache):
    os.makedirs(os.path.join(cache, "xdg"), exist_ok=True)
    os.makedirs(os.path.join(cache, "mesa_shader_cache"), exist_ok=True)
    return dict(os.environ, XDG_CACHE_HOME=os.path.join(cache, "xdg"),
                MESA_SHADER_CACHE_DIR=os.path.join(cache, "mesa_shader_cache"))


def ours_bench(args, model, inputs, precision, cache, extra=()):
    cmd = [args.tfjsi, "bench", model, "--backend", "gl", "--precision", precision, "--warmup",
           str(args.warmup), "--runs", str(args.runs), "--json"] + inputs + ours_flags(args) + list(extra)
    j = run_json(cmd, args.timeout, ours_env(cache))
    if j.get("backend") != "gl":
        raise RuntimeError(f"tfjsi ran on {j.get('backend')}, not gl")
    return j


def ours_outputs(args, model, inputs, precision, cache, out_dir):
    cmd = [args.tfjsi, "run", model, "--backend", "gl", "--precision", precision, "--out", out_dir,
           "--json"] + inputs + ours_flags(args)
    return run_json(cmd, args.timeout, ours_env(cache))


def ours_flags(args):
    return [a for f in args.ours_flag for a in ("--flag", f)]


def webgl_run(args, golden_dir, precision, work):
    runs, warmup = (1, 0) if args.errors_only else (args.runs, args.warmup)
    out_dir = os.path.join(work, f"webgl-{precision}-out")
    profile = tempfile.mkdtemp(prefix=f"webgl-{precision}-", dir=work)
    os.rmdir(profile)  # run-webgl.mjs makes it, and refuses one that exists
    cmd = ["node", RUNNER, "--golden", golden_dir, "--reference", args.reference, "--precision",
           precision, "--out", out_dir, "--profile-dir", profile, "--warmup", str(warmup),
           "--runs", str(runs), "--chromium", args.chromium, "--timeout", str(int(args.timeout))]
    try:
        j = run_json(cmd, args.timeout + 60)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return j, out_dir


# ---- one model ----

KEEP = ("load_ms", "first_ms", "median_ms", "min_ms", "max_ms", "times_ms", "compile_ms", "upload_ms",
        "new_programs", "cache_hit", "peak_rss_mb", "backend_init_ms", "launch_ms", "process_wall_ms",
        "execute", "flags", "probe", "float_precision_reported", "gl", "browser", "precision", "chromium_args",
        "switched_from")


def live_cold(row):
    """The cold fp32 first run of the live-switch process (before its switch to fp16)."""
    return (get(row, "ours-fp16-live-switch", "switched_from") or {}).get("first_ms") if row else None


def live_ratio(row):
    return ratio(get(row, "ours-fp16-live-switch", "first_ms"), live_cold(row)) if row else None


def slim(j):
    return {k: j[k] for k in KEEP if k in j}


def measure_model(args, name, index, work):
    gdir = os.path.join(args.reference, "golden", name)
    with open(os.path.join(gdir, "golden.json")) as f:
        golden = json.load(f)
    row = {"name": name, "kind": golden["kind"], "load_before": load_average(), "runs": {}, "errors": {},
           "failures": {}}
    if "error" in golden:
        row["failures"]["golden"] = golden["error"]
        return row
    model = model_path(args.reference, golden)
    inputs = input_args(gdir, golden)
    mwork = tempfile.mkdtemp(prefix=f"{name}-", dir=work)
    caches = {p: os.path.join(mwork, f"ours-{p}-cache") for p in args.precisions}

    def attempt(key, fn):
        try:
            t0 = time.monotonic()
            r = fn()
            log(f"{name} {key}: {describe(r[0] if isinstance(r, tuple) else r)} "
                f"({time.monotonic() - t0:.0f} s)")
            return r
        except Exception as e:  # noqa: BLE001 - the table says which side failed and why
            row["failures"][key] = str(e)
            log(f"{name} {key}: FAILED: {e}")
            return None

    def webgl(p):
        r = attempt(f"webgl-{p}", lambda: webgl_run(args, gdir, p, mwork))
        if r:
            row["runs"][f"webgl-{p}"] = slim(r[0])
            err = attempt(f"webgl-{p}:error", lambda: model_error(r[1], gdir, golden))
            if err:
                row["errors"][f"webgl-{p}"] = err

    def ours(p):
        r = attempt(f"ours-{p}-cold", lambda: ours_bench(args, model, inputs, p, caches[p]))
        if r:
            row["runs"][f"ours-{p}-cold"] = slim(r)
            r = attempt(f"ours-{p}-warm", lambda: ours_bench(args, model, inputs, p, caches[p]))
            if r:
                row["runs"][f"ours-{p}-warm"] = slim(r)
        if p == "fp16" and "fp32" in args.precisions and f"ours-fp32-warm" in row["runs"]:
            # The precision switch of #19: fp16 in a new process whose caches hold fp32's programs.
            switch = os.path.join(mwork, "ours-switch-cache")
            shutil.copytree(caches["fp32"], switch)
            r = attempt("ours-fp16-after-fp32", lambda: ours_bench(args, model, inputs, "fp16", switch))
            if r:
                row["runs"]["ours-fp16-after-fp32"] = slim(r)
            shutil.rmtree(switch, ignore_errors=True)
            # The same switch live, as the app makes it: one process on fresh caches, its cold
            # fp32 first run, then fp16 (tfjsi bench --switch-from).
            live = os.path.join(mwork, "ours-live-cache")
            r = attempt("ours-fp16-live-switch",
                        lambda: ours_bench(args, model, inputs, "fp16", live, ["--switch-from", "fp32"]))
            if r:
                row["runs"]["ours-fp16-live-switch"] = slim(r)
            shutil.rmtree(live, ignore_errors=True)

    order = [webgl, ours] if index % 2 == 0 else [ours, webgl]
    order = [s for s in order if s.__name__ in args.sides]
    for p in args.precisions:
        for side in order:
            if not (args.errors_only and side is ours):  # then ours is the untimed run below
                side(p)
    for p in args.precisions:
        if "ours" not in args.sides or (f"ours-{p}-cold" not in row["runs"] and not args.errors_only):
            continue
        out_dir = os.path.join(mwork, f"ours-{p}-out")
        r = attempt(f"ours-{p}-run", lambda: ours_outputs(args, model, inputs, p, caches[p], out_dir))
        if r:
            row["runs"][f"ours-{p}-run"] = {"process_wall_ms": r["process_wall_ms"]}
            err = attempt(f"ours-{p}:error", lambda: model_error(out_dir, gdir, golden))
            if err:
                row["errors"][f"ours-{p}"] = err
    row["load_after"] = load_average()
    if not args.keep:
        shutil.rmtree(mwork, ignore_errors=True)
    return row


def describe(j):
    if not isinstance(j, dict):
        return "ok"
    if "first_ms" in j:
        return f"first {j['first_ms']:.0f} ms, warm median {j['median_ms']:.1f} ms"
    if "max" in j:
        return f"max error {j['max']}"
    return "ok"


# ---- the machine and the two sides' versions ----

def environment(args):
    env = {"date": datetime.datetime.now().isoformat(timespec="seconds"), "uptime_start": uptime(),
           "cpu": "", "cores": os.cpu_count(), "tfjsi": os.path.abspath(args.tfjsi)}
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                env["cpu"] = line.split(":", 1)[1].strip()
                break
    if "ours" in args.sides:
        with open(args.tfjsi, "rb") as f:
            env["tfjsi_sha256"] = hashlib.sha256(f.read()).hexdigest()[:16]
        env["tfjsi_mtime"] = datetime.datetime.fromtimestamp(os.path.getmtime(args.tfjsi)).isoformat(timespec="seconds")
        repo = os.path.dirname(os.path.abspath(args.tfjsi))
        head = subprocess.run(["git", "-C", repo, "log", "-1", "--format=%h %s"], capture_output=True, text=True)
        env["tfjsi_repo_head"] = head.stdout.strip() if head.returncode == 0 else None
    mesa = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "libgl1-mesa-dri"], capture_output=True, text=True)
    env["mesa"] = mesa.stdout.strip() or None
    chrome = subprocess.run([args.chromium, "--version"], capture_output=True, text=True)
    env["chromium"] = chrome.stdout.strip() or None
    if "ours" in args.sides:
        try:
            e = run_json([args.tfjsi, "env", "--json"], 300)
            env["tfjsi_backends"] = e.get("backends")
        except Exception as ex:  # noqa: BLE001
            env["tfjsi_backends"] = str(ex)
    return env


def default_reference():
    if os.environ.get("TFJSI_REFERENCE_DIR"):
        return os.environ["TFJSI_REFERENCE_DIR"]
    cache = os.environ.get("TFJSI_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "tfjs-inspector")
    done = sorted(glob.glob(os.path.join(cache, "reference", "*", ".complete")), key=os.path.getmtime)
    return os.path.dirname(done[-1]) if done else None


def all_models(reference):
    """Every corpus and reference layers model with golden data (TF.js cpu could run it)."""
    names = []
    for gj in sorted(glob.glob(os.path.join(reference, "golden", "*", "golden.json"))):
        with open(gj) as f:
            g = json.load(f)
        if "error" not in g:
            names.append(os.path.basename(os.path.dirname(gj)))
    return names


# ---- the table ----

def fmt_ms(x):
    if x is None:
        return "-"
    return f"{x:.0f}" if x >= 100 else f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def fmt_err(x):
    if x is None:
        return "-"
    if math.isinf(x):
        return "inf"
    return "0" if x == 0 else f"{x:.1e}"


def ratio(a, b):
    return a / b if a is not None and b else None


def fmt_ratio(r):
    return "-" if r is None else f"{r:.2f}"


def get(row, key, field):
    return row["runs"].get(key, {}).get(field)


def render(data):
    env = data["environment"]
    rows = data["rows"]
    precisions = data["precisions"]
    out = [f"# tfjsi gl beside TF.js {data.get('tfjs', '4.22.0')} webgl, both on Mesa llvmpipe", ""]
    passes = data.get("passes", [data["command"]])
    out.append(f"Made by `{'`, then `'.join(passes)}` (passes merged with `--render`); the first started {env['date']}."
               if len(passes) > 1 else f"Made by `{data['command']}` on {env['date']}.")
    out.append("")
    out.append(f"- tfjsi: `{env['tfjsi']}` (sha256 {env.get('tfjsi_sha256')}, built {env.get('tfjsi_mtime')}; "
               f"checkout at {env.get('tfjsi_repo_head')})")
    out.append(f"- TF.js webgl: {env.get('chromium')} (Debian), headless, driven by playwright-core; flags "
               f"`{' '.join(data.get('chromium_args', []))}`; WebGL renderer "
               f"\"{data.get('renderer')}\"")
    out.append(f"- Mesa {env.get('mesa')}; {env['cpu']}, {env['cores']} cores")
    out.append(f"- machine load: at the start `{env['uptime_start']}`; at the end `{env.get('uptime_end')}`; "
               "the 1-minute load average before each model is in the last column. Other tenants share "
               "this machine: read ratios, not absolute times.")
    if data.get("errors_only"):
        out.append("- errors only (`--errors-only`): TF.js one inference per Chromium process, tfjsi one "
                   "`tfjsi run --out` per model and precision; errors do not depend on machine load.")
    else:
        out.append(f"- each process: load, one first inference (timed), {data['warmup']} warm-up runs, "
                   f"{data['runs']} timed runs (median, min-max). TF.js reads every output back "
                   "(`await data()`); tfjsi's runs return host tensors.")
    out.append("- **cold**: TF.js in a new Chromium with a new `--user-data-dir`, `MESA_SHADER_CACHE_DIR` "
               "and `XDG_CACHE_HOME`; tfjsi in a new process with a new `XDG_CACHE_HOME` (its "
               "program binaries) and `MESA_SHADER_CACHE_DIR`. **warm cache**: tfjsi again on the "
               "caches the cold process left. **fp16 after fp32**: tfjsi fp16 on a copy of the "
               "caches the fp32 processes left (the precision switch of #19). **live switch**: one "
               "tfjsi process on fresh caches, a cold fp32 first run, then fp16 in the same process "
               "(`tfjsi bench --switch-from fp32`, the app's switch); its ratio is to that process's "
               "own cold fp32 first.")
    out.append("- fp16: TF.js with `WEBGL_FORCE_F16_TEXTURES=true`, `WEBGL_RENDER_FLOAT32_ENABLED=false` "
               "(a probe written by a kernel and read back checks that render textures are half "
               "floats); tfjsi `--precision fp16` (RGBA16F).")
    out.append("- inputs: tests/reference's golden inputs (DESIGN.md's generator, input-overrides.json), "
               "the same files on both sides. **error** = max over float outputs of "
               "max|x - golden| / max(1, max|golden|), golden = TF.js 4.22 cpu; the first run's outputs "
               "on both sides.")
    out.append("")

    for p in ([] if data.get("errors_only") else precisions):
        out.append(f"## Time, {p} (ms)")
        out.append("")
        cols = ["model", "ours load", "TF.js load", "ours first (cold)", "TF.js first (cold)",
                "ratio first", "ours first (warm cache)"]
        if p == "fp16" and "fp32" in precisions:
            cols += ["ours first (fp16 after fp32)", "ours first (live switch) / its cold fp32"]
        cols += ["ours warm median (min-max)", "TF.js warm median (min-max)", "ratio warm",
                 "ours compile_ms / new programs (cold)", "load avg"]
        out.append("| " + " | ".join(cols) + " |")
        out.append("|" + "---|" * len(cols))
        for row in rows:
            oc, ow, w = f"ours-{p}-cold", f"ours-{p}-warm", f"webgl-{p}"
            cells = [row["name"] + (" (layers)" if row.get("kind") == "layers" else ""),
                     fmt_ms(get(row, oc, "load_ms")), fmt_ms(get(row, w, "load_ms")),
                     fmt_ms(get(row, oc, "first_ms")), fmt_ms(get(row, w, "first_ms")),
                     fmt_ratio(ratio(get(row, oc, "first_ms"), get(row, w, "first_ms"))),
                     fmt_ms(get(row, ow, "first_ms"))]
            if p == "fp16" and "fp32" in precisions:
                cells.append(fmt_ms(get(row, "ours-fp16-after-fp32", "first_ms")))
                lf, lc = get(row, "ours-fp16-live-switch", "first_ms"), live_cold(row)
                cells.append("-" if lf is None else f"{fmt_ms(lf)} / {fmt_ms(lc)}")

            def warm(k):
                m = get(row, k, "median_ms")
                return "-" if m is None else f"{fmt_ms(m)} ({fmt_ms(get(row, k, 'min_ms'))}-{fmt_ms(get(row, k, 'max_ms'))})"
            cells += [warm(oc), warm(w), fmt_ratio(ratio(get(row, oc, "median_ms"), get(row, w, "median_ms")))]
            cp, npg = get(row, oc, "compile_ms"), get(row, oc, "new_programs")
            cells.append("-" if cp is None else f"{fmt_ms(cp)} / {npg}")
            cells.append(f"{row['load_before'][0]:.1f}")
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
        out.append("ratio = ours / TF.js (below 1: ours faster); warm median is ours cold process's "
                   "(the warm-cache process's is in the JSON).")
        out.append("")

    # #19's targets on the timing table.
    if "fp32" in precisions and not data.get("errors_only"):
        fr = [(row["name"], ratio(get(row, "ours-fp32-cold", "first_ms"), get(row, "webgl-fp32", "first_ms")))
              for row in rows]
        wr = [(row["name"], ratio(get(row, "ours-fp32-cold", "median_ms"), get(row, "webgl-fp32", "median_ms")))
              for row in rows]
        fr = [(n, r) for n, r in fr if r is not None]
        wr = [(n, r) for n, r in wr if r is not None]
        out.append("#19's targets (fp32): cold first <= 1/5 of TF.js webgl's on "
                   f"**{sum(1 for _, r in fr if r <= 0.2)} of {len(fr)}**; warm median <= 1/2 on "
                   f"**{sum(1 for _, r in wr if r <= 0.5)} of {len(wr)}**.")
        if "fp16" in precisions:
            sw = []
            for row in rows:
                a, b = get(row, "ours-fp16-after-fp32", "first_ms"), get(row, "ours-fp32-cold", "first_ms")
                if a is not None and b:
                    sw.append(a / b)
            out.append(f"Precision switch (fp16 first on fp32's caches <= 1/10 of cold fp32 first): "
                       f"**{sum(1 for r in sw if r <= 0.1)} of {len(sw)}** "
                       f"(ratios {', '.join(f'{r:.2f}' for r in sw)}).")
            lv = [r for r in (live_ratio(row) for row in rows) if r is not None]
            out.append(f"Live switch (fp16 first after a cold fp32 first in one process <= 1/10 of it): "
                       f"**{sum(1 for r in lv if r <= 0.1)} of {len(lv)}** "
                       f"(ratios {', '.join(f'{r:.2f}' for r in lv)}).")
        out.append("")

    out.append("## Error against TF.js cpu")
    out.append("")
    cols = ["model"]
    for p in precisions:
        cols += [f"ours gl {p}", f"TF.js webgl {p}"]
    if "fp16" in precisions:
        cols += ["fp16 ratio ours / TF.js", "#24: 0.5x-2x (or both < 1e-4)"]
    cols.append("worst output (ours fp16)" if "fp16" in precisions else "worst output")
    out.append("| " + " | ".join(cols) + " |")
    out.append("|" + "---|" * len(cols))
    within = total = 0
    for row in rows:
        cells = [row["name"] + (" (layers)" if row.get("kind") == "layers" else "")]
        for p in precisions:
            cells += [fmt_err(row["errors"].get(f"ours-{p}", {}).get("max")),
                      fmt_err(row["errors"].get(f"webgl-{p}", {}).get("max"))]
        if "fp16" in precisions:
            a = row["errors"].get("ours-fp16", {}).get("max")
            b = row["errors"].get("webgl-fp16", {}).get("max")
            if a is None or b is None:
                cells += ["-", "-"]
            else:
                total += 1
                if b <= 1e-4 and a <= 1e-4:
                    ok, r = True, None
                elif b == 0 or math.isinf(a) or math.isinf(b):
                    ok, r = a == b, None
                else:
                    r = a / b
                    ok = b > 1e-4 and 0.5 <= r <= 2
                within += ok
                cells += [fmt_ratio(r) if r is not None else "-", "yes" if ok else "**no**"]
        key = "ours-fp16" if "fp16" in precisions else f"ours-{precisions[0]}"
        outs = row["errors"].get(key, {}).get("outputs", [])
        worst = max((o for o in outs if o.get("error") is not None), key=lambda o: o["error"], default=None)
        cells.append(f"`{worst['name']}`" if worst and len(outs) > 1 else "")
        out.append("| " + " | ".join(cells) + " |")
    out.append("")
    if "fp16" in precisions:
        out.append(f"fp16 within 0.5x-2x of TF.js webgl's (or both under 1e-4): **{within} of {total}**. "
                   "Integer and boolean outputs are left out of the error (their mismatch share is in the JSON).")
        out.append("")
    fails = [(row["name"], k, v) for row in rows for k, v in row["failures"].items()]
    if fails:
        out.append("## Failures")
        out.append("")
        for n, k, v in fails:
            out.append(f"- {n}, {k}: {v}")
        out.append("")
    return "\n".join(out)


def summarize(files, datas):
    """#19's three ratios per model over complete passes (each with both sides), pass by pass and
    their median: one pass on a shared machine swings a ratio by 1.5x or more."""
    out = ["# tfjsi gl beside TF.js webgl: #19's ratios over several passes", ""]
    out.append(f"From {len(datas)} passes of `bench/webgl_side_by_side.py` (each alternating the two "
               "sides model by model): " + ", ".join(f"`{os.path.basename(f)}`" for f in files) + ". "
               "A ratio is ours / TF.js's within one pass; the median is over the passes.")
    out.append("")
    for d, f in zip(datas, files):
        env = d["environment"]
        out.append(f"- `{os.path.basename(f)}`: tfjsi sha256 {env.get('tfjsi_sha256')}, load "
                   f"`{env['uptime_start'].split('load average:')[-1].strip()}` at the start")
    out.append("")
    names = [r["name"] for r in datas[0]["rows"]]
    kinds = {r["name"]: r.get("kind") for r in datas[0]["rows"]}

    def per_pass(name, fn):
        vals = []
        for d in datas:
            row = next((r for r in d["rows"] if r["name"] == name), None)
            v = fn(row) if row else None
            vals.append(v)
        return vals

    metrics = [
        ("cold first, fp32", 0.2, lambda r: ratio(get(r, "ours-fp32-cold", "first_ms"), get(r, "webgl-fp32", "first_ms"))),
        ("warm median, fp32", 0.5, lambda r: ratio(get(r, "ours-fp32-cold", "median_ms"), get(r, "webgl-fp32", "median_ms"))),
        ("fp16 first after fp32 / cold fp32 first", 0.1,
         lambda r: ratio(get(r, "ours-fp16-after-fp32", "first_ms"), get(r, "ours-fp32-cold", "first_ms"))),
        ("live switch: fp16 first / its cold fp32 first", 0.1, live_ratio),
    ]
    cols = ["model"]
    for m, target, _ in metrics:
        cols += [f"{m} (target <= {target}): per pass", "median"]
    out.append("| " + " | ".join(cols) + " |")
    out.append("|" + "---|" * len(cols))
    met = {m: 0 for m, _, _ in metrics}
    for n in names:
        cells = [n + (" (layers)" if kinds[n] == "layers" else "")]
        for m, target, fn in metrics:
            vals = per_pass(n, fn)
            known = [v for v in vals if v is not None]
            med = statistics.median(known) if known else None
            if med is not None and med <= target:
                met[m] += 1
            cells += [", ".join(fmt_ratio(v) if v is not None else "-" for v in vals),
                      "-" if med is None else (f"**{med:.2f}**" if med <= target else f"{med:.2f}")]
        out.append("| " + " | ".join(cells) + " |")
    out.append("")
    out.append("Targets met on the medians: " + "; ".join(f"{m} **{met[m]} of {len(names)}**" for m, _, _ in metrics) + ".")
    out.append("")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tfjsi", default=os.path.join(ROOT, "build", "app", "tfjsi"))
    ap.add_argument("--models", help="comma-separated golden names (default: " + ",".join(DEFAULT_MODELS) + ")")
    ap.add_argument("--all", action="store_true", help="every corpus and reference layers model with golden data")
    ap.add_argument("--precisions", default="fp32,fp16")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=1800, help="seconds per process")
    ap.add_argument("--reference", default=default_reference(), help="tests/reference's data folder")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--out", help="default bench/results/webgl-side-by-side-<date>.md (raw .json beside it)")
    ap.add_argument("--sides", default="webgl,ours", help="webgl and/or ours (merge passes with --render)")
    ap.add_argument("--errors-only", action="store_true",
                    help="outputs and errors only: TF.js one run per process, ours one `tfjsi run`; no timing tables")
    ap.add_argument("--keep", action="store_true", help="keep outputs and caches (in --work)")
    ap.add_argument("--work", help="scratch folder (default: a new one in $TMPDIR)")
    ap.add_argument("--render", nargs="+", metavar="RAW_JSON", help="run nothing: table from raw files")
    ap.add_argument("--summary", nargs="+", metavar="RAW_JSON",
                    help="run nothing: #19's ratios over complete passes, per pass and their median")
    ap.add_argument("--ours-flag", action="append", default=[], metavar="NAME=VALUE",
                    help="an engine flag for tfjsi's runs (--flag), e.g. fp16_follow=accuracy; repeatable")
    args = ap.parse_args()
    out = args.out or os.path.join(ROOT, "bench", "results",
                                   f"webgl-side-by-side-{datetime.date.today().isoformat()}.md")

    if args.summary:
        datas = []
        for path in args.summary:
            with open(path) as f:
                datas.append(json.load(f))
        text = summarize(args.summary, datas)
        if args.out:
            with open(args.out, "w") as f:
                f.write(text + "\n")
        print(text)
        return 0

    if args.render:
        data = None
        for path in args.render:
            with open(path) as f:
                d = json.load(f)
            if data is None:
                data = d
            else:
                # Rows of one model merge run by run (e.g. a webgl pass and an ours pass).
                by_name = {r["name"]: r for r in data["rows"]}
                for r in d["rows"]:
                    if r["name"] in by_name:
                        for k in ("runs", "errors", "failures"):
                            by_name[r["name"]][k].update(r[k])
                    else:
                        data["rows"].append(r)
                        by_name[r["name"]] = r
                for k in ("renderer", "browser", "chromium_args"):
                    data.setdefault(k, d.get(k))
                    if not data.get(k):
                        data[k] = d.get(k)
                if d["environment"].get("tfjsi_sha256"):
                    data["environment"].update({k: v for k, v in d["environment"].items() if k.startswith("tfjsi")})
                data["environment"]["uptime_end"] = d["environment"].get("uptime_end")
                data.setdefault("passes", [data["command"]]).append(d["command"])
                data["errors_only"] = data.get("errors_only") and d.get("errors_only")
        text = render(data)
        with open(out, "w") as f:
            f.write(text + "\n")
        if len(args.render) > 1:  # the merged figures beside the table
            with open(out[:-3] + ".json" if out.endswith(".md") else out + ".json", "w") as f:
                json.dump(data, f, indent=1)
        print(text)
        return 0

    if not args.reference or not os.path.isdir(os.path.join(args.reference, "golden")):
        ap.error("no reference data: run tests/reference/make-data.sh or pass --reference")
    if not os.path.exists(os.path.join(WEBGL_DIR, "node_modules", "playwright-core")):
        ap.error("bench/webgl has no node_modules: run bench/webgl/setup.sh")
    args.sides = [x for x in args.sides.split(",") if x]
    if any(x not in ("webgl", "ours") for x in args.sides):
        ap.error("--sides takes webgl and/or ours")
    args.precisions = [p for p in args.precisions.split(",") if p]
    if any(p not in PRECISIONS for p in args.precisions):
        ap.error("--precisions takes fp32 and/or fp16")
    names = all_models(args.reference) if args.all else \
        [n for n in (args.models.split(",") if args.models else DEFAULT_MODELS) if n]
    for n in names:
        if not os.path.exists(os.path.join(args.reference, "golden", n, "golden.json")):
            ap.error(f"{n}: no golden data in {args.reference}/golden")

    work = args.work or tempfile.mkdtemp(prefix="webgl-bench-")
    os.makedirs(work, exist_ok=True)
    data = {"command": " ".join(["bench/webgl_side_by_side.py"] + sys.argv[1:]), "environment": environment(args),
            "precisions": args.precisions, "runs": args.runs, "warmup": args.warmup, "rows": [],
            "sides": args.sides, "errors_only": args.errors_only}
    log(f"{len(names)} models; {data['environment']['uptime_start']}")
    raw = out[:-3] + ".json" if out.endswith(".md") else out + ".json"
    try:
        for i, n in enumerate(names):
            row = measure_model(args, n, i, work)
            data["rows"].append(row)
            for k in ("webgl-fp32", "webgl-fp16"):
                r = row["runs"].get(k)
                if r:
                    data["renderer"] = r["gl"]["renderer"]
                    data["tfjs"] = "4.22.0"
                    data["browser"] = r.get("browser")
                    data["chromium_args"] = r.get("chromium_args", [])
            data["environment"]["uptime_end"] = uptime()
            with open(raw, "w") as f:  # after every model, so an interrupted run keeps what it had
                json.dump(data, f, indent=1)
    finally:
        if not args.keep and not args.work:
            shutil.rmtree(work, ignore_errors=True)
    with open(raw, "w") as f:
        json.dump(data, f, indent=1)
    text = render(data)
    with open(out, "w") as f:
        f.write(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
