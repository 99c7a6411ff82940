#!/usr/bin/env python3
"""How live a switch to gl is (#19): per model, in separate processes of `tfjsi bench --json`,
  cold fp32     fresh XDG_CACHE_HOME and MESA_SHADER_CACHE_DIR (nothing compiled anywhere)
  fp16 after    a second process, fp16, on the caches the cold fp32 run filled
  warm fp32     a third process, fp32, on the same caches (the program cache's cut)
  cold fp16     fresh caches, fp16 (left out with --no-cold-fp16)
and prints a Markdown table: first result, compile time, new programs, programs built ahead on
worker threads, warm median. With --repeat N each model's cases run N times (fresh caches each
time, the binaries alternating model by model when several are given) and the table gives
medians; --jsonl FILE keeps every process's JSON.

usage: bench/gl_live.py TFJSI[,TFJSI2...] MODEL.json... [--runs N] [--repeat N]
                        [--no-cold-fp16] [--jsonl FILE]
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile


def bench(tfjsi, model, precision, cache, runs):
    env = dict(os.environ)
    env["XDG_CACHE_HOME"] = os.path.join(cache, "xdg")
    env["MESA_SHADER_CACHE_DIR"] = os.path.join(cache, "mesa")
    out = subprocess.run([tfjsi, "bench", model, "--backend", "gl", "--precision", precision,
                          "--runs", str(runs), "--json"], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def pop_option(args, name, default, convert=str):
    if name not in args:
        return default
    i = args.index(name)
    value = convert(args[i + 1])
    del args[i:i + 2]
    return value


def main():
    args = sys.argv[1:]
    runs = pop_option(args, "--runs", 5, int)
    repeat = pop_option(args, "--repeat", 1, int)
    jsonl = pop_option(args, "--jsonl", None)
    cold_fp16 = "--no-cold-fp16" not in args
    if not cold_fp16:
        args.remove("--no-cold-fp16")
    binaries, models = args[0].split(","), args[1:]
    log = open(jsonl, "a") if jsonl else None
    print("| binary | model | case | first ms | compile ms | new programs | built ahead | "
          "warm median ms | load avg |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|")
    for model in models:
        name = os.path.basename(model)
        if name == "model.json":
            name = os.path.basename(os.path.dirname(model))
        name = name.removesuffix(".json")
        results = {}
        for r in range(repeat):
            for b, tfjsi in enumerate(binaries):
                with tempfile.TemporaryDirectory() as shared, \
                        tempfile.TemporaryDirectory() as fresh:
                    cases = [("cold fp32", "fp32", shared), ("fp16 after fp32", "fp16", shared),
                             ("warm fp32", "fp32", shared)]
                    if cold_fp16:
                        cases.append(("cold fp16", "fp16", fresh))
                    for case, precision, cache in cases:
                        load = os.getloadavg()[0]
                        j = bench(tfjsi, model, precision, cache, runs)
                        j["case"], j["binary"], j["repeat"], j["load1"] = case, tfjsi, r, load
                        if log:
                            log.write(json.dumps(j) + "\n")
                            log.flush()
                        results.setdefault((b, case), []).append(j)
        for (b, case), js in sorted(results.items()):
            def med(key):
                return statistics.median(j.get(key, 0) for j in js)
            print(f"| {b} | {name} | {case} | {med('first_ms'):.0f} | {med('compile_ms'):.0f} | "
                  f"{med('new_programs'):.0f} | {med('built_ahead'):.0f} | "
                  f"{med('median_ms'):.1f} | {med('load1'):.1f} |", flush=True)


if __name__ == "__main__":
    main()
