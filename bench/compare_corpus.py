#!/usr/bin/env python3
"""Layer-by-layer comparison of the corpus models across backends (issue #6): for each model,
`tfjsi compare MODEL --backends cpu,B --json` with the model's golden inputs (the deterministic
inputs of DESIGN.md, and the input-overrides.json ones for faceboxes and rvm), one process per
model and backend so a slow or failing gl run does not hold up the others. Results are kept per
model and backend in a JSON cache folder, so gl (slow on llvmpipe) can be run for a subset and the
table rebuilt from everything measured so far.

Verdict per model and backend:
  ok          no node past tolerance (compare's rule: max|x - cpu| <= tol * max(1, max|cpu|);
              int/bool outputs: share of differing elements)
  inherited   nodes past tolerance, none wrong on cpu's inputs when re-run alone
  KERNEL BUG  a node wrong on its own (named)
  run failed  the backend's run failed (reason)

Each cached result also records the commit checked out when it ran, the seconds the process took,
and where each node ran (the backend itself, cpu for a fallback, the executor for control flow), so
the table says how many nodes each backend really computed.

usage: bench/compare_corpus.py TFJSI CORPUS_DIR REFERENCE_DIR --backends xnnpack[,gl]
           [--models a,b,...] [--cache DIR] [--out OUT.md] [--timeout S]
           [--tolerance X] [--flag NAME=VALUE]...
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import time


def golden_inputs(ref, model):
    g = json.loads((ref / "golden" / model / "golden.json").read_text())
    args = []
    for i in g["inputs"]:
        name = i.get("key") or i["name"]
        args += ["--input", f"{name}={ref / 'golden' / model / i['file']}"]
    return args


def head_commit():
    p = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                       cwd=pathlib.Path(__file__).resolve().parent)
    return p.stdout.strip() or "unknown"


def run_compare(tfjsi, corpus, ref, model, backend, timeout, extra):
    cmd = [tfjsi, "compare", str(corpus / f"{model}.json"), "--backends", f"cpu,{backend}",
           "--json"] + golden_inputs(ref, model) + extra
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"no result within {timeout:.0f} s", "seconds": timeout}
    seconds = round(time.monotonic() - t0, 1)
    if p.returncode != 0:
        last = (p.stderr.strip().splitlines() or [f"exit {p.returncode}"])[-1]
        return {"error": last, "seconds": seconds}
    j = json.loads(p.stdout)
    j["seconds"] = seconds
    return j


def summarize(j, backend):
    """One table row's cells from a compare report (or an error)."""
    cells = summarize_report(j, backend)
    cells.setdefault("seconds", j.get("seconds"))
    cells.setdefault("commit", j.get("commit"))
    return cells


def summarize_report(j, backend):
    if "error" in j:
        return {"max": None, "first": None, "isolated": [], "verdict": "run failed: " + j["error"]}
    b = next(x for x in j["backends"] if x["backend"] == backend)
    if not b["available"]:
        return {"max": None, "first": None, "isolated": [],
                "verdict": "unavailable: " + b.get("reason", "")}
    if "run_error" in b:
        return {"max": None, "first": None, "isolated": [], "verdict": "run failed: " + b["run_error"]}
    first = b.get("first_divergent")
    ran = [n["backends"][backend] for n in j["nodes"] if backend in n["backends"]]
    on_backend = [r for r in ran if r["ran_on"] == backend]
    worst_node = max((r["normalized_error"] if r["normalized_error"] is not None
                      else float("inf") for r in on_backend), default=0.0)
    worst_out = max(b["outputs"], key=lambda o: o["normalized_error"] if o["normalized_error"]
                    is not None else float("inf"))
    if first is None:
        verdict = "ok"
    elif b["isolated"]:
        verdict = "KERNEL BUG: " + ", ".join(b["isolated"])
    else:
        verdict = f"inherited ({b['divergent']} nodes past tolerance, none wrong alone)"
    return {"max": b["max_output_error"], "worst_output": worst_out["name"], "first": first,
            "divergent": b["divergent"], "isolated": b["isolated"], "verdict": verdict,
            "nodes": len(ran), "on_backend": len(on_backend), "max_node": worst_node,
            "seconds": j.get("seconds"), "commit": j.get("commit")}


def fmt(v):
    if v is None:
        return "—"
    return "0" if v == 0 else f"{v:.2g}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tfjsi")
    ap.add_argument("corpus", type=pathlib.Path)
    ap.add_argument("reference", type=pathlib.Path)
    ap.add_argument("--backends", default="xnnpack")
    ap.add_argument("--models", default="")
    ap.add_argument("--cache", type=pathlib.Path, default=pathlib.Path("bench/results/compare-cache"))
    ap.add_argument("--out", type=pathlib.Path)
    ap.add_argument("--timeout", type=float, default=1800)
    ap.add_argument("--table-only", action="store_true", help="rebuild the table from the cache")
    ap.add_argument("--tolerance", type=float, help="compare's --tolerance (default: DESIGN.md's)")
    ap.add_argument("--flag", action="append", default=[], help="tfjsi --flag NAME=VALUE")
    a = ap.parse_args()
    extra = [] if a.tolerance is None else ["--tolerance", repr(a.tolerance)]
    for f in a.flag:
        extra += ["--flag", f]

    models = sorted(p.stem for p in a.corpus.glob("*.json"))
    run_models = a.models.split(",") if a.models else models
    backends = a.backends.split(",")
    a.cache.mkdir(parents=True, exist_ok=True)
    if not a.table_only:
        commit = head_commit()
        for m in run_models:
            for b in backends:
                j = run_compare(a.tfjsi, a.corpus, a.reference, m, b, a.timeout, extra)
                j["commit"] = commit
                (a.cache / f"{m}.{b}.json").write_text(json.dumps(j))
                s = summarize(j, b)
                print(f"{m:28s} {b:8s} max {fmt(s['max']):8s} {j.get('seconds', 0):7.1f} s  "
                      f"{s['verdict']}", flush=True)

    rows = []
    for m in models:
        cells = {}
        for b in ("xnnpack", "gl"):
            f = a.cache / f"{m}.{b}.json"
            if f.exists():
                cells[b] = summarize(json.loads(f.read_text()), b)
        rows.append((m, cells))
    if a.out:
        lines = ["| model | nodes compared (ran on xnnpack / gl) | max output error, xnnpack | "
                 "max node error, xnnpack | max output error, gl | max node error, gl | "
                 "first divergent node | s xnnpack | s gl | verdict |",
                 "|---|---|---|---|---|---|---|---|---|---|"]
        for m, cells in rows:
            x, g = cells.get("xnnpack", {}), cells.get("gl", {})
            n = x.get("nodes") or g.get("nodes")
            ran = " / ".join(str(c["on_backend"]) if c.get("on_backend") is not None else "—"
                             for c in (x, g))
            firsts = "; ".join(f"{b}: `{c['first']}`" for b, c in cells.items() if c["first"])
            verdicts = "; ".join(f"{b}: {c['verdict']}" for b, c in cells.items())
            secs = [f"{c['seconds']:.1f}" if c.get("seconds") is not None else "—" for c in (x, g)]
            lines.append(f"| {m} | {n if n is not None else '—'} ({ran}) | {fmt(x.get('max'))} | "
                         f"{fmt(x.get('max_node'))} | {fmt(g.get('max'))} | "
                         f"{fmt(g.get('max_node'))} | {firsts or '—'} | {secs[0]} | {secs[1]} | "
                         f"{verdicts} |")
        totals = {}
        for b in ("xnnpack", "gl"):
            cs = [c[b] for _, c in rows if b in c]
            if not cs:
                continue
            totals[b] = (len(cs), sum(c.get("nodes") or 0 for c in cs),
                         sum(c.get("on_backend") or 0 for c in cs),
                         sum(1 for c in cs if c["verdict"] == "ok"),
                         sum(c.get("seconds") or 0 for c in cs),
                         sorted({c.get("commit") or "unknown" for c in cs}))
        lines.append("")
        for b, (models_n, nodes, on, ok, secs, commits) in totals.items():
            lines.append(f"{b}: {models_n} models, {nodes} nodes compared ({on} ran on {b}), "
                         f"{ok} models with no node past tolerance, {secs:.0f} s in all, "
                         f"commit {', '.join(commits)}")
        a.out.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
