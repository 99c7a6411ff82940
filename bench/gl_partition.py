#!/usr/bin/env python3
"""The gl partition summary of every corpus model: nodes on gl, on cpu (fallbacks, by op), run by
the executor itself, segments and sync points, from `tfjsi run MODEL --backend gl --json` (one run
per model; the plan is what the run used). Writes bench/gl_partition.md.

Everything comes from that one process per model: its JSON's "placement". The inputs are those of
bench/run.py (input-overrides.json: faceboxes and rvm get 256x256 images instead of their unknown
sizes). With XDG_CACHE_HOME set (--cache-home, e.g. the folder bench/run.py's gl processes used) the
shaders come from the program-binary cache on disk, which makes a run under load minutes shorter.

usage: bench/gl_partition.py TFJSI CORPUS_DIR [OUT.md] [--cache-home DIR] [--timeout S]
"""
import collections
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as bench_run  # noqa: E402  (the benchmark's inputs)


def run_one(tfjsi, model, extra, env, timeout):
    t0 = time.monotonic()
    try:
        p = subprocess.run([tfjsi, "run", str(model), "--backend", "gl", "--json"] + extra,
                           capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return None, f"no result within {timeout:.0f} s", time.monotonic() - t0
    if p.returncode != 0:
        last = (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1]
        return None, last, time.monotonic() - t0
    return json.loads(p.stdout), "", time.monotonic() - t0


def main():
    argv, env, timeout = [], None, 900.0
    it = iter(sys.argv[1:])
    for a in it:
        if a == "--cache-home":
            env = dict(os.environ, XDG_CACHE_HOME=next(it))
        elif a == "--timeout":
            timeout = float(next(it))
        else:
            argv.append(a)
    if len(argv) < 2:
        sys.exit(__doc__)
    tfjsi, corpus = argv[0], pathlib.Path(argv[1])
    out = pathlib.Path(argv[2]) if len(argv) > 2 else pathlib.Path(__file__).with_name("gl_partition.md")
    rows, notes = [], []
    tmpdir = tempfile.mkdtemp(prefix="tfjsi-glpart-")
    for model in sorted(corpus.glob("*.json")):
        name = model.stem
        extra = bench_run.override_args(str(model), name, tmpdir)
        j, err, secs = run_one(tfjsi, model, extra, env, timeout)
        print(f"{name}: {'ok' if j else err} ({secs:.1f} s)", file=sys.stderr)
        if not j:
            rows.append(f"| {name} | - | - | - | - | - | run failed: {err} |")
            continue
        pl = j["placement"]
        nodes = pl["nodes"]
        by_op = collections.Counter(f["op"] for f in pl["fallbacks"])
        ops = ", ".join(f"{op} ({n})" if n > 1 else op for op, n in sorted(by_op.items()))
        on_gl, on_cpu = nodes.get("gl", 0), nodes.get("cpu", 0)
        share = 100.0 * on_gl / (on_gl + on_cpu) if on_gl + on_cpu else 0.0
        rows.append(f"| {name} | {on_gl} | {on_cpu} | {nodes.get('executor', 0)} | "
                    f"{pl['segments']} | {pl['sync_points']} | {ops or '-'} |")
        notes.append((name, share))
    lines = [
        "# gl partition of the corpus",
        "",
        "Made by `bench/gl_partition.py` from `tfjsi run MODEL --backend gl --json` (fp32, one run",
        "each, Mesa llvmpipe, the inputs of bench/run.py). Kernel nodes only: gl = run by the gl backend, cpu = fallbacks (the",
        "op, or these inputs, has no gl kernel), executor = control flow, Identity and the like.",
        "Segments are runs of consecutive kernels on one backend; sync points are kernel inputs",
        "that come from another backend (a copy between textures and host memory).",
        "",
        "| model | gl | cpu | executor | segments | sync points | ops on cpu (nodes) |",
        "|---|---:|---:|---:|---:|---:|---|",
        *rows,
        "",
    ]
    if notes:
        full = [n for n, s in notes if s == 100.0]
        lines.append(f"{len(full)} of {len(notes)} models run every kernel node on gl.")
        lines.append("")
    shutil.rmtree(tmpdir, ignore_errors=True)
    out.write_text("\n".join(lines))
    print(f"wrote {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
