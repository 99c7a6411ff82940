#!/usr/bin/env python3
"""Soak: many runs of a model switching backend on every run, checking that nothing grows.

For each model, one `tfjsi memcheck MODEL --runs N --switch B1,B2,... --json` process (the
backends `tfjsi env` says are available, in the order cpu, xnnpack, gl). The runs are cut in
thirds; the first third is warm-up (weights copied to each backend, programs compiled, heap and
pools at their working size). After it:
  - live tensors, data bytes and GL objects are exactly equal on every run of the same backend
    (and memcheck's own verdict, which asks the same from the end of the second cycle, holds);
  - no tensor made by a run is still alive after it (memcheck's "leaked" list is empty);
  - resident memory (VmRSS): the last third's maximum is at most the middle third's maximum
    plus --rss-slack-kib (default 1024);
  - C heap in use (memcheck's heap_in_use_kb, mallinfo2 over every arena): the same rule. It
    tells live allocations from memory the allocator (or a driver's threads) keeps after frees.
Prints a Markdown table and, per model, the resident memory at a few points; exits 1 when a
model fails a rule, 2 when memcheck itself fails.

usage: bench/soak.py [--tfjsi PATH] [--runs N] [--switch LIST] [--json-dir DIR] [MODEL...]
MODEL is a corpus model name (handtrack) or a model.json path; default: handtrack blazeface iris.
"""
import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def corpus_dir():
    if os.environ.get("TFJSI_CORPUS_DIR"):
        return os.environ["TFJSI_CORPUS_DIR"]
    cache = os.environ.get("TFJSI_CACHE_DIR", os.path.expanduser("~/.cache/tfjs-inspector"))
    return os.path.join(cache, "corpus", "human-models-3.0.4", "package", "models")


def available_backends(tfjsi):
    env = json.loads(subprocess.run([tfjsi, "env", "--json"], check=True, capture_output=True,
                                    text=True).stdout)
    ok = {b["name"] for b in env["backends"] if b["available"]}
    return [b for b in ("cpu", "xnnpack", "gl") if b in ok]


def judge(j, slack_kib):
    """Returns (problems, figures) for one memcheck report."""
    runs = j["per_run"]
    n = len(runs)
    third = n // 3
    middle, last = runs[third:2 * third], runs[2 * third:]
    problems = []
    if not j["stable"]:
        problems.append("memcheck: not stable")
    if j["leaked"]:
        problems.append("%d leaked tensors (first made by %s)" %
                        (len(j["leaked"]), j["leaked"][0]["creator"]))
    levels = {}
    for r in middle + last:
        key = (r["tensors"], r["bytes"], r["gl_objects"]["total"])
        levels.setdefault(r["backend"], set()).add(key)
    for b, seen in sorted(levels.items()):
        if len(seen) != 1:
            problems.append("%s: %d different (tensors, bytes, GL objects) levels after warm-up: %s"
                            % (b, len(seen), sorted(seen)[:4]))
    if "heap_in_use_kb" in runs[0] and middle:
        heap_mid = max(r["heap_in_use_kb"] for r in middle)
        heap_last = max(r["heap_in_use_kb"] for r in last)
        if heap_last > heap_mid + slack_kib:
            problems.append("heap in use grew: last third max %d KiB > middle third max %d KiB + %d"
                            % (heap_last, heap_mid, slack_kib))
    else:
        heap_mid = heap_last = None
    rss_mid = max(r["rss_kb"] for r in middle) if middle else 0
    rss_last = max(r["rss_kb"] for r in last) if last else 0
    if middle and rss_last > rss_mid + slack_kib:
        problems.append("RSS grew: last third max %d KiB > middle third max %d KiB + %d"
                        % (rss_last, rss_mid, slack_kib))
    figures = {
        "levels": {b: sorted(v) for b, v in levels.items()},
        "rss_first": runs[0]["rss_kb"],
        "rss_warm": runs[third - 1]["rss_kb"] if third else runs[0]["rss_kb"],
        "rss_mid_max": rss_mid,
        "rss_last_max": rss_last,
        "rss_final": runs[-1]["rss_kb"],
        "gl": j["gl_objects_after"],
        "heap": (runs[third]["heap_in_use_kb"], heap_mid, heap_last, runs[-1]["heap_in_use_kb"])
        if heap_mid is not None else None,
        "cached_max": max(r.get("cached_bytes", 0) for r in runs),
    }
    return problems, figures


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("models", nargs="*", default=["handtrack", "blazeface", "iris"])
    ap.add_argument("--tfjsi", default=os.path.join(ROOT, "build", "app", "tfjsi"))
    ap.add_argument("--runs", type=int, default=1000)
    ap.add_argument("--switch", help="backends to cycle (default: every available one)")
    ap.add_argument("--rss-slack-kib", type=int, default=1024)
    ap.add_argument("--json-dir", help="keep each memcheck report there as MODEL.json")
    args = ap.parse_args()

    switch = args.switch.split(",") if args.switch else available_backends(args.tfjsi)
    print("| model | runs | backends | wall (s) | tensors | bytes per backend after warm-up "
          "| GL objects after (tex/buf/prog) | RSS KiB: run 1, end of warm-up, middle max, "
          "last max, final | heap in use KiB: end of warm-up, middle max, last max, final "
          "| verdict |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    failed = False
    for m in args.models:
        path = m if os.path.isfile(m) else os.path.join(corpus_dir(), m + ".json")
        cmd = [args.tfjsi, "memcheck", path, "--runs", str(args.runs), "--switch",
               ",".join(switch), "--json"]
        t0 = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        if p.returncode != 0:
            print("| %s | %d | %s | %.0f | memcheck failed (exit %d): %s | | | | FAIL |"
                  % (m, args.runs, ",".join(switch), wall, p.returncode,
                     p.stderr.strip().splitlines()[-1:] or ""))
            sys.stdout.flush()
            sys.exit(2)
        j = json.loads(p.stdout)
        if args.json_dir:
            os.makedirs(args.json_dir, exist_ok=True)
            with open(os.path.join(args.json_dir, os.path.basename(m).replace(".json", "") +
                                   ".json"), "w") as f:
                f.write(p.stdout)
        problems, fig = judge(j, args.rss_slack_kib)
        failed |= bool(problems)
        tensors = sorted({lv[0] for v in fig["levels"].values() for lv in v})
        per_backend = "; ".join("%s: %s" % (b, ", ".join(str(lv[1]) for lv in v))
                                for b, v in fig["levels"].items())
        gl = fig["gl"]
        cells = [m, j["runs"], ",".join(switch), "%.0f" % wall,
                 "%d -> %s" % (j["tensors_before"], ", ".join(map(str, tensors))), per_backend,
                 "%d (%d/%d/%d)" % (gl["total"], gl["textures"], gl["buffers"], gl["programs"]),
                 "%d, %d, %d, %d, %d" % (fig["rss_first"], fig["rss_warm"], fig["rss_mid_max"],
                                         fig["rss_last_max"], fig["rss_final"]),
                 "%d, %d, %d, %d" % fig["heap"] if fig["heap"] else "-",
                 "flat" if not problems else "FAIL: " + "; ".join(problems)]
        print("| " + " | ".join(str(c) for c in cells) + " |")
        sys.stdout.flush()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
