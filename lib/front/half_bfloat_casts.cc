#include "front/half_bfloat_casts.h"

#include <clang-c/Index.h>

#include <algorithm>
#include <regex>

#include "front/cursor_util.h"
#include "front/operand_wrapping.h"

namespace mslport::front {

namespace {

enum class Sort { Half, BFloat, Other };

// The sort of a type as clang describes it: "'half'", "'float16_t' (aka
// 'half')", "'bfloat' (aka '__bf16')". A vector is Other: its casts are the
// shim's constructors by the time clang reads them.
Sort sort_of(const std::string& d) {
  if (is_vector_description(d)) return Sort::Other;
  const std::string t = described_scalar(d);
  if (t == "bfloat" || t == "__bf16") return Sort::BFloat;
  if (t == "half" || t == "_Float16") return Sort::Half;
  return Sort::Other;
}

}  // namespace

std::vector<HalfBfloatCast> half_bfloat_casts(CXTranslationUnit tu) {
  static const std::regex kCast(
      R"(^(static_cast|functional-style cast|C-style cast) from (.*) to (.*) is not allowed$)");
  std::vector<HalfBfloatCast> out;
  for_each_diagnostic(tu, [&](CXDiagnostic d, const std::string& msg) {
    std::smatch m;
    if (std::regex_match(msg, m, kCast)) {
      Sort from = sort_of(m[2].str()), to = sort_of(m[3].str());
      // clang gives the whole cast's range, then the operand's.
      unsigned ranges = clang_getDiagnosticNumRanges(d);
      if (((from == Sort::Half && to == Sort::BFloat) || (from == Sort::BFloat && to == Sort::Half)) && ranges >= 2) {
        HalfBfloatCast c;
        if (written_range(clang_getDiagnosticRange(d, ranges - 1), &c.file, &c.operand_begin, &c.operand_end))
          out.push_back(c);
      }
    }
  });
  return out;
}

size_t convert_cast_operands_through_float(std::string* text, std::vector<HalfBfloatCast> casts) {
  std::vector<OperandRange> ranges;
  for (const auto& c : casts) ranges.push_back({c.operand_begin, c.operand_end});
  return wrap_operands(text, std::move(ranges), kThroughFloatCall);
}

}  // namespace mslport::front
