#include "front/half_bfloat_casts.h"

#include <clang-c/Index.h>

#include <algorithm>
#include <regex>
#include <tuple>

#include "front/cursor_util.h"

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
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n; ++i) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    std::string msg = take(clang_getDiagnosticSpelling(d));
    std::smatch m;
    if (std::regex_match(msg, m, kCast)) {
      Sort from = sort_of(m[2].str()), to = sort_of(m[3].str());
      // clang gives the whole cast's range, then the operand's.
      unsigned ranges = clang_getDiagnosticNumRanges(d);
      if (((from == Sort::Half && to == Sort::BFloat) || (from == Sort::BFloat && to == Sort::Half)) && ranges >= 2) {
        CXSourceRange r = clang_getDiagnosticRange(d, ranges - 1);
        FilePos b, e;
        if (written_pos(clang_getRangeStart(r), &b) && written_pos(clang_getRangeEnd(r), &e) &&
            clang_File_isEqual(b.file, e.file) && b.offset < e.offset)
          out.push_back({b.file, b.offset, e.offset});
      }
    }
    clang_disposeDiagnostic(d);
  }
  return out;
}

size_t convert_cast_operands_through_float(std::string* text, std::vector<HalfBfloatCast> casts) {
  std::string& t = *text;
  std::sort(casts.begin(), casts.end(), [](const HalfBfloatCast& a, const HalfBfloatCast& b) {
    return std::tie(a.operand_begin, a.operand_end) < std::tie(b.operand_begin, b.operand_end);
  });
  const std::string call = std::string(kThroughFloatCall) + "(";
  std::vector<HalfBfloatCast> edits;
  for (const auto& c : casts) {
    if (c.operand_end > t.size() || c.operand_begin >= c.operand_end) continue;
    if (!edits.empty() && edits.back().operand_begin == c.operand_begin && edits.back().operand_end == c.operand_end)
      continue;
    if (!edits.empty() && c.operand_begin < edits.back().operand_end) continue;  // overlaps: a later round
    if (t.compare(c.operand_begin, call.size(), call) == 0) continue;
    edits.push_back(c);
  }
  if (edits.empty()) return 0;
  std::string out;
  size_t from = 0;
  for (const auto& e : edits) {
    out.append(t, from, e.operand_begin - from);
    out += call;
    out.append(t, e.operand_begin, e.operand_end - e.operand_begin);
    out += ")";
    from = e.operand_end;
  }
  out.append(t, from, std::string::npos);
  t = std::move(out);
  return edits.size();
}

}  // namespace mslport::front
