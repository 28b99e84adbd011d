#!/usr/bin/python3
"""Regenerates every golden case: /usr/bin/python3 golden/gen/generate.py [gen_module ...]

Every golden/gen/gen_*.py module with a generate() function is run, in name
order (or only the modules named on the command line)."""
import glob
import importlib
import os
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

if __name__ == "__main__":
    names = sys.argv[1:] or sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(HERE, "gen_*.py")))
    modules = [importlib.import_module(n) for n in names]
    for m in modules:
        m.generate()
    print("generated golden cases from", ", ".join(m.__name__ for m in modules))
