#!/usr/bin/env python3
"""Records TF.js 4.22 webgl's fp16 error on the reference layers models, for webgl_fp16_test.

TF.js runs in headless Chromium on Mesa llvmpipe with WEBGL_FORCE_F16_TEXTURES (the webgl side of
bench/webgl_side_by_side.py; bench/webgl/setup.sh installs it), fed tests/reference's golden
inputs; its error per float output is max|x - golden| / max(1, max|golden|) against TF.js cpu's
golden outputs. Nothing here comes from tfjsi. The figures go to webgl_fp16_errors.json beside
this file, with the sha256 of each model.json and golden input, so the test can tell when the
reference data no longer is what was measured (then record again).

    tests/precision/record_webgl_fp16.py [--reference DIR] [--from-json HARNESS.json ...]

--from-json takes the .json of earlier `webgl_side_by_side.py --sides webgl --errors-only
--precisions fp16` passes instead of running Chromium (a model found in several: the last).
"""
import argparse
import glob
import hashlib
import json
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.join(root, "bench"))
import webgl_side_by_side as harness  # noqa: E402


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reference", default=None)
    ap.add_argument("--from-json", nargs="*", default=None)
    ap.add_argument("--out", default=os.path.join(here, "webgl_fp16_errors.json"))
    args = ap.parse_args()
    ref = args.reference or harness.default_reference()
    names = sorted(os.path.basename(os.path.dirname(p)) for p in glob.glob(os.path.join(ref, "layers", "*", "model.json")))
    names = [n for n in names if os.path.exists(os.path.join(ref, "golden", n, "golden.json"))]
    passes = args.from_json
    if passes is None:
        tmp = tempfile.mkdtemp(prefix="webgl-fp16-record-")
        out = os.path.join(tmp, "webgl.md")
        subprocess.run([sys.executable, os.path.join(root, "bench", "webgl_side_by_side.py"), "--reference", ref,
                        "--models", ",".join(names), "--sides", "webgl", "--errors-only", "--precisions", "fp16",
                        "--out", out], check=True)
        passes = [os.path.splitext(out)[0] + ".json"]
    rows, meta = {}, {}
    for p in passes:
        with open(p) as f:
            d = json.load(f)
        for key in ("renderer", "tfjs", "browser"):
            if d.get(key):
                meta[key] = d[key]
        for r in d["rows"]:
            e = r.get("errors", {}).get("webgl-fp16")
            if e and r["name"] in names:
                rows[r["name"]] = e
    models = {}
    for n in names:
        if n not in rows:
            sys.exit(f"record_webgl_fp16: no TF.js webgl fp16 error for {n}")
        g = json.load(open(os.path.join(ref, "golden", n, "golden.json")))
        models[n] = {
            "error": rows[n]["max"],
            "outputs": {o["name"]: o["error"] for o in rows[n]["outputs"]},
            "model_sha256": sha256(os.path.join(ref, "layers", n, "model.json")),
            "inputs_sha256": [sha256(os.path.join(ref, "golden", n, i["file"])) for i in g["inputs"]],
        }
    doc = {
        "about": "TF.js 4.22 webgl fp16 (WEBGL_FORCE_F16_TEXTURES) error against TF.js cpu's golden outputs "
                 "on Mesa llvmpipe, max over float outputs of max|x - golden| / max(1, max|golden|); "
                 "made by tests/precision/record_webgl_fp16.py",
        **meta,
        "models": models,
    }
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"record_webgl_fp16: {len(models)} models -> {args.out}")


if __name__ == "__main__":
    main()
