#!/usr/bin/env python3
"""The fp16 check's emulation beside TF.js webgl's own fp16 error (issue #24's second table).

For each model: `tfjsi check-fp16 MODEL --json --no-gl --max-fix-runs 0 --rounding toward-zero
--overflow clamp` (llvmpipe's rule: Mesa truncates and saturates) on tests/reference's golden
inputs, and its outputs' error (max|x - fp32| / max(1, max|fp32|), largest over the outputs,
against our cpu fp32, which stays within ~1e-6 of TF.js cpu's golden on these models); beside it
TF.js webgl's fp16 error against TF.js cpu's golden, taken from webgl_side_by_side.py --sides webgl
passes (--webgl JSON...). Extra tfjsi flags go through --flag (fp16_follow=accuracy).

    bench/fp16_emulation_vs_webgl.py --tfjsi build/app/tfjsi --webgl A.json [B.json] \\
        [--models a,b | --all] [--flag NAME=VALUE]... [--out FILE.md]
"""
import argparse
import json
import os
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import webgl_side_by_side as harness  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tfjsi", default=os.path.join(os.path.dirname(here), "build", "app", "tfjsi"))
    ap.add_argument("--reference", default=None)
    ap.add_argument("--webgl", nargs="+", required=True)
    ap.add_argument("--models")
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--flag", action="append", default=[])
    ap.add_argument("--timeout", type=float, default=1800)
    ap.add_argument("--out")
    args = ap.parse_args()
    ref = args.reference or harness.default_reference()
    webgl = {}
    for p in args.webgl:
        with open(p) as f:
            for r in json.load(f)["rows"]:
                e = r.get("errors", {}).get("webgl-fp16")
                if e:
                    webgl[r["name"]] = (e["max"], r.get("kind"))
    names = sorted(webgl) if args.all or not args.models else args.models.split(",")
    rows = []
    for n in names:
        gdir = os.path.join(ref, "golden", n)
        with open(os.path.join(gdir, "golden.json")) as f:
            golden = json.load(f)
        cmd = [args.tfjsi, "check-fp16", harness.model_path(ref, golden), "--json", "--no-gl",
               "--max-fix-runs", "0", "--rounding", "toward-zero", "--overflow", "clamp"]
        cmd += harness.input_args(gdir, golden) + [a for f in args.flag for a in ("--flag", f)]
        t0 = time.monotonic()
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
        if p.returncode != 0 and not p.stdout.strip().startswith("{"):
            print(f"fp16-emulation: {n}: FAILED: {p.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
            rows.append((n, golden.get("kind"), None, webgl.get(n, (None,))[0], None))
            continue
        j = json.loads(p.stdout)
        emu = j["max_output_error"]
        rows.append((n, golden.get("kind"), emu, webgl.get(n, (None,))[0], j.get("fp16_follow")))
        print(f"fp16-emulation: {n} {emu:.3g} against TF.js webgl {webgl.get(n, (float('nan'),))[0]:.3g} "
              f"({time.monotonic() - t0:.0f} s)", file=sys.stderr)
    out = ["| model | emulation (Mesa rule) | TF.js webgl fp16 | ratio | #24: 0.5x-2x (or both < 1e-4) |",
           "|---|---|---|---|---|"]
    ok = 0
    for n, kind, emu, wg, _ in rows:
        label = n + (" (layers)" if kind == "layers" else "")
        if emu is None or wg is None:
            out.append(f"| {label} | {'failed' if emu is None else f'{emu:.1e}'} | {'-' if wg is None else f'{wg:.1e}'} | - | - |")
            continue
        both_small = emu < 1e-4 and wg < 1e-4
        within = both_small or (wg > 0 and 0.5 <= emu / wg <= 2)
        ok += within
        ratio = "-" if both_small or wg == 0 else f"{emu / wg:.2f}"
        out.append(f"| {label} | {emu:.1e} | {wg:.1e} | {ratio} | {'yes' if within else '**no**'} |")
    follow = {r[4] for r in rows if r[4]}
    text = "\n".join([f"fp16_follow: {', '.join(sorted(follow)) or '?'}; command: "
                      f"`{' '.join(['bench/fp16_emulation_vs_webgl.py'] + sys.argv[1:])}`", ""] + out +
                     ["", f"within 0.5x-2x (or both under 1e-4): **{ok} of {len(rows)}**"]) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    print(text)


if __name__ == "__main__":
    main()
