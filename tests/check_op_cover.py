#!/usr/bin/env python3
"""Checks that a subset of the corpus models holds every op type the whole corpus holds.

The sanitizer pass runs the suites that execute every model (golden.*, analysis.compare,
runtime_run) on such a subset only (tests/corpus.cmake): this test fails, naming the ops no
longer covered, when the corpus or the subset changes so that an op would go unexercised there.

usage: check_op_cover.py CORPUS_DIR ALL_MODELS SUBSET   (model lists comma-separated)
"""
import json
import os
import sys


def op_types(corpus_dir, model):
    path = os.path.join(corpus_dir, model + ".json")
    with open(path, encoding="utf-8") as f:
        topology = json.load(f).get("modelTopology", {})
    ops = {node["op"] for node in topology.get("node", [])}
    for function in topology.get("library", {}).get("function", []):
        ops.update(node["op"] for node in function.get("nodeDef", []))
    return ops


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    corpus_dir, all_models, subset = sys.argv[1], sys.argv[2].split(","), sys.argv[3].split(",")
    unknown = sorted(set(subset) - set(all_models))
    if unknown:
        sys.exit("not corpus models: " + ", ".join(unknown))
    every = set().union(*(op_types(corpus_dir, m) for m in all_models))
    covered = set().union(*(op_types(corpus_dir, m) for m in subset))
    missing = sorted(every - covered)
    if missing:
        sys.exit(f"{len(missing)} op types of the corpus are in none of the {len(subset)} "
                 f"models the sanitizer pass runs: {', '.join(missing)}")
    print(f"{len(subset)} of {len(all_models)} models hold all {len(every)} op types")


if __name__ == "__main__":
    main()
