#!/usr/bin/env python3
"""What a second core gives on this machine, beside what our xnnpack gets from it.

For each model, rounds alternate three measurements of `tfjsi bench --backend xnnpack`:
  solo   one process, --threads 1;
  pair   two such processes at once (each its own copy of the model): what two independent
         single-thread jobs get when both cores are asked for at once. The machine's ceiling
         for a 2-thread speed-up is 2 * solo / pair (2.0 on two free cores; less when the other
         tenants of a shared VM, or cores that are really one core's hyper-threads, take some);
  t2     one process, --threads 2.
The figures are medians over rounds of each process's median; the load average is sampled
before every round.

  bench/core_capacity.py [--corpus DIR] --models gear efficientpose --rounds 5 [--out FILE.md]
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


def cmd(binary, model, threads, runs, warmup):
    return [binary, "bench", model, "--backend", "xnnpack", "--threads", str(threads),
            "--runs", str(runs), "--warmup", str(warmup), "--json"]


def median_of(procs):
    out = []
    for p in procs:
        stdout, stderr = p.communicate()
        if p.returncode != 0:
            sys.exit(f"tfjsi failed: {stderr.strip()}")
        out.append(json.loads(stdout)["median_ms"])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", default=os.environ.get("TFJSI_CORPUS_DIR", DEFAULT_CORPUS),
                    help="folder of MODEL.json files (default: $TFJSI_CORPUS_DIR, else where "
                         "tests/fetch-corpus.sh puts it)")
    ap.add_argument("--models", nargs="+", required=True)
    ap.add_argument("--tfjsi", default="build/app/tfjsi")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--out", default=None, help="Markdown table (default: stdout)")
    a = ap.parse_args()

    solo, pair, t2, loads = {}, {}, {}, []
    for _ in range(a.rounds):
        for m in a.models:
            path = os.path.join(a.corpus, m + ".json")
            loads.append(load())
            run = lambda n, t: [subprocess.Popen(cmd(a.tfjsi, path, t, a.runs, a.warmup),
                                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                                 text=True) for _ in range(n)]
            solo.setdefault(m, []).extend(median_of(run(1, 1)))
            pair.setdefault(m, []).extend(median_of(run(2, 1)))
            t2.setdefault(m, []).extend(median_of(run(1, 2)))

    lines = [
        f"Load average before each round: min {min(loads):.2f}, median "
        f"{statistics.median(loads):.2f}, max {max(loads):.2f}. {a.rounds} rounds, each process "
        f"{a.runs} runs after {a.warmup} warm-up; medians over rounds (ms).",
        "",
        "| model | 1 thread, alone | 1 thread, two processes at once | machine's ceiling "
        "(2 x alone / at once) | --threads 2 | speed-up (1 thr / 2 thr) | share of the ceiling |",
        "|---|---|---|---|---|---|---|",
    ]
    for m in a.models:
        s, p, d = (statistics.median(x[m]) for x in (solo, pair, t2))
        ceiling = 2 * s / p
        lines.append(f"| {m} | {s:.3g} | {p:.3g} | {ceiling:.2f}x | {d:.3g} | {s / d:.2f}x | "
                     f"{(s / d) / ceiling:.0%} |")
    text = "\n".join(lines) + "\n"
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    print(text, end="")


if __name__ == "__main__":
    main()
