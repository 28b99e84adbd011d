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
  md +=
      "\n## Types\n\n"
      "| type | C++/OpenMP | OpenCL C 1.2 |\n"
      "|---|---|---|\n"
      "| `bool`, `char`, `uchar`, `short`, `ushort`, `int`, `uint`, `long`, `ulong`, `float` and their "
      "2-, 3-, 4-vectors (`vec<T, N>`), `bool`'s excepted | the C++ types, `mslport::vec<T, N>` (Metal's sizes "
      "and alignments) | the OpenCL types; `bool` in device memory is a byte |\n"
      "| `bool2`, `bool3`, `bool4`, `vec<bool, N>` (but not a template's `vec<T, N>` with `T` = `bool`: clang's "
      "OpenCL mode, which reads Metal for the front end, has no `bool` ext vectors) | `mslport::vec<bool, N>`: "
      "a byte per lane, `bool3` "
      "4 bytes (Metal's sizes and alignments); comparisons of vectors, `!`, `&&`, `||`, `==`, `!=` give them, "
      "lane by lane; `any`, `all`, `select` take them | `charN` holding 1 or 0 per lane, in memory too (the "
      "same bytes); OpenCL's -1/0 comparison lanes are negated to it, and `any`, `all`, `select` get the sign "
      "bits they test |\n"
      "| `half` and its vectors | `_Float16`; every arithmetic result rounded to half (a cast after each "
      "operation: C++ would otherwise keep the expression in float) | no `cl_khr_fp16` on PoCL: stored as "
      "`ushort` bits, computed in float and rounded to half after each operation (`vstore_half_rte`), "
      "the same values |\n"
      "| `bfloat` and its vectors | a 16-bit struct, rounded to nearest even after each operation | "
      "`ushort` bits, computed in float and rounded after each operation |\n"
      "| `packed_float3` and every `packed_<T><N>` | a struct of `T[N]` (12 bytes, 4-aligned for float3); "
      "conversion to and from the aligned vector, also of another element type (`float3(p)`, "
      "`packed_half3(v)`, `packed_float3(packed_half3)`), `p[i]`, the arithmetic operators | the same |\n"
      "| `floatCxR`, `halfCxR` (`matrix<T, C, R>`) | columns, `m[i]`, `*` with vectors, matrices and scalars, "
      "`+`, `-`, `transpose` | the same |\n"
      "| `atomic_int`, `atomic_uint`, `atomic_float`, `atomic_bool` | the plain type in memory, reached "
      "only through `__atomic` builtins | the plain type (`atomic_bool` a byte) through `atomic_*` and "
      "compare-and-swap loops |\n"
      "| `simdgroup_matrix<T, 8, 8>`, T float, half, bfloat | every lane holds the whole tile, as row-major "
      "pairs (`thread_elements()` is a lane's pair) | every lane holds the tile as floats, rounded to T "
      "where Metal produces one (a union of 64 floats and 32 `float2` pairs) |\n"
      "| structs | Metal's layout (`alignas`, runtime-sized trailing arrays), checked by `static_assert` | "
      "the same, with explicit padding fields |\n\n"
      "Fast math, Metal's default and the targets', may reassociate arithmetic; with half and bfloat, "
      "where every step rounds, a reordered chain of additions can differ in the last bits. Conversions "
      "follow C's rules (float to integer toward zero, out-of-range values undefined as in Metal); "
      "`static_cast` between vectors converts lane by lane, `as_type` reinterprets types of equal size, "
      "vectors included. Saturating conversions (`convert_*_sat`) have no Metal spelling.\n";
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
