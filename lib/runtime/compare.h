// Comparing a kernel's output bytes with a golden expected array.
//
// * Integer and bool dtypes (and 16-bit bfloat16 storage, i.e. <u2) compare
//   exactly.
// * Float dtypes (<f2 <f4 <f8) pass when |got - exp| <= atol + rtol * |exp| for
//   every element; NaN passes only where NaN is expected; an expected infinity
//   needs the same infinity.
// * Structured dtypes compare byte for byte.
// `compare_as` overrides the interpretation of the expected dtype:
//   ""          by dtype (above)
//   "exact"     byte for byte, whatever the dtype
//   "bfloat16"  2-byte elements are bfloat16 values, compared with atol/rtol
//   "float16"   2-byte elements are IEEE half values, compared with atol/rtol
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "runtime/npy.h"

namespace mslport::runtime {

struct CompareResult {
  bool pass = true;
  size_t count = 0;       // elements compared
  size_t mismatches = 0;  // elements out of tolerance
  // Over all elements: max |got - exp| and max |got - exp| / max(|exp|, 1e-30).
  // A NaN where a number is expected (or the reverse) counts as infinity.
  double max_abs_err = 0;
  double max_rel_err = 0;
  std::string message;  // empty on pass; otherwise the first mismatches
  // The same, structured: how elements were compared ("tolerance", "exact",
  // "bytes"; empty when the sizes differ) and the first mismatches (index in
  // the expected array's shape, got, expected).
  std::string compare;
  std::vector<std::vector<size_t>> first_index;
  std::vector<std::string> first_got, first_expected;
};

// Mismatches listed per output, in the message and the structured fields.
constexpr size_t kMaxReportedMismatches = 5;

// Checks that compare_as is one of the values above.
bool valid_compare_as(const std::string& compare_as);

// `got` must hold expected.nbytes() bytes. `name` labels messages (e.g. "out").
CompareResult compare_output(const NpyArray& expected, const void* got, size_t got_bytes, double atol, double rtol,
                             const std::string& compare_as, const std::string& name);

// Conversions used by the comparison (exposed for tests).
float half_to_float(uint16_t h);
float bfloat16_to_float(uint16_t b);

}  // namespace mslport::runtime
