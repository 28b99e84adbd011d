#include "front/constant_copies.h"

#include <clang-c/Index.h>

#include "front/cursor_util.h"
#include "front/operand_wrapping.h"

namespace mslport::front {

std::vector<ConstantCopy> constant_space_copies(CXTranslationUnit tu) {
  const std::string kReason = "cannot bind reference in address space '__constant' to object in address space";
  std::vector<ConstantCopy> out;
  for_each_diagnostic(tu, [&](CXDiagnostic d, const std::string& msg) {
    // The source: the initializer, or the right side of `=`.
    int range = -1;
    if (msg.rfind("no matching constructor for initialization of", 0) == 0 && clang_getDiagnosticNumRanges(d) == 1)
      range = 0;
    else if (msg == "no viable overloaded '='" && clang_getDiagnosticNumRanges(d) == 2) range = 1;
    if (range < 0) return;
    bool about_constant = false;
    CXDiagnosticSet notes = clang_getChildDiagnostics(d);
    for (unsigned j = 0; notes && j < clang_getNumDiagnosticsInSet(notes) && !about_constant; ++j) {
      CXDiagnostic note = clang_getDiagnosticInSet(notes, j);
      about_constant = take(clang_getDiagnosticSpelling(note)).find(kReason) != std::string::npos;
      clang_disposeDiagnostic(note);
    }
    ConstantCopy c;
    if (about_constant && written_range(clang_getDiagnosticRange(d, (unsigned)range), &c.file, &c.begin, &c.end))
      out.push_back(c);
  });
  return out;
}

size_t load_constant_copies(std::string* text, const std::vector<ConstantCopy>& copies) {
  std::vector<OperandRange> ranges;
  for (const auto& c : copies)
    if (c.begin < c.end && c.end <= text->size() && (*text)[c.begin] != '{') ranges.push_back({c.begin, c.end});
  return wrap_operands(text, std::move(ranges), kLoadCall);
}

}  // namespace mslport::front
