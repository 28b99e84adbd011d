#include "front/conditional_operands.h"

#include <clang-c/Index.h>

#include "front/cursor_util.h"
#include "front/operand_wrapping.h"

namespace mslport::front {

namespace {

// The first quoted part of a description: "'S' (aka 'T')" => "S".
std::string quoted(const std::string& d) {
  size_t a = d.find('\'');
  if (a == std::string::npos) return "";
  size_t b = d.find('\'', a + 1);
  return b == std::string::npos ? "" : d.substr(a + 1, b - a - 1);
}

// "__private S" => "S", with the address space it had; "" for none. A
// const before or after the space goes too: the copy is no const object.
std::string without_address_space(std::string t, std::string* space) {
  const std::string kConst = "const ";
  if (t.compare(0, kConst.size(), kConst) == 0) t = t.substr(kConst.size());
  space->clear();
  for (const char* as : {"__private ", "__global ", "__local ", "__constant ", "__generic "}) {
    std::string p = as;
    if (t.compare(0, p.size(), p) == 0) {
      *space = p;
      t = t.substr(p.size());
      break;
    }
  }
  if (t.compare(0, kConst.size(), kConst) == 0) t = t.substr(kConst.size());
  return t;
}

}  // namespace

int operand_with_address_space(const std::string& lhs, const std::string& rhs) {
  std::string ls, rs;
  std::string l = without_address_space(quoted(lhs), &ls), r = without_address_space(quoted(rhs), &rs);
  if (l.empty() || l != r || ls == rs) return -1;
  if (!ls.empty() && !rs.empty()) return 2;  // two spaces (a thread temporary beside a device object): both
  return ls.empty() ? 1 : 0;
}

std::vector<ConditionalOperand> address_space_conditional_operands(CXTranslationUnit tu) {
  // "incompatible operand types ('S' and '__private S')", and for classes
  // that convert between spaces (MLX's complex_t has a constructor per
  // space), "conditional expression is ambiguous; 'const __global S' and
  // 'S' can be converted to several common types".
  const std::string kMessages[] = {"incompatible operand types (", "conditional expression is ambiguous; "};
  std::vector<ConditionalOperand> out;
  for_each_diagnostic(tu, [&](CXDiagnostic d, const std::string& msg) {
    const std::string* kind = nullptr;
    for (const auto& m : kMessages)
      if (msg.rfind(m, 0) == 0) kind = &m;
    if (kind && clang_getDiagnosticNumRanges(d) == 2) {
      // Split at the " and " outside quotes.
      std::string rest = msg.substr(kind->size());
      bool in_quote = false;
      int side = -1;
      for (size_t k = 0; k < rest.size(); ++k) {
        if (rest[k] == '\'') in_quote = !in_quote;
        if (!in_quote && rest.compare(k, 5, " and ") == 0) {
          side = operand_with_address_space(rest.substr(0, k), rest.substr(k + 5));
          break;
        }
      }
      for (unsigned k = 0; k < 2; ++k) {
        if (side != (int)k && side != 2) continue;
        ConditionalOperand o;
        if (written_range(clang_getDiagnosticRange(d, k), &o.file, &o.begin, &o.end)) out.push_back(o);
      }
    }
  });
  return out;
}

size_t copy_conditional_operands(std::string* text, std::vector<ConditionalOperand> operands) {
  std::vector<OperandRange> ranges;
  for (const auto& o : operands) ranges.push_back({o.begin, o.end});
  return wrap_operands(text, std::move(ranges), kValueCall);
}

}  // namespace mslport::front
