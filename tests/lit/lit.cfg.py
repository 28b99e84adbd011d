# lit configuration for mslport's textual tests (diagnostics catalogue,
# the IR around each pass, names the emitted code reserves).
# Run through ctest (tests/CMakeLists.txt), which passes the tool paths:
#   lit.py -D mslport=build/tool/mslport -D filecheck=/usr/lib/llvm-19/bin/FileCheck tests/lit
import os
import sys

import lit.formats

config.name = "mslport"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".metal", ".test"]
config.excludes = ["inputs"]
config.test_source_root = os.path.dirname(__file__)
# Keep lit's Output/ directories out of the source tree.
if lit_config.params.get("exec_root"):
    config.test_exec_root = lit_config.params["exec_root"]

mslport = lit_config.params.get("mslport")
filecheck = lit_config.params.get("filecheck", "FileCheck")
if not mslport:
    lit_config.fatal("pass -D mslport=/path/to/mslport")
config.substitutions.append(("%mslport-run", mslport + "-run"))
config.substitutions.append(("%mslport", mslport))
config.substitutions.append(("FileCheck", filecheck))
# LLVM's `not` (inverts the exit status) lives beside FileCheck.
config.substitutions.append(("not ", os.path.join(os.path.dirname(filecheck), "not") + " "))
# So does split-file (one test file holding several inputs).
config.substitutions.append(("split-file ", os.path.join(os.path.dirname(filecheck), "split-file") + " "))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%inputs", os.path.join(os.path.dirname(__file__), "inputs")))
# Compiling emitted code: the C++ compiler and the runtime's headers, and a
# Clang that parses OpenCL C with its default header.
config.substitutions.append(("%cxx", lit_config.params.get("cxx", "c++")))
config.substitutions.append(
    ("%runtime-include", os.path.join(os.path.dirname(__file__), "..", "..", "lib", "runtime", "include")))
clang = lit_config.params.get("clang")
if clang and os.path.exists(clang):
    config.substitutions.append(("%clang-cl", clang + " -x cl -cl-std=CL1.2 -Xclang -finclude-default-header"))
    config.available_features.add("clang-cl")
# The tests run below this repository, whose own mslport.toml would
# otherwise apply to them; a test about project files names one (--project)
# or clears this (env -u MSLPORT_NO_PROJECT).
config.environment["MSLPORT_NO_PROJECT"] = "1"
