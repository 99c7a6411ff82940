#!/usr/bin/env python3
"""Load time of a model: `tfjsi info` against TF.js's own loader, measured in one run.

Each round starts one fresh `tfjsi info --json` process and one fresh Node process running
TF.js's loadGraphModel/loadLayersModel (tests/reference/time-tfjs.mjs --runs 0), interleaved so
that both see the same machine load. Reported: medians over the rounds of
  - tfjsi load_ms: read model.json, map shards, decode weights, build and check the graph;
  - tfjsi process ms: the whole `tfjsi info` process, start to exit;
  - TF.js cold load_ms: the first load in a fresh Node process (TF.js already imported);
  - TF.js warm load_ms: the median of repeated loads in that same process.

usage: bench/load_time.py [--rounds N] [--tfjsi PATH] MODEL...
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run_json(cmd):
    t0 = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out), (time.perf_counter() - t0) * 1000


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("models", nargs="+")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--tfjsi", default=os.path.join(ROOT, "build", "app", "tfjsi"))
    args = ap.parse_args()
    node_script = os.path.join(ROOT, "tests", "reference", "time-tfjs.mjs")

    print("| model | weights on disk | tfjsi load (ms) | tfjsi process (ms) | TF.js cold load (ms) "
          "| TF.js warm load (ms) | TF.js cold / tfjsi |")
    print("|---|---|---|---|---|---|---|")
    for model in args.models:
        ours, ours_wall, cold, warm = [], [], [], []
        info = None
        for _ in range(args.rounds):
            info, wall = run_json([args.tfjsi, "info", model, "--json"])
            ours.append(info["load_ms"])
            ours_wall.append(wall)
            tj, _ = run_json(["node", node_script, model, "--runs", "0", "--load-runs", "3"])
            cold.append(tj["load_first_ms"])
            warm.append(tj["load_ms"])
        mb = info["weights"]["bytes_on_disk"] / (1 << 20)
        m = {k: statistics.median(v) for k, v in
             {"ours": ours, "wall": ours_wall, "cold": cold, "warm": warm}.items()}
        print(f"| {os.path.basename(model)} | {mb:.1f} MiB | {m['ours']:.1f} | {m['wall']:.1f} | "
              f"{m['cold']:.1f} | {m['warm']:.1f} | {m['cold'] / m['ours']:.1f}x |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
