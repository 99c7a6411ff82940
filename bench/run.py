#!/usr/bin/env python3
"""Inference time of tfjsi's backends against TF.js's cpu and wasm backends, measured in one run.

Each round runs, for every model and one after the other (so that all see the same machine load):
  - TF.js cpu and TF.js wasm (one thread): node tests/reference/time-tfjs.mjs MODEL --backend B;
  - tfjsi bench MODEL --backend B --json for B in cpu, xnnpack (default threads and --threads 1)
    and gl, those that `tfjsi env --json` says are available.
Both sides get the same inputs: the deterministic generator of DESIGN.md, with the shapes and
constants of tests/reference/input-overrides.json (written here as .npy for tfjsi). Each process
times --runs warm runs after --warmup; a round's figure is that median, the table's figure is the
median over rounds. The machine is shared, so only medians and ratios are worth quoting.

FLOPs: what `tfjsi bench --json` reports as "flops", the engine's one count (engine/analysis/
node_cost.h: multiply-adds as 2, element-wise ops, pools and reductions, from the shapes the run
really had). Peak GFLOP/s is cores x FMA units x fp32 lanes x 2 x clock, from /proc/cpuinfo.

Writes the table to bench/results/<date>.md (or --out) and prints it.

Configurations whose processes are slow (TF.js cpu, gl on llvmpipe) can take fewer rounds than the
rest with --config-rounds (e.g. tfjs-cpu=1,gl=1,gl-fp16=1): they run in the first rounds only, still
next to the other configurations of the same model. gl runs with XDG_CACHE_HOME set to --gl-cache,
so its program binaries on disk are the benchmark's own. The 1-minute load average is sampled before
every model and reported with the table; --save-json keeps every process's figures.

Before and after: --before PATH names an older tfjsi build; every configuration of ours then also
runs with it (as "cpu@before" and so on, right after the same configuration of the current build,
gl with a program cache of its own), and the table gains a column "after / before" per backend and
a summary line of those ratios: the check that a change made nothing slower.

usage: bench/run.py [--rounds N] [--runs N] [--warmup N] [--tfjsi PATH] [--configs LIST]
                    [--config-rounds C=N,...] [--gl-cache DIR] [--out FILE] [--save-json FILE]
                    [MODEL...]
"""
import argparse
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NODE_SCRIPT = os.path.join(ROOT, "tests", "reference", "time-tfjs.mjs")
OVERRIDES = os.path.join(ROOT, "tests", "reference", "input-overrides.json")
DEFAULT_CORPUS = os.path.join(os.environ.get("TFJSI_CACHE_DIR", os.path.expanduser("~/.cache/tfjs-inspector")),
                              "corpus", "human-models-3.0.4", "package", "models")
# Column order; each config is one process per model and round.
CONFIGS = ["tfjs-cpu", "tfjs-wasm", "cpu", "xnnpack", "xnnpack-t1", "gl", "gl-fp16"]
LABELS = {"tfjs-cpu": "TF.js cpu", "tfjs-wasm": "TF.js wasm (1 thr)", "cpu": "ours cpu",
          "xnnpack": "ours xnnpack", "xnnpack-t1": "ours xnnpack 1 thr", "gl": "ours gl fp32",
          "gl-fp16": "ours gl fp16"}
BEFORE = "@before"  # suffix of a configuration run with --before's binary
for _c in CONFIGS[2:]:
    CONFIGS.insert(CONFIGS.index(_c) + 1, _c + BEFORE)
    LABELS[_c + BEFORE] = LABELS[_c] + " (before)"


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ---- inputs ----

def write_npy(path, dtype, shape, values):
    """NumPy 1.0 file, little endian, C order; dtype 'float32' or 'int32'."""
    descr, fmt = {"float32": ("<f4", "f"), "int32": ("<i4", "i")}[dtype]
    shape_txt = f"({shape[0]},)" if len(shape) == 1 else "(" + ", ".join(str(d) for d in shape) + ")"
    header = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape_txt}, }}"
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(struct.pack(f"<{len(values)}{fmt}", *values))


def generated(count, dtype):
    hashes = ((i * 2654435761) & 0xFFFFFFFF for i in range(count))
    if dtype == "float32":
        return [h / 4294967296 for h in hashes]
    return [h >> 24 for h in hashes]


def override_args(model_path, name, tmpdir):
    """--input NAME=FILE.npy arguments for the inputs input-overrides.json changes."""
    with open(OVERRIDES) as f:
        overrides = json.load(f).get(name)
    if not overrides:
        return []
    with open(model_path) as f:
        model_json = json.load(f)

    # TF.js holds every integer input (uint8 images included) as int32.
    def gen_dtype(tf_dtype):
        return "float32" if tf_dtype in (None, "DT_FLOAT", "DT_HALF") else "int32"

    dtypes = {}
    for node in model_json.get("modelTopology", {}).get("node", []):
        if node.get("op") == "Placeholder":
            dtypes[node["name"]] = gen_dtype(node.get("attr", {}).get("dtype", {}).get("type"))
    for key, info in model_json.get("signature", {}).get("inputs", {}).items():
        dtypes[key] = dtypes[info["name"].split(":")[0]] = gen_dtype(info.get("dtype"))
    args = []
    for k, (input_name, ov) in enumerate(overrides.items()):
        dtype = dtypes.get(input_name, "float32")
        shape = ov["shape"]
        count = 1
        for d in shape:
            count *= d
        values = [ov["value"]] * count if "value" in ov else generated(count, dtype)
        path = os.path.join(tmpdir, f"{name}_{k}.npy")
        write_npy(path, dtype, shape, values)
        args += ["--input", f"{input_name}={path}"]
    return args


# ---- the machine ----

def machine_peak():
    """(GFLOP/s of all cores, of one core, text saying how)."""
    with open("/proc/cpuinfo") as f:
        info = f.read()
    flags = set(re.search(r"^flags\s*:\s*(.*)$", info, re.M).group(1).split())
    mhz = [float(x) for x in re.findall(r"^cpu MHz\s*:\s*([0-9.]+)", info, re.M)]
    model = re.search(r"^model name\s*:\s*(.*)$", info, re.M).group(1)
    cores = os.cpu_count()
    ghz = max(mhz) / 1000 if mhz else 0.0
    lanes = 16 if "avx512f" in flags else 8 if "avx2" in flags else 4
    fma_units = 2  # two FMA pipes per core on every AVX2/AVX-512 Intel server core since Haswell
    fma = 2 if "fma" in flags else 1
    per_core = fma_units * lanes * fma * ghz
    how = (f"{model}, {cores} cores as the OS sees them, {ghz:.2f} GHz (cpu MHz in /proc/cpuinfo), "
           f"{'AVX-512' if lanes == 16 else 'AVX2' if lanes == 8 else 'SSE'}: {lanes} fp32 lanes x "
           f"{fma_units} FMA units x {fma} flops per FMA = {per_core:.1f} GFLOP/s a core, "
           f"{per_core * cores:.1f} GFLOP/s in all. A nominal figure, not a bound: a core that "
           f"boosts above the reported clock can pass it, AVX-512 down-clocking and the other "
           f"tenants of this shared machine pull the other way.")
    return per_core * cores, per_core, how


# ---- timing ----

def load_average():
    with open("/proc/loadavg") as f:
        return [float(x) for x in f.read().split()[:3]]


def run_json(cmd, timeout, env=None):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    if proc.returncode != 0:
        lines = proc.stderr.strip().splitlines()
        # Node prints a stack after the message: quote the message.
        said = next((ln.strip() for ln in lines if re.search(r"error", ln, re.I)), lines[-1] if lines else "")
        raise RuntimeError(f"exit {proc.returncode}: {said}")
    return json.loads(proc.stdout)


def time_config(config, args, model, name, extra):
    """Median warm-run ms of one process, and its JSON."""
    runs, warmup = args.per_config.get(config, (args.runs, args.warmup))
    if config.startswith("tfjs-"):
        cmd = ["node", NODE_SCRIPT, model, "--backend", config[5:], "--warmup", str(warmup),
               "--runs", str(runs), "--load-runs", "1", "--name", name]
    else:
        before = config.endswith(BEFORE)
        backend, *variant = config.removesuffix(BEFORE).split("-")
        cmd = [args.before if before else args.tfjsi, "bench", model, "--backend", backend, "--warmup", str(warmup),
               "--runs", str(runs), "--json"] + extra
        if "t1" in variant:
            cmd += ["--threads", "1"]
        if "fp16" in variant:
            cmd += ["--precision", "fp16"]
    env = None
    if config.startswith("gl"):
        env = dict(os.environ, XDG_CACHE_HOME=args.gl_cache + ("-before" if config.endswith(BEFORE) else ""))
    j = run_json(cmd, args.timeout, env)
    return j["median_ms"], j


def fmt_ms(x):
    if x is None:
        return "-"
    return f"{x:.0f}" if x >= 100 else f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def fmt_ratio(a, b):
    return f"{a / b:.3f}" if a is not None and b else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("models", nargs="*", help="names in the corpus or model.json paths (default: the corpus)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runs", type=int, default=5, help="timed runs per process")
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=1800, help="seconds per process")
    ap.add_argument("--tfjsi", default=os.path.join(ROOT, "build", "app", "tfjsi"))
    ap.add_argument("--before", help="an older tfjsi binary: run every configuration of ours with it too")
    ap.add_argument("--corpus", default=os.environ.get("TFJSI_CORPUS_DIR", DEFAULT_CORPUS))
    ap.add_argument("--configs", default=",".join(CONFIGS), help="subset of " + ",".join(CONFIGS))
    ap.add_argument("--config-rounds", default="",
                    help="C=N,...: configuration C runs in the first N rounds only")
    ap.add_argument("--config-runs", default="",
                    help="C=RUNS:WARMUP,...: timed and warm-up runs of configuration C's processes")
    ap.add_argument("--gl-cache", default=os.path.join(tempfile.gettempdir(), "tfjsi-bench-cache"),
                    help="XDG_CACHE_HOME of the gl processes (program binaries in tfjs-inspector/gl-programs)")
    ap.add_argument("--memory-model", default="blazepose-heavy", help="model for the peak memory line")
    ap.add_argument("--out", help="default bench/results/<date>.md")
    ap.add_argument("--save-json", help="write every process's figures here")
    ap.add_argument("--render", nargs="+", metavar="JSON",
                    help="run nothing: write the table from files of --save-json (rows of one model in "
                         "several files are merged configuration by configuration)")
    args = ap.parse_args()
    config_rounds = {}
    for item in filter(None, args.config_rounds.split(",")):
        c, _, n = item.partition("=")
        config_rounds[c] = int(n)
    args.per_config = {}
    for item in filter(None, args.config_runs.split(",")):
        c, _, rw = item.partition("=")
        runs, _, warmup = rw.partition(":")
        args.per_config[c] = (int(runs), int(warmup or 0))

    if args.render:
        return render(args, config_rounds)
    env = run_json([args.tfjsi, "env", "--json"], 300)
    available = {b["name"] for b in env["backends"] if b["available"]}
    configs = [c for c in args.configs.split(",") if c.startswith("tfjs-") or c.split("-")[0] in available]
    if args.before:
        configs = [x for c in configs for x in ([c] if c.startswith("tfjs-") else [c, c + BEFORE])]
    for c in args.configs.split(","):
        if c not in configs:
            log(f"bench: {c} skipped: backend not available")

    names = args.models or sorted(f[:-5] for f in os.listdir(args.corpus) if f.endswith(".json"))
    models = [(n if n.endswith(".json") or os.path.sep in n else os.path.join(args.corpus, n + ".json")) for n in names]
    tmpdir = tempfile.mkdtemp(prefix="tfjsi-bench-")
    try:
        rows = []
        loads = [load_average()]
        for model in models:
            name = os.path.basename(model)[:-5] if os.path.basename(model) != "model.json" \
                else os.path.basename(os.path.dirname(model))
            extra = override_args(model, name, tmpdir)
            row = {"name": name, "times": {c: [] for c in configs}, "errors": {}, "load": load_average(),
                   "runs": {c: [] for c in configs}}
            loads.append(row["load"])
            row["flops"] = None  # from the first tfjsi run's JSON
            for r in range(args.rounds):
                for c in configs:
                    if c in row["errors"] or r >= config_rounds.get(c, args.rounds):
                        continue
                    try:
                        ms, j = time_config(c, args, model, name, extra)
                        row["times"][c].append(ms)
                        row["runs"][c].append({k: v for k, v in j.items() if not isinstance(v, (dict, list))})
                        if row["flops"] is None and j.get("flops"):
                            row["flops"] = j["flops"]
                        log(f"bench: {name} round {r + 1}/{args.rounds} {c}: {ms:.2f} ms")
                    except Exception as e:  # noqa: BLE001
                        row["errors"][c] = str(e)
                        log(f"bench: {name} {c}: {e}")
            row["median"] = {c: statistics.median(v) if v else None for c, v in row["times"].items()}
            rows.append(row)
            if args.save_json:
                with open(args.save_json, "w") as f:
                    json.dump({"rows": rows, "configs": configs}, f, indent=1)
        loads.append(load_average())

        memory = None
        if args.memory_model:
            mm = os.path.join(args.corpus, args.memory_model + ".json")
            try:
                info = run_json([args.tfjsi, "info", mm, "--json"], 300)
                memory = {"name": args.memory_model, "weights": info["weights"], "runs": {}}
                for b in ("cpu", "xnnpack"):
                    if b in available:
                        memory["runs"][b] = run_json([args.tfjsi, "bench", mm, "--backend", b, "--warmup", "0",
                                                      "--runs", "1", "--json"], args.timeout)
            except Exception as e:  # noqa: BLE001
                log(f"bench: memory of {args.memory_model}: {e}")
        text = report(rows, configs, env, args, memory, loads, config_rounds)
        if args.save_json:
            with open(args.save_json, "w") as f:
                json.dump({"rows": rows, "configs": configs, "memory": memory, "loads": loads}, f, indent=1)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)

    out = args.out or os.path.join(ROOT, "bench", "results", datetime.date.today().isoformat() + ".md")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        f.write(text)
    print(text)
    log(f"bench: wrote {out}")


def render(args, config_rounds):
    """The table of earlier --save-json files, merged; the machine text is about this moment."""
    rows, seen, memory, loads = {}, set(), None, []
    for path in args.render:
        with open(path) as f:
            saved = json.load(f)
        seen.update(saved["configs"])
        memory = saved.get("memory") or memory
        loads += saved.get("loads") or [r["load"] for r in saved["rows"]]
        for r in saved["rows"]:
            row = rows.setdefault(r["name"], {"name": r["name"], "times": {}, "errors": {}, "runs": {},
                                              "flops": r["flops"], "load": r["load"]})
            for c, t in r["times"].items():
                if t:
                    row["times"][c] = row["times"].get(c, []) + t
            row["errors"].update(r["errors"])
    configs = [c for c in CONFIGS if c in seen]
    for row in rows.values():
        row["median"] = {c: statistics.median(row["times"][c]) if row["times"].get(c) else None for c in configs}
    env = run_json([args.tfjsi, "env", "--json"], 300)
    text = report([rows[n] for n in sorted(rows)], configs, env, args, memory, loads, config_rounds)
    out = args.out or os.path.join(ROOT, "bench", "results", datetime.date.today().isoformat() + ".md")
    with open(out, "w") as f:
        f.write(text)
    print(text)


def report(rows, configs, env, args, memory, loads, config_rounds):
    peak_all, peak_one, how = machine_peak()
    threads = next((f["value"] for f in env["flags"] if f["name"] == "threads"), 0) or os.cpu_count()
    one_min = [x[0] for x in loads]
    fewer = ", ".join(f"{LABELS.get(c, c)} {n}" for c, n in config_rounds.items() if c in configs)
    lines = [f"# tfjsi against TF.js: inference time, {datetime.date.today().isoformat()}", "",
             f"Machine: {platform.machine()}, {os.cpu_count()} cores, 1-minute load average sampled before "
             f"every model: min {min(one_min):.2f}, median {statistics.median(one_min):.2f}, max {max(one_min):.2f} "
             f"(shared machine). {args.rounds} interleaved rounds{f' ({fewer} only)' if fewer else ''}; each process times "
             f"{args.runs} runs after {args.warmup} warm-up"
             + "".join(f", {LABELS.get(c, c)} {r} after {w}" for c, (r, w) in args.per_config.items() if c in configs)
             + "; figures are medians over rounds (ms). "
             f"TF.js 4.22.0 in Node {subprocess.run(['node', '--version'], capture_output=True, text=True).stdout.strip()}; "
             f"wasm on one thread (SIMD). Ours: default threads = {threads}.", "",
             f"Peak: {how}", ""]
    head = ["model", "GFLOP"] + [LABELS[c] for c in configs]
    ratio_cols = []
    if "cpu" in configs and "tfjs-cpu" in configs:
        ratio_cols.append(("cpu / TF.js cpu", "cpu", "tfjs-cpu"))
    for c in ("xnnpack", "xnnpack-t1", "gl", "gl-fp16"):
        if c in configs and "tfjs-wasm" in configs:
            ratio_cols.append((f"{c} / TF.js wasm", c, "tfjs-wasm"))
    for c in CONFIGS:
        if c + BEFORE in configs and c in configs:
            ratio_cols.append((f"{c} after / before", c, c + BEFORE))
    head += [r[0] for r in ratio_cols]
    speedup = "xnnpack" in configs and "xnnpack-t1" in configs
    if speedup:
        head.append("xnnpack 1 thr / 2 thr: median [rounds' range]")
    gf_cols = [c for c in ("cpu", "xnnpack", "xnnpack-t1") if c in configs]
    head += [f"{c} GFLOP/s (% peak)" for c in gf_cols] + ["load"]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        med, fl = row["median"], row["flops"]
        cells = [row["name"], f"{fl / 1e9:.3f}" if fl is not None else "?"]
        # "error": the process failed (see Failures); "-": not measured in this table.
        cells += [fmt_ms(med[c]) if med[c] is not None else "error" if c in row["errors"] else "-"
                  for c in configs]
        cells += [fmt_ratio(med[a], med[b]) for _, a, b in ratio_cols]
        if speedup:
            paired = thread_speedups(row)
            cells.append(f"{med['xnnpack-t1'] / med['xnnpack']:.2f} [{min(paired):.2f}-{max(paired):.2f}]"
                         if paired and med["xnnpack"] and med["xnnpack-t1"] else "-")
        for c in gf_cols:
            if med[c] and fl:
                gfs = fl / (med[c] / 1000) / 1e9
                peak = peak_one if c.endswith("-t1") else peak_all
                cells.append(f"{gfs:.1f} ({100 * gfs / peak:.1f}%)")
            else:
                cells.append("-")
        cells.append(f"{row['load'][0]:.1f}")
        lines.append("| " + " | ".join(cells) + " |")
    lines += [""] + summary(rows, configs)
    errors = [(r["name"], c, e) for r in rows for c, e in r["errors"].items()]
    if errors:
        lines += ["", "Failures:", ""] + [f"- {n} {c}: {e}" for n, c, e in errors]
    if memory:
        w = memory["weights"]
        lines += ["", f"## Peak memory of one run: {memory['name']}", "",
                  f"Weights: {w['bytes_on_disk'] / 2**20:.1f} MiB on disk, {w['bytes_decoded'] / 2**20:.1f} MiB "
                  "decoded (float32 in memory).", "",
                  "| backend | peak RSS of the process (MiB) | peak live tensor bytes (MiB) | first run (ms) |",
                  "|---|---|---|---|"]
        for b, j in memory["runs"].items():
            lines.append(f"| {b} | {j['peak_rss_mb']:.1f} | {j['peak_tensor_bytes'] / 2**20:.1f} | {j['first_ms']:.0f} |")
    return "\n".join(lines) + "\n"


def thread_speedups(row):
    """One thread's time over two threads' in each round: a round runs the two one after the other
    (the same moment of the machine), so the spread of these is the run's noise for the ratio."""
    t1, t2 = row["times"].get("xnnpack-t1") or [], row["times"].get("xnnpack") or []
    return [a / b for a, b in zip(t1, t2) if a and b]


def summary(rows, configs):
    out = ["## Summary", ""]

    def ratios(a, b, subset=None):
        rs = [(r["median"][a] / r["median"][b], r["name"]) for r in rows
              if (subset is None or r["name"] in subset) and r["median"].get(a) and r["median"].get(b)]
        return sorted(rs, reverse=True)

    def missing(a, b, subset=None):
        gone = [r["name"] for r in rows if (subset is None or r["name"] in subset)
                and not (r["median"].get(a) and r["median"].get(b))]
        if len(gone) > 5:
            return f" ({len(gone)} models without a figure)"
        return f" (no figure for {', '.join(gone)})" if gone else ""

    def worst(rs, n=3):
        return ", ".join(f"{name} {x:.3f}" for x, name in rs[:n])

    top = {r["name"] for r in sorted((r for r in rows if r["flops"]), key=lambda r: -r["flops"])[:10]}
    if "cpu" in configs and "tfjs-cpu" in configs:
        rs = ratios("cpu", "tfjs-cpu")
        ok = sum(1 for x, _ in rs if x <= 0.2)
        out.append(f"- #3, pass = ours cpu median <= 1/5 of TF.js cpu's: **{ok} of {len(rs)}** pass"
                   f"{missing('cpu', 'tfjs-cpu')}; worst: {worst(rs)}.")
    if "xnnpack" in configs and "tfjs-wasm" in configs:
        rs = ratios("xnnpack", "tfjs-wasm")
        ok = sum(1 for x, _ in rs if x < 1)
        out.append(f"- #4, pass = ours xnnpack (default threads) median below TF.js wasm's: **{ok} of {len(rs)}** "
                   f"pass{missing('xnnpack', 'tfjs-wasm')}; worst: {worst(rs)}.")
        rs = ratios("xnnpack", "tfjs-wasm", top)
        ok = sum(1 for x, _ in rs if x <= 1 / 3)
        out.append(f"- #4, pass = ours xnnpack (default threads) <= 1/3 of TF.js wasm on the ten models with the "
                   f"most FLOPs ({', '.join(sorted(top))}): **{ok} of {len(rs)}** pass"
                   f"{missing('xnnpack', 'tfjs-wasm', top)}; worst: {worst(rs)}.")
    if "xnnpack-t1" in configs and "tfjs-wasm" in configs:
        rs = ratios("xnnpack-t1", "tfjs-wasm")
        ok = sum(1 for x, _ in rs if x < 1)
        out.append(f"- for comparison, ours xnnpack with --threads 1 below TF.js wasm (one thread): {ok} of {len(rs)}; "
                   f"worst: {worst(rs)}.")
        rs = ratios("xnnpack-t1", "tfjs-wasm", top)
        ok = sum(1 for x, _ in rs if x <= 1 / 3)
        out.append(f"- for comparison, ours xnnpack with --threads 1 <= 1/3 of TF.js wasm on the same ten: {ok} of "
                   f"{len(rs)}; worst: {worst(rs)}.")
    if "xnnpack" in configs and "xnnpack-t1" in configs:
        if "tfjs-wasm" in configs:
            rs = ratios("xnnpack", "tfjs-wasm", top)
            ok = sum(1 for x, _ in rs if x <= 1 / 4)
            out.append(f"- #22, pass = ours xnnpack (default threads) <= 1/4 of TF.js wasm on the ten with the most "
                       f"FLOPs: **{ok} of {len(rs)}** pass{missing('xnnpack', 'tfjs-wasm', top)}; worst: {worst(rs)}.")
        sp = sorted(((r["median"]["xnnpack-t1"] / r["median"]["xnnpack"], r["name"]) for r in rows
                     if r["median"].get("xnnpack") and r["median"].get("xnnpack-t1")))
        big = [(x, n) for x, n in sp if n in top]
        ok = sum(1 for x, _ in big if x >= 1.7)
        out.append(f"- #22, pass = two threads >= 1.7x faster than one on the ten with the most FLOPs: "
                   f"**{ok} of {len(big)}** pass; slowest to gain: {worst(big)}.")
        # Slower beyond the run's noise: two threads slower in every round (with five rounds, a
        # chance of 1 in 32 were the two equal); slower on the medians only is within the noise.
        rounds = {r["name"]: thread_speedups(r) for r in rows}
        beyond = [(x, n) for x, n in sp if rounds[n] and max(rounds[n]) < 1.0]
        on_median = [(x, n) for x, n in sp if x < 1.0]
        out.append(f"- #22, pass = two threads never slower than one (slower beyond the noise: two threads "
                   f"slower in every round): **{len(sp) - len(beyond)} of {len(sp)}** pass"
                   + (f"; slower in every round: " + ", ".join(
                       f"{n} {x:.2f} [{min(rounds[n]):.2f}-{max(rounds[n]):.2f}]" for x, n in beyond)
                      if beyond else "")
                   + f"; below 1.0 on the medians: {len(on_median)}"
                   + (f" ({worst(on_median, 8)})" if on_median else "") + ".")
    for c in CONFIGS:
        if c + BEFORE in configs and c in configs:
            rs = ratios(c, c + BEFORE)
            slower = [(x, n) for x, n in rs if x > 1.05]
            med = statistics.median(x for x, _ in rs) if rs else float("nan")
            out.append(f"- {LABELS[c]} after / before: median {med:.3f} over {len(rs)} models; "
                       f"{len(slower)} more than 5% slower{missing(c, c + BEFORE)}; slowest: {worst(rs)}.")
    for c in ("gl", "gl-fp16"):
        if c in configs and "tfjs-wasm" in configs:
            rs = ratios(c, "tfjs-wasm")
            ok = sum(1 for x, _ in rs if x < 1)
            out.append(f"- {LABELS[c]} (no time target in #5; Mesa llvmpipe, software) below TF.js wasm: {ok} of "
                       f"{len(rs)}{missing(c, 'tfjs-wasm')}; slowest against it: {worst(rs)}.")
    return out


if __name__ == "__main__":
    main()
