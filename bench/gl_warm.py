#!/usr/bin/env python3
"""The gl program cache's cut and warm speed (#19), binaries compared on a shared machine.

Per model and repeat, each binary in turn (so that a burst of another tenant falls on both sides
alike), on fresh XDG_CACHE_HOME and MESA_SHADER_CACHE_DIR:
  cold        `tfjsi bench MODEL --backend gl --json`: nothing compiled anywhere
  warm cache  the same again, on the caches the cold process filled (--warm-processes of them)
The cut is 1 - warm-cache first / cold first, per repeat; the table gives medians over repeats
(per-repeat ratios, then their median) and the 1-minute load average around them. Where a binary
prints `[glrun] ...` lines on stderr (a measuring build), the first run's line is kept in the
JSON lines.

usage: bench/gl_warm.py TFJSI[,TFJSI2...] MODEL.json... [--runs N] [--repeat N]
                        [--warm-processes N] [--jsonl FILE]
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile


def bench(tfjsi, model, cache, runs):
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(cache, "xdg"),
               MESA_SHADER_CACHE_DIR=os.path.join(cache, "mesa"))
    p = subprocess.run([tfjsi, "bench", model, "--backend", "gl", "--runs", str(runs), "--json"],
                       env=env, check=True, capture_output=True, text=True)
    j = json.loads(p.stdout)
    runs_said = [ln for ln in p.stderr.splitlines() if ln.startswith("[glrun]")]
    if runs_said:
        j["glrun_first"] = runs_said[0]
    return j


def pop_option(args, name, default, convert=str):
    if name not in args:
        return default
    i = args.index(name)
    value = convert(args[i + 1])
    del args[i:i + 2]
    return value


def name_of(model):
    name = os.path.basename(model)
    if name == "model.json":
        name = os.path.basename(os.path.dirname(model))
    return name.removesuffix(".json")


def main():
    args = sys.argv[1:]
    runs = pop_option(args, "--runs", 10, int)
    repeat = pop_option(args, "--repeat", 3, int)
    warm_processes = pop_option(args, "--warm-processes", 1, int)
    jsonl = pop_option(args, "--jsonl", None)
    binaries, models = args[0].split(","), args[1:]
    log = open(jsonl, "a") if jsonl else None
    print("| model | binary | cold first ms | compile ms (cold) | warm-cache first ms | cut | "
          "warm median ms (warm-cache process) | load avg |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for model in models:
        rows = {}
        for r in range(repeat):
            for b, tfjsi in enumerate(binaries):
                with tempfile.TemporaryDirectory() as cache:
                    load = [os.getloadavg()[0]]
                    cold = bench(tfjsi, model, cache, runs)
                    warms = []
                    for _ in range(warm_processes):
                        load.append(os.getloadavg()[0])
                        warms.append(bench(tfjsi, model, cache, runs))
                    for j, case in [(cold, "cold")] + [(w, "warm cache") for w in warms]:
                        j.update(case=case, binary=tfjsi, repeat=r, model_name=name_of(model))
                        if log:
                            log.write(json.dumps(j) + "\n")
                            log.flush()
                    rows.setdefault(b, []).append((cold, warms, load))
        for b, reps in sorted(rows.items()):
            cold_first = statistics.median(c["first_ms"] for c, _, _ in reps)
            compile_ms = statistics.median(c["compile_ms"] for c, _, _ in reps)
            warm_first = statistics.median(w["first_ms"] for _, ws, _ in reps for w in ws)
            cut = statistics.median(1 - w["first_ms"] / c["first_ms"] for c, ws, _ in reps
                                    for w in ws)
            warm_median = statistics.median(w["median_ms"] for _, ws, _ in reps for w in ws)
            loads = [x for _, _, ls in reps for x in ls]
            print(f"| {name_of(model)} | {b} | {cold_first:.0f} | {compile_ms:.0f} | "
                  f"{warm_first:.0f} | {cut * 100:.1f}% | {warm_median:.1f} | "
                  f"{min(loads):.1f}-{max(loads):.1f} |", flush=True)


if __name__ == "__main__":
    main()
