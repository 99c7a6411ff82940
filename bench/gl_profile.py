#!/usr/bin/env python3
"""Two gl figures of issue #5 that the time table does not give.

1. Shaders against the cpu kernel for the same node and shape. For each model, --rounds times in
   turn, `tfjsi bench MODEL --backend gl --profile --flag debug=true --warmup W --runs R` and the
   same on cpu. The debug log has one line per kernel with its op, node, shapes and wall time; the
   lines of the timed runs are paired by node name and occurrence, and each node's time is its
   minimum over the rounds x R runs: the least disturbed by other tenants of a shared machine, whose
   bursts last seconds (one process per backend would put a burst on one side only). With --profile
   the gl backend waits for each node's kernels (glFinish), so a gl node's wall time is its own
   work; GL timer queries run in extra runs whose lines are skipped. --threads N gives cpu N
   threads and llvmpipe N workers (LP_NUM_THREADS), so kernels are compared at the same
   parallelism. Nodes that fell back to cpu on the gl run are left out, and nodes fused into the
   kernel before them are counted. Lists the worst nodes by gl/cpu ratio and counts those over 10x.

2. Time to first result with a cold and a warm program-binary cache on disk: a new process
   `tfjsi run MODEL --backend gl --json`, timed from start to exit, with XDG_CACHE_HOME set to
   --cache-home; warm = right after a run that filled the cache. Mesa keeps a shader cache of its
   own under XDG_CACHE_HOME (mesa_shader_cache) that survives the deletion of ours, so "cold" is
   taken in the modes of CACHE_MODES (--cache-modes). Cold and warm alternate --repeat times; medians.

usage: bench/gl_profile.py [--tfjsi PATH] [--shader-models LIST] [--cache-models LIST]
                           [--rounds K] [--warmup W] [--runs R] [--repeat N] [--out FILE.md]
                           [--save-json FILE]
"""
import argparse
import collections
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as bench_run  # noqa: E402  (inputs, corpus path)

# "on fused ('NODE')": computed inside NODE's kernel.
LINE = re.compile(r"\[debug\] (\S+) '(.*)' on (\w+)(?: \('(.*?)'\))?: in \((.*?)\) out \((.*?)\) ([0-9.]+) ms")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def node_times(tfjsi, model, backend, extra, warmup, runs, env, timeout):
    """{(node, occurrence): (op, backend, in shapes, out shapes, min ms, fused into)} over the timed
    runs."""
    cmd = [tfjsi, "bench", model, "--backend", backend, "--warmup", str(warmup), "--runs", str(runs), "--profile",
           "--flag", "debug=true", "--json"] + extra
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    if p.returncode != 0:
        raise RuntimeError((p.stderr.strip().splitlines() or [f"exit {p.returncode}"])[-1])
    lines = [m.groups() for m in map(LINE.match, p.stderr.splitlines()) if m]
    j = json.loads(p.stdout)
    # The first (untimed) run, the warm-up runs, the timed ones, then as many with GL timer queries
    # where the driver has them (their wall times are not used).
    total_runs = 1 + warmup + runs + (runs if isinstance(j.get("profile", {}).get("gl_ops"), list) else 0)
    if len(lines) % total_runs:
        raise RuntimeError(f"{len(lines)} kernel lines for {total_runs} runs")
    per_run = len(lines) // total_runs
    out = {}
    for r in range(1 + warmup, 1 + warmup + runs):
        seen = collections.Counter()
        for op, node, be, into, ins, outs, ms in lines[r * per_run:(r + 1) * per_run]:
            key = (node, seen[node])
            seen[node] += 1
            prev = out.get(key)
            out[key] = (op, be, ins, outs, min(float(ms), prev[4]) if prev else float(ms), into)
    return out, j


def merge_min(acc, times):
    """Keeps in acc each node's least time over the rounds so far."""
    for key, v in times.items():
        if key not in acc or v[4] < acc[key][4]:
            acc[key] = v


def shaders(args, models, tmpdir):
    """Paired rows, failures, and the number of nodes that ran inside the kernel before them (debug
    log: on fused; they have no shader of their own). A gl node that took such nodes in is paired
    with cpu's time for it and for them, which cpu runs as kernels of their own."""
    rows, failures, fused = [], [], 0
    env = dict(os.environ, XDG_CACHE_HOME=args.cache_home)
    if args.threads:
        env["LP_NUM_THREADS"] = str(args.threads)  # llvmpipe's worker threads
    for name in models:
        model = os.path.join(args.corpus, name + ".json")
        extra = bench_run.override_args(model, name, tmpdir)
        if args.threads:
            extra += ["--threads", str(args.threads)]
        try:
            gl, cpu, gl_med, cpu_med = {}, {}, [], []
            for _ in range(args.rounds):
                for backend, acc, med, e in (("gl", gl, gl_med, env), ("cpu", cpu, cpu_med, None)):
                    times, j = node_times(args.tfjsi, model, backend, extra, args.warmup, args.runs, e,
                                          args.timeout)
                    merge_min(acc, times)
                    med.append(j["median_ms"])
        except Exception as e:  # noqa: BLE001 - listed in the output
            failures.append((name, str(e)))
            log(f"gl_profile: {name}: {e}")
            continue
        taken_in = collections.defaultdict(float)  # gl producer -> cpu ms of the nodes it took in
        took = collections.Counter()  # gl producer -> how many
        for key, (op, be, ins, outs, ms, into) in gl.items():
            if be == "fused" and into and key in cpu:
                taken_in[(into, key[1])] += cpu[key][4]
                took[(into, key[1])] += 1
        n = 0
        for key, (op, be, ins, outs, ms, into) in gl.items():
            fused += be == "fused"
            if be != "gl" or key not in cpu:
                continue
            cms = cpu[key][4] + taken_in[key]
            rows.append({"model": name, "node": key[0], "op": op + (f" +{took[key]}" if took[key] else ""),
                         "in": ins, "out": outs, "gl_ms": ms,
                         "cpu_ms": cms, "ratio": ms / cms if cms > 0 else float("inf")})
            n += 1
        log(f"gl_profile: {name}: {n} gl nodes paired; median run gl {statistics.median(gl_med):.1f} ms, "
            f"cpu {statistics.median(cpu_med):.1f} ms")
    return rows, failures, fused


def time_first_result(tfjsi, model, extra, env, timeout):
    t0 = time.monotonic()
    p = subprocess.run([tfjsi, "run", model, "--backend", "gl", "--json"] + extra, capture_output=True,
                       text=True, timeout=timeout, env=env)
    wall = (time.monotonic() - t0) * 1000
    if p.returncode != 0:
        raise RuntimeError((p.stderr.strip().splitlines() or [f"exit {p.returncode}"])[-1])
    j = json.loads(p.stdout)
    return wall, j["load_ms"] + j["run_ms"]


CACHE_MODES = {
    # Our program binaries and Mesa's own shader cache (XDG_CACHE_HOME/mesa_shader_cache) both
    # deleted for the cold run: a first run on a new machine against every run after it.
    "both": ("tfjs-inspector/gl-programs and mesa_shader_cache", ["tfjs-inspector/gl-programs", "mesa_shader_cache"],
             {}),
    # Mesa's cache off (MESA_SHADER_CACHE_DISABLE=true) in both runs: what our binaries alone save.
    # On llvmpipe tfjsi then writes no binary at all (no program binary format offered), so warm
    # equals cold there.
    "ours": ("tfjs-inspector/gl-programs, Mesa's shader cache disabled", ["tfjs-inspector/gl-programs"],
             {"MESA_SHADER_CACHE_DISABLE": "true"}),
    # Only our folder deleted, Mesa's cache left warm: what our binaries add on top of Mesa's.
    "ours-over-mesa": ("tfjs-inspector/gl-programs, Mesa's shader cache left warm", ["tfjs-inspector/gl-programs"], {}),
}


def disk_cache(args, models, tmpdir):
    out = []
    for mode in filter(None, args.cache_modes.split(",")):
        what, folders, extra_env = CACHE_MODES[mode]
        env = dict(os.environ, XDG_CACHE_HOME=args.cache_home, **extra_env)
        for name in models:
            model = os.path.join(args.corpus, name + ".json")
            extra = bench_run.override_args(model, name, tmpdir)
            cold, warm = [], []
            for _ in range(args.repeat):
                for folder in folders:
                    shutil.rmtree(os.path.join(args.cache_home, folder), ignore_errors=True)
                cold.append(time_first_result(args.tfjsi, model, extra, env, args.timeout))
                warm.append(time_first_result(args.tfjsi, model, extra, env, args.timeout))
                log(f"gl_profile: {name} ({mode}): cold {cold[-1][0]:.0f} ms, warm {warm[-1][0]:.0f} ms")
            out.append({"model": name, "mode": mode, "what": what, "cold": cold, "warm": warm})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tfjsi", default=os.path.join(bench_run.ROOT, "build", "app", "tfjsi"))
    ap.add_argument("--corpus", default=os.environ.get("TFJSI_CORPUS_DIR", bench_run.DEFAULT_CORPUS))
    ap.add_argument("--shader-models", default="", help="comma list (default: the corpus); '-' for none")
    ap.add_argument("--cache-models", default="blazepose-heavy,movenet-thunder,handdetect",
                    help="comma list; '-' for none")
    ap.add_argument("--rounds", type=int, default=5, help="gl and cpu profiled in turn this many times per model")
    ap.add_argument("--warmup", type=int, default=2, help="untimed runs before the profiled ones")
    ap.add_argument("--runs", type=int, default=4, help="profiled runs per round")
    ap.add_argument("--threads", type=int, default=0,
                    help="cpu's --threads and llvmpipe's LP_NUM_THREADS for gl (default: each its own)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cache-modes", default="both,ours-over-mesa", help="comma list of " + ",".join(CACHE_MODES))
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--cache-home", default=os.path.join(tempfile.gettempdir(), "tfjsi-bench-cache-disk"))
    ap.add_argument("--worst", type=int, default=5)
    ap.add_argument("--min-cpu-ms", type=float, default=0.5, help="second list: nodes at least this long on cpu")
    ap.add_argument("--out", help="Markdown output (default: stdout only)")
    ap.add_argument("--save-json", help="every paired node and every cache timing")
    args = ap.parse_args()

    corpus = sorted(f[:-5] for f in os.listdir(args.corpus) if f.endswith(".json"))
    pick = lambda s, default: [] if s == "-" else (s.split(",") if s else default)  # noqa: E731
    tmpdir = tempfile.mkdtemp(prefix="tfjsi-glprof-")
    with open("/proc/loadavg") as f:
        load0 = f.read().split()[:3]
    try:
        cache_rows = disk_cache(args, pick(args.cache_models, []), tmpdir)
        rows, failures, fused = shaders(args, pick(args.shader_models, corpus), tmpdir)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
    with open("/proc/loadavg") as f:
        load1 = f.read().split()[:3]

    lines = [f"Load average (1, 5, 15 min) at the start {' '.join(load0)}, at the end {' '.join(load1)}.", ""]
    if cache_rows:
        lines += [f"### Time to first result, cold and warm program-binary cache", "",
                  f"A new `tfjsi run MODEL --backend gl --json` process each time with XDG_CACHE_HOME={args.cache_home}; "
                  f"{args.repeat} cold/warm pairs, medians; wall = process start to exit, in-process = load + first "
                  "run. Deleted before each cold run: see the first column.", "",
                  "| deleted for the cold run | model | cold wall (ms) | warm wall (ms) | cut | cold in-process (ms) | "
                  "warm in-process (ms) | cut |",
                  "|---|---|---:|---:|---:|---:|---:|---:|"]
        for r in cache_rows:
            cw, ww = statistics.median(x[0] for x in r["cold"]), statistics.median(x[0] for x in r["warm"])
            ci, wi = statistics.median(x[1] for x in r["cold"]), statistics.median(x[1] for x in r["warm"])
            lines.append(f"| {r['what']} | {r['model']} | {cw:.0f} | {ww:.0f} | {100 * (1 - ww / cw):.1f}% | {ci:.0f} | "
                         f"{wi:.0f} | {100 * (1 - wi / ci):.1f}% |")
        lines.append("")
    if rows or failures:
        rows.sort(key=lambda r: -r["ratio"])
        over = [r for r in rows if r["ratio"] > 10]
        per_model = collections.Counter(r["model"] for r in over)
        lines += [f"### gl shaders against the cpu kernel of the same node and shape", "",
                  f"{len(rows)} gl nodes paired over {len({r['model'] for r in rows})} models; per node the "
                  f"minimum wall time of {args.rounds} x {args.runs} profiled runs on each backend, which alternate by "
                  f"round, after {args.warmup} warm-up runs each time ("
                  + (f"{args.threads} thread(s): cpu --threads, LP_NUM_THREADS for llvmpipe" if args.threads
                     else "default threads") + "). "
                  f"Over 10x slower than cpu: {len(over)} nodes"
                  + (f" ({', '.join(f'{m} {n}' for m, n in per_model.most_common())})" if over else "") + ". "
                  f"Nodes that ran inside the kernel before them (a bias add, an activation; no shader of their "
                  f"own): {fused}; an op marked +N took N such nodes in, and its cpu time is cpu's for it and "
                  f"for them.", "",
                  "| model | node | op | inputs | gl (ms) | cpu (ms) | gl / cpu |", "|---|---|---|---|---:|---:|---:|"]
        def table(subset):
            return [f"| {r['model']} | `{r['node']}` | {r['op']} | {r['in']} | {r['gl_ms']:.3f} | "
                    f"{r['cpu_ms']:.3f} | {r['ratio']:.1f} |" for r in subset[:args.worst]]

        lines += table(rows)
        # A dispatch has a fixed cost on llvmpipe (thread wake-up and the wait for the kernel's end);
        # the smallest nodes show it, and it makes every tiny node "slow" against a cpu loop of a few
        # microseconds. The same list for nodes with real work on cpu separates that from the shaders.
        tiny = sorted(rows, key=lambda r: r["cpu_ms"])[:10]
        big = [r for r in rows if r["cpu_ms"] >= args.min_cpu_ms]
        over_big = [r for r in big if r["ratio"] > 10]
        fixed = (f"median gl time of the {len(tiny)} nodes fastest on cpu (at most {tiny[-1]['cpu_ms']:.3f} ms "
                 f"there): {statistics.median(r['gl_ms'] for r in tiny):.3f} ms") if tiny else "no nodes"
        lines += ["", f"Fixed cost of a gl node here: {fixed}.", "",
                  f"Nodes taking at least {args.min_cpu_ms} ms on cpu: {len(big)}, of which {len(over_big)} over 10x "
                  f"slower on gl; the worst {args.worst}:", "",
                  "| model | node | op | inputs | gl (ms) | cpu (ms) | gl / cpu |", "|---|---|---|---|---:|---:|---:|"]
        lines += table(big)
        if failures:
            lines += [""] + [f"- {m}: {e}" for m, e in failures]
        lines.append("")
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    if args.save_json:
        with open(args.save_json, "w") as f:
            json.dump({"nodes": rows, "failures": failures, "cache": cache_rows, "fused": fused}, f, indent=1)


if __name__ == "__main__":
    main()
