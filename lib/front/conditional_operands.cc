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

// "__private S" => "S", with the address space it had; "" for none.
std::string without_address_space(const std::string& t, std::string* space) {
  for (const char* as : {"__private ", "__global ", "__local ", "__constant ", "__generic "}) {
    std::string p = as;
    if (t.compare(0, p.size(), p) == 0) {
      *space = p;
      return t.substr(p.size());
    }
  }
  space->clear();
  return t;
}

}  // namespace

int operand_with_address_space(const std::string& lhs, const std::string& rhs) {
  std::string ls, rs;
  std::string l = without_address_space(quoted(lhs), &ls), r = without_address_space(quoted(rhs), &rs);
  if (l.empty() || l != r || ls.empty() == rs.empty()) return -1;
  return ls.empty() ? 1 : 0;
}

std::vector<ConditionalOperand> address_space_conditional_operands(CXTranslationUnit tu) {
  const std::string kMessage = "incompatible operand types (";
  std::vector<ConditionalOperand> out;
  for_each_diagnostic(tu, [&](CXDiagnostic d, const std::string& msg) {
    if (msg.rfind(kMessage, 0) == 0 && clang_getDiagnosticNumRanges(d) == 2) {
      // "incompatible operand types ('S' and '__private S')": split at the
      // " and " outside quotes.
      std::string rest = msg.substr(kMessage.size());
      bool in_quote = false;
      int side = -1;
      for (size_t k = 0; k < rest.size(); ++k) {
        if (rest[k] == '\'') in_quote = !in_quote;
        if (!in_quote && rest.compare(k, 5, " and ") == 0) {
          side = operand_with_address_space(rest.substr(0, k), rest.substr(k + 5));
          break;
        }
      }
      ConditionalOperand o;
      if (side >= 0 && written_range(clang_getDiagnosticRange(d, (unsigned)side), &o.file, &o.begin, &o.end))
        out.push_back(o);
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
