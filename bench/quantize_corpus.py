#!/usr/bin/env python3
"""Output drift of every corpus model under each weight quantization, as `tfjsi quantize` writes
and measures it (issue #23): for each model and dtype (float16, uint16, uint8) one
`tfjsi quantize MODEL --dtype D --out TMP --json`, fed the golden inputs tests/reference made (so
models whose inputs the generator cannot make meaningful, rvm, run too). Drift is DESIGN.md's:
max over float outputs of max|quantized - float| / max(1, max|float|), on cpu. Not a timing: the
figures do not depend on the machine.

usage: bench/quantize_corpus.py --reference DIR [--tfjsi PATH] [--out FILE] [MODEL...]
"""
import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DTYPES = ["float16", "uint16", "uint8"]


def corpus_models():
    text = open(os.path.join(ROOT, "tests", "corpus.cmake")).read()
    m = re.search(r"set\(TFJSI_CORPUS_MODELS([^)]*)\)", text)
    return m.group(1).split()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reference", required=True, help="tests/reference data folder")
    ap.add_argument("--tfjsi", default=os.path.join(ROOT, "build", "app", "tfjsi"))
    ap.add_argument("--out", default=None)
    ap.add_argument("models", nargs="*")
    a = ap.parse_args()
    rows = []
    for name in a.models or corpus_models():
        gdir = os.path.join(a.reference, "golden", name)
        golden = json.load(open(os.path.join(gdir, "golden.json")))
        if "error" in golden:
            rows.append((name, None, "TF.js cannot run it"))
            continue
        feeds = []
        for i in golden["inputs"]:
            feeds += ["--input", "%s=%s" % (i.get("key", i["name"]), os.path.join(gdir, i["file"]))]
        result = {}
        for dtype in DTYPES:
            with tempfile.TemporaryDirectory() as tmp:
                p = subprocess.run([a.tfjsi, "quantize", golden["model"], "--dtype", dtype, "--out",
                                    os.path.join(tmp, "q"), "--json"] + feeds,
                                   capture_output=True, text=True)
                if p.returncode != 0:
                    result[dtype] = {"error": p.stderr.strip().splitlines()[-1]}
                else:
                    result[dtype] = json.loads(p.stdout)
        rows.append((name, result, ""))
        print(name, {d: result[d].get("drift", result[d].get("error")) for d in DTYPES},
              file=sys.stderr)

    def cell(r):
        if "error" in r:
            return "error"
        d = r["drift"]
        return "inf/NaN" if d is None else ("0" if d == 0 else "%.2g" % d)

    lines = ["# Weight quantization drift over the corpus (%s)" % datetime.date.today(), "",
             "`bench/quantize_corpus.py`: `tfjsi quantize MODEL --dtype D --json` on the golden "
             "inputs; drift = max over float outputs of max|quantized - float| / max(1, max|float|) "
             "on cpu. Stored = how the corpus ships the weights. uint8 bytes / float32 bytes in the "
             "last column.", "",
             "| model | stored | float16 | uint16 | uint8 | uint8 size |", "|---|---|---|---|---|---|"]
    for name, result, note in rows:
        if result is None:
            lines.append("| %s | | %s | | | |" % (name, note))
            continue
        stored = ""
        try:
            info = subprocess.run([a.tfjsi, "info", json.load(open(os.path.join(
                a.reference, "golden", name, "golden.json")))["model"], "--json"],
                capture_output=True, text=True)
            q = json.loads(info.stdout)["weights"]["by_quantization"]
            stored = ", ".join(k for k in q if k != "none") or "float32"
        except Exception:
            pass
        u8 = result["uint8"]
        size = "" if "error" in u8 else "%.3f" % (u8["bytes"] / u8["float_bytes"])
        lines.append("| %s | %s | %s | %s | %s | %s |" % (name, stored, cell(result["float16"]),
                                                          cell(result["uint16"]), cell(u8), size))
    text = "\n".join(lines) + "\n"
    out = a.out or os.path.join(HERE, "results", "quantize-corpus-%s.md" % datetime.date.today())
    open(out, "w").write(text)
    print(text)


if __name__ == "__main__":
    main()
