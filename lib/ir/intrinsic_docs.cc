#include "ir/intrinsic_docs.h"

#include "ir/intrinsic_table.h"

namespace mslport::ir {
namespace {

std::string cell(const char* s) {
  std::string out;
  for (const char* p = s; *p; ++p) out += *p == '|' ? std::string("\\|") : std::string(1, *p);
  return out;
}

std::string support(const char* lowering) {
  std::string l = lowering;
  if (l.empty()) return "no";
  return "yes";
}

}  // namespace

std::string render_msl_support() {
  std::string md =
      "# Metal standard library support\n\n"
      "Generated from [`lib/ir/intrinsic_table.def`](../lib/ir/intrinsic_table.def) by\n"
      "`ir::render_msl_support` (`lib/ir/intrinsic_docs.cc`); do not edit by hand. After changing\n"
      "the table, run `MSLPORT_UPDATE_DOCS=1 build/tests/test_ir --gtest_filter='IntrinsicTable.*'`.\n"
      "`tests/front/intrinsic_coverage_test.cc` fails when a function both targets support\n"
      "has no kernel in `metal_src/` with golden cases that calls it.\n\n"
      "Signatures: `F` float, half or bfloat, or a vector of one (all lanes alike); `Ff`\n"
      "float or a float vector; `I` an integer of 8 to 64 bits or a vector of one; `T` any of\n"
      "those; `S` the scalar of the same type; `B` bool; `V3` a 3-vector; `A` a pointer to\n"
      "`atomic_int` or `atomic_uint` (and `atomic_float`, `atomic_bool` where the row says so) in\n"
      "device or threadgroup memory. Precision: what the results are held to on each target;\n"
      "ulp bounds are those of the C++ library and of OpenCL C 1.2's full profile, both within\n"
      "Metal's own (fast-math) bounds. Metal's `fast::` forms are the plain functions; `precise::`\n"
      "forms without a row of their own are exact functions, the same as the plain ones.\n";
  IntrinsicGroup group = IntrinsicGroup::Internal;
  bool first = true;
  for (auto& row : intrinsic_table()) {
    if (row.group == IntrinsicGroup::Internal) continue;
    if (first || row.group != group) {
      group = row.group;
      first = false;
      md += std::string("\n## ") + intrinsic_group_name(group) + "\n\n";
      md += "| function | signature | C++/OpenMP | OpenCL C 1.2 | precision |\n";
      md += "|---|---|---|---|---|\n";
    }
    md += "| `" + std::string(row.name) + "` | " + cell(row.signature) + " | " + support(row.openmp) + " | " +
          support(row.opencl) + " | " + cell(row.precision) + " |\n";
  }
  return md;
}

}  // namespace mslport::ir
