#!/usr/bin/env python3
"""How live a switch to gl is (#19): per model, in separate processes of `tfjsi bench --json`,
  cold fp32     fresh XDG_CACHE_HOME and MESA_SHADER_CACHE_DIR (nothing compiled anywhere)
  fp16 after    a second process, fp16, on the caches the cold fp32 run filled
  warm fp32     a third process, fp32, on the same caches (the program cache's cut)
  cold fp16     fresh caches, fp16
and prints a Markdown table: first result, compile time, new programs, warm median.

usage: bench/gl_live.py TFJSI MODEL.json... [--runs N]
"""
import json
import os
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


def main():
    args = sys.argv[1:]
    runs = 5
    if "--runs" in args:
        i = args.index("--runs")
        runs = int(args[i + 1])
        del args[i:i + 2]
    tfjsi, models = args[0], args[1:]
    print("| model | case | first ms | compile ms | new programs | warm median ms |")
    print("|---|---|---:|---:|---:|---:|")
    for model in models:
        name = os.path.basename(model)
        if name == "model.json":
            name = os.path.basename(os.path.dirname(model))
        name = name.removesuffix(".json")
        with tempfile.TemporaryDirectory() as shared, tempfile.TemporaryDirectory() as fresh:
            cases = [("cold fp32", "fp32", shared), ("fp16 after fp32", "fp16", shared),
                     ("warm fp32", "fp32", shared), ("cold fp16", "fp16", fresh)]
            for case, precision, cache in cases:
                j = bench(tfjsi, model, precision, cache, runs)
                print(f"| {name} | {case} | {j['first_ms']:.0f} | {j.get('compile_ms', 0):.0f} | "
                      f"{j.get('new_programs', 0)} | {j['median_ms']:.1f} |", flush=True)


if __name__ == "__main__":
    main()
