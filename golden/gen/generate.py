#!/usr/bin/python3
"""Regenerates every golden case: /usr/bin/python3 golden/gen/generate.py"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import gen_moe_post_ops  # noqa: E402

MODULES = [gen_moe_post_ops]

for name in ["gen_fused_norm_ops", "gen_moe_gate", "gen_features"]:
    try:
        MODULES.append(__import__(name))
    except ModuleNotFoundError as e:
        if e.name != name:
            raise

if __name__ == "__main__":
    for m in MODULES:
        m.generate()
    print("generated golden cases from", ", ".join(m.__name__ for m in MODULES))
