#!/usr/bin/env python3
"""Records TF.js 4.22 webgl's error against TF.js cpu's golden outputs, for the tests that hold
ours to it: fp16 on the reference layers models (webgl_fp16_test), fp32 on every golden model
(golden.gl.*: where our fp32 sums round as TF.js webgl's do, an output past DESIGN.md's tolerance
must be no worse than TF.js webgl's own on the same driver and input).

TF.js runs in headless Chromium on Mesa llvmpipe (the webgl side of bench/webgl_side_by_side.py;
bench/webgl/setup.sh installs it), fp16 with WEBGL_FORCE_F16_TEXTURES, fed tests/reference's
golden inputs; its error per float output is max|x - golden| / max(1, max|golden|) against TF.js
cpu's golden outputs. Nothing here comes from tfjsi. The figures go to webgl_<precision>_errors.json
beside this file, with the sha256 of each model.json and golden input, so that a test can tell
when the reference data no longer is what was measured (then record again).

    tests/precision/record_webgl_errors.py [--precision fp16|fp32] [--reference DIR]
                                           [--from-json HARNESS.json ...]

--from-json takes the .json of earlier `webgl_side_by_side.py --sides webgl --errors-only
--precisions P` passes instead of running Chromium (a model found in several: the last).
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


ABOUT = {"fp16": "fp16 (WEBGL_FORCE_F16_TEXTURES)", "fp32": "fp32"}


def model_path(ref, golden):
    """The model a golden.json was made from: corpus models by absolute path, layers ones under ref."""
    p = golden["model"]
    return p if os.path.isabs(p) else os.path.join(ref, p)


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reference", default=None)
    ap.add_argument("--from-json", nargs="*", default=None)
    ap.add_argument("--precision", choices=("fp16", "fp32"), default="fp16")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    precision = args.precision
    out_json = args.out or os.path.join(here, f"webgl_{precision}_errors.json")
    ref = args.reference or harness.default_reference()
    if precision == "fp16":
        names = sorted(os.path.basename(os.path.dirname(p)) for p in glob.glob(os.path.join(ref, "layers", "*", "model.json")))
    else:
        names = sorted(os.path.basename(os.path.dirname(p)) for p in glob.glob(os.path.join(ref, "golden", "*", "golden.json")))
    names = [n for n in names if os.path.exists(os.path.join(ref, "golden", n, "golden.json"))]
    passes = args.from_json
    if passes is None:
        tmp = tempfile.mkdtemp(prefix=f"webgl-{precision}-record-")
        out = os.path.join(tmp, "webgl.md")
        subprocess.run([sys.executable, os.path.join(root, "bench", "webgl_side_by_side.py"), "--reference", ref,
                        "--models", ",".join(names), "--sides", "webgl", "--errors-only", "--precisions", precision,
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
            e = r.get("errors", {}).get(f"webgl-{precision}")
            if e and r["name"] in names:
                rows[r["name"]] = e
    models = {}
    for n in names:
        if n not in rows:
            sys.exit(f"record_webgl_errors: no TF.js webgl {precision} error for {n}")
        g = json.load(open(os.path.join(ref, "golden", n, "golden.json")))
        models[n] = {
            "error": rows[n]["max"],
            "outputs": {o["name"]: o["error"] for o in rows[n]["outputs"]},
            "model_sha256": sha256(model_path(ref, g)),
            "inputs_sha256": [sha256(os.path.join(ref, "golden", n, i["file"])) for i in g["inputs"]],
        }
    doc = {
        "about": f"TF.js 4.22 webgl {ABOUT[precision]} error against TF.js cpu's golden outputs "
                 "on Mesa llvmpipe, max over float outputs of max|x - golden| / max(1, max|golden|); "
                 "made by tests/precision/record_webgl_errors.py",
        **meta,
        "models": models,
    }
    with open(out_json, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"record_webgl_errors: {len(models)} models -> {out_json}")


if __name__ == "__main__":
    main()
