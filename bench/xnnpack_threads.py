#!/usr/bin/env python3
"""xnnpack with 1 and 2 threads, before and after a change, on a shared machine.

Each configuration is a label, a tfjsi binary and extra arguments. Rounds alternate the
configurations model by model (so a burst of load from other processes hits all of them), and
the figure per (model, configuration) is the median over rounds of each `tfjsi bench` median.
The load average is recorded before and after every round.

  bench/xnnpack_threads.py --models selfie meet --rounds 3 \
      --config before=../old/build/app/tfjsi \
      --config after=build/app/tfjsi \
      --config ops=build/app/tfjsi:--flag:xnnpack.subgraph=false \
      --json out.json
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import DEFAULT_CORPUS  # noqa: E402


def load():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def bench(binary, extra, model, threads, runs, warmup):
    cmd = [binary, "bench", model, "--backend", "xnnpack", "--threads", str(threads),
           "--runs", str(runs), "--warmup", str(warmup), "--json"] + extra
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.environ.get("TFJSI_CORPUS_DIR", DEFAULT_CORPUS),
                    help="folder of MODEL.json files (default: $TFJSI_CORPUS_DIR, else where "
                         "tests/fetch-corpus.sh puts it)")
    ap.add_argument("--models", nargs="+", required=True)
    ap.add_argument("--config", action="append", required=True,
                    help="LABEL=BINARY[:ARG:ARG...]")
    ap.add_argument("--threads", nargs="+", type=int, default=[1, 2])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--json", default=None)
    a = ap.parse_args()
    corpus = a.corpus
    configs = []
    for c in a.config:
        label, rest = c.split("=", 1)
        parts = rest.split(":")
        configs.append((label, parts[0], parts[1:]))
    times = {}   # (model, label, threads) -> [median per round]
    extra = {}   # (model, label) -> the last bench report's xnnpack section
    loads = []
    for r in range(a.rounds):
        for m in a.models:
            path = os.path.join(corpus, m + ".json")
            before = load()
            for label, binary, args in configs:
                for t in a.threads:
                    j = bench(binary, args, path, t, a.runs, a.warmup)
                    times.setdefault((m, label, t), []).append(j["median_ms"])
                    if "xnnpack" in j:
                        extra[(m, label)] = j["xnnpack"]
            loads.append((before, load()))
            print(f"round {r + 1} {m} load {before:.2f}->{load():.2f}", file=sys.stderr)
    result = {"models": a.models, "configs": [c[0] for c in configs], "threads": a.threads,
              "rounds": a.rounds, "runs": a.runs, "warmup": a.warmup, "loads": loads,
              "median_ms": {}, "rounds_ms": {}, "xnnpack": {}}
    for (m, label, t), v in times.items():
        result["median_ms"].setdefault(m, {}).setdefault(label, {})[str(t)] = statistics.median(v)
        result["rounds_ms"].setdefault(m, {}).setdefault(label, {})[str(t)] = v
    for (m, label), x in extra.items():
        result["xnnpack"].setdefault(m, {})[label] = x
    text = json.dumps(result, indent=1)
    if a.json:
        with open(a.json, "w") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main()
