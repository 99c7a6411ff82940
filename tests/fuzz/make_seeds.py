#!/usr/bin/env python3
"""Makes the fuzzers' seed folders from the real test data, which is too big to commit.

  model_json, graphdef: corpus graph models (model.json only; weights come from the manifest)
  keras, model_json:    the reference layers models made by real tfjs-layers
  bundle:               those models with their shards, and corpus manifests with every weight
                        shrunk to a few elements (quantization kinds kept), in the input format of
                        tests/fuzz/bundle_target.cpp: model.json, NUL, shards split by SEPARATOR
  npy:                  small golden .npy files and made-up ones of every accepted element type
Hand-written seeds in tests/fuzz/seeds/<target>/ are copied too.
"""
import argparse
import hashlib
import json
import pathlib
import shutil
import struct

SEPARATOR = b"\0SHARD\0"
MAX_JSON = 48 * 1024  # bigger inputs slow every execution down (run_fuzzer.sh's -max_len)
WINDOW = 40  # nodes in one slice of a big graph model


def put(folder, data):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)


def bundle_input(model, shards):
    """model: dict with paths in weightsManifest renamed to 0.bin, 1.bin ... in order."""
    return json.dumps(model).encode() + b"\0" + SEPARATOR.join(shards)


def rename_paths(model, shard_bytes_of):
    """Renames every shard path to K.bin and returns the shards' bytes in that order."""
    shards, k = [], 0
    for group in model.get("weightsManifest", []):
        new_paths = []
        for p in group["paths"]:
            shards.append(shard_bytes_of(p))
            new_paths.append(f"{k}.bin")
            k += 1
        group["paths"] = new_paths
    return shards


ELEMENT_BYTES = {"float32": 4, "int32": 4, "bool": 1}


def shrunk_manifest_bundle(model):
    """A corpus model whose weights keep their dtype and quantization but hold 1-4 elements,
    stored in two shards per group so that weights straddle a shard boundary."""
    m = {"format": model.get("format"), "generatedBy": model.get("generatedBy"),
         "convertedBy": model.get("convertedBy"), "modelTopology": {"node": []},
         "weightsManifest": []}
    shards = []
    for gi, group in enumerate(model.get("weightsManifest", [])):
        data = bytearray()
        weights = []
        for i, w in enumerate(group["weights"][:24]):
            w = dict(w)
            n = 1 + i % 4
            w["shape"] = [n] if i % 3 else [1, n]
            q = w.get("quantization")
            if w.get("dtype") == "string":
                for _ in range(n):
                    data += struct.pack("<I", 3) + b"abc"
            elif q:
                size = {"uint8": 1, "uint16": 2, "float16": 2}.get(q.get("dtype"), 4)
                data += bytes((j * 37) % 256 for j in range(n * size))
            else:
                data += bytes((j * 11) % 256 for j in range(n * ELEMENT_BYTES.get(w.get("dtype"), 4)))
            weights.append(w)
        half = len(data) // 2
        base = len(shards)
        shards += [bytes(data[:half]), bytes(data[half:])]
        m["weightsManifest"].append({"paths": [f"{base}.bin", f"{base + 1}.bin"], "weights": weights})
    return bundle_input(m, shards)


def node_ref(name):
    """'^a', 'a:1', 'a:out:0' -> 'a'."""
    return name.lstrip("^").split(":")[0]


def graph_slices(model):
    """Small graph models cut from a big one: WINDOW consecutive nodes, every input from outside
    the window replaced by a Placeholder, the manifest cut down to the Consts kept. Three
    windows a model (start, middle, end) keep the seed set small but the ops varied."""
    nodes = model["modelTopology"].get("node", [])
    starts = sorted({0, max(0, len(nodes) // 2 - WINDOW // 2), max(0, len(nodes) - WINDOW)})
    for start in starts:
        window = nodes[start:start + WINDOW]
        names = {n["name"] for n in window}
        outside = []
        for n in window:
            for i in n.get("input", []):
                r = node_ref(i)
                if r not in names:
                    names.add(r)
                    outside.append({"name": r, "op": "Placeholder",
                                    "attr": {"dtype": {"type": "DT_FLOAT"}}})
        weights = []
        for group in model.get("weightsManifest", []):
            weights += [w for w in group["weights"] if w["name"] in names]
        topo = {"node": outside + window, "versions": model["modelTopology"].get("versions", {})}
        yield {"format": "graph-model", "modelTopology": topo,
               "weightsManifest": [{"paths": ["0.bin"], "weights": weights}]}


def npy_bytes(descr, shape, payload, version=1):
    shape_text = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape_text)
    lead = 10 if version == 1 else 12
    header += " " * ((64 - (lead + len(header) + 1) % 64) % 64) + "\n"
    size = struct.pack("<H", len(header)) if version == 1 else struct.pack("<I", len(header))
    return b"\x93NUMPY" + bytes([version, 0]) + size + header.encode() + payload


def made_up_npys():
    yield npy_bytes("<f4", [2, 3], struct.pack("<6f", 0, 1, -2, 3.5, 1e30, -0.0))
    yield npy_bytes("<f2", [4], struct.pack("<4H", 0x3C00, 0x7C00, 0x0001, 0xFBFF))
    yield npy_bytes("<f8", [2], struct.pack("<2d", 1.5, 1e300))
    yield npy_bytes("<i4", [3], struct.pack("<3i", -1, 0, 2**31 - 1))
    yield npy_bytes("<i8", [2], struct.pack("<2q", -5, 7))
    yield npy_bytes("|u1", [3], bytes([0, 128, 255]))
    yield npy_bytes("|i1", [2], bytes([0x80, 0x7F]))
    yield npy_bytes("<i2", [1, 2], struct.pack("<2h", -300, 300))
    yield npy_bytes("<u2", [2], struct.pack("<2H", 1, 65535))
    yield npy_bytes("|b1", [2, 2], bytes([0, 1, 2, 0]))
    yield npy_bytes("<f4", [], struct.pack("<f", 42.0))
    yield npy_bytes("<f4", [0, 5], b"")
    yield npy_bytes("<f4", [2], struct.pack("<2f", 1, 2), version=2)
    yield npy_bytes("<i4", [1], struct.pack("<i", 9), version=3)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--corpus", default="")
    ap.add_argument("--reference", default="")
    ap.add_argument("--hand", default="")
    args = ap.parse_args()
    out = pathlib.Path(args.out)
    shutil.rmtree(out, ignore_errors=True)

    if args.corpus:
        corpus = pathlib.Path(args.corpus)
        models = sorted(corpus.glob("*.json"))
        if not models:
            raise SystemExit(f"make_seeds: no models in {corpus}")
        for f in models:
            text = f.read_bytes()
            model = json.loads(text)
            if len(text) <= MAX_JSON:
                put(out / "graphdef", text)
                put(out / "model_json", text)
            for piece in graph_slices(model):
                data = json.dumps(piece, separators=(",", ":")).encode()
                if len(data) <= MAX_JSON:
                    put(out / "graphdef", data)
                    put(out / "model_json", data)
            put(out / "bundle", shrunk_manifest_bundle(model))

    if args.reference:
        ref = pathlib.Path(args.reference)
        layers = sorted((ref / "layers").glob("*/model.json"))
        if not layers:
            raise SystemExit(f"make_seeds: no layers models in {ref}/layers")
        for f in layers:
            text = f.read_bytes()
            put(out / "keras", text)
            put(out / "model_json", text)
            model = json.loads(text)
            shards = rename_paths(model, lambda p: (f.parent / p).read_bytes())
            put(out / "bundle", bundle_input(model, shards))
        npys = sorted((ref / "golden").glob("*/*.npy"), key=lambda p: p.stat().st_size)
        for f in npys[:40]:
            if f.stat().st_size <= 64 * 1024:
                put(out / "npy", f.read_bytes())
    for data in made_up_npys():
        put(out / "npy", data)

    if args.hand:
        for d in pathlib.Path(args.hand).glob("*"):
            for f in d.glob("*"):
                put(out / d.name, f.read_bytes())

    for t in ("model_json", "bundle", "graphdef", "keras", "npy"):
        n = len(list((out / t).glob("*"))) if (out / t).exists() else 0
        if n == 0:
            raise SystemExit(f"make_seeds: no seeds for {t} (is the test data there?)")
        print(f"{t}: {n} seeds")


if __name__ == "__main__":
    main()
