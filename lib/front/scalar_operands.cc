#include "front/scalar_operands.h"

#include <clang-c/Index.h>

#include <algorithm>
#include <regex>

#include "front/cursor_util.h"
#include "front/operand_wrapping.h"

namespace mslport::front {

namespace {

// The two operand types of the message, "(%0 and %1)", as clang describes
// them: "'half4' (vector of 4 'half' values)", "'uint' (aka 'unsigned
// int')", "'half __attribute__((ext_vector_type(4)))'".
bool operand_types(const std::string& msg, std::string* lhs, std::string* rhs) {
  size_t open = msg.find("element. (");
  if (open == std::string::npos) return false;
  std::string rest = msg.substr(open + 10);
  bool quoted = false;
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '\'') quoted = !quoted;
    if (!quoted && rest.compare(i, 5, " and ") == 0) {
      *lhs = rest.substr(0, i);
      *rhs = rest.substr(i + 5);
      return true;
    }
  }
  return false;
}

enum class Sort { Integer, Half, BFloat, OtherFloat };
Sort sort_of(const std::string& t) {
  if (t.find("bf16") != std::string::npos || t.find("bfloat") != std::string::npos) return Sort::BFloat;
  if (t.find("half") != std::string::npos || t.find("_Float16") != std::string::npos) return Sort::Half;
  if (t.find("float") != std::string::npos || t.find("double") != std::string::npos) return Sort::OtherFloat;
  return Sort::Integer;
}

// Which operand is the vector (0 or 1), or -1 when the message does not
// tell, or when Metal would not convert this scalar to the element type
// either (a floating scalar to an integer element, half and bfloat): then
// clang's diagnostic is the right one and stands as it is.
int vector_side(const std::string& msg) {
  std::string lhs, rhs;
  if (!operand_types(msg, &lhs, &rhs)) return -1;
  bool lv = is_vector_description(lhs), rv = is_vector_description(rhs);
  if (lv == rv) return -1;
  Sort elem = sort_of(described_scalar(lv ? lhs : rhs)), scalar = sort_of(described_scalar(lv ? rhs : lhs));
  if ((elem == Sort::Integer) != (scalar == Sort::Integer)) return -1;
  if ((elem == Sort::Half && scalar == Sort::BFloat) || (elem == Sort::BFloat && scalar == Sort::Half)) return -1;
  return lv ? 0 : 1;
}

// Where the operator is written: in the file itself, or in an argument of a
// macro use there (`float4(s * h)`, the shim's vector constructors being
// macros), where its spelling comes after the use's start. An operator of a
// macro's body (spelled in the #define, before the use, or in another file)
// is not written at its use and is left alone.
bool operator_pos(CXSourceLocation l, FilePos* at, unsigned* use_start) {
  if (!written_pos(l, at)) return false;
  *use_start = expansion_pos(l).offset;
  return true;
}

// An operand end's offset in the operator's file: where it is spelled when
// that is in the same macro argument or plain text as the operator, else
// (it is a macro use's own token, as `int4(q)` starting an operand) the
// position of the use.
bool operand_pos(CXSourceLocation l, const FilePos& op, unsigned use_start, unsigned* offset) {
  FilePos s = spelling_pos(l), x = expansion_pos(l);
  if (s.file && clang_File_isEqual(s.file, op.file) && s.offset >= use_start) return *offset = s.offset, true;
  if (x.file && clang_File_isEqual(x.file, op.file)) return *offset = x.offset, true;
  return false;
}

}  // namespace

std::vector<ScalarOperand> scalar_operands_of_greater_rank(CXTranslationUnit tu) {
  std::vector<ScalarOperand> out;
  for_each_diagnostic(tu, [&](CXDiagnostic d, const std::string& msg) {
    if (msg.rfind("scalar operand type has greater rank than the type of the vector element", 0) == 0 &&
        clang_getDiagnosticNumRanges(d) == 2) {
      int vec = vector_side(msg);
      ScalarOperand op;
      FilePos at;
      unsigned use = 0;
      unsigned ends[2][2];  // [operand][begin, end]
      bool ok = vec >= 0 && operator_pos(clang_getDiagnosticLocation(d), &at, &use);
      for (unsigned k = 0; ok && k < 2; ++k) {
        CXSourceRange r = clang_getDiagnosticRange(d, k);
        ok = operand_pos(clang_getRangeStart(r), at, use, &ends[k][0]) &&
             operand_pos(clang_getRangeEnd(r), at, use, &ends[k][1]) && ends[k][0] < ends[k][1];
      }
      // The left operand ends at the operator, the right one starts after it
      // (for `?:`, the `?` is the location and both operands follow it).
      ok = ok && ends[0][1] <= ends[1][0] && ends[1][0] > at.offset;
      if (ok) {
        const unsigned s_ = (unsigned)(1 - vec), v_ = (unsigned)vec;
        op.file = at.file;
        op.scalar_begin = ends[s_][0], op.scalar_end = ends[s_][1];
        op.vector_begin = ends[v_][0], op.vector_end = ends[v_][1];
        out.push_back(op);
      }
    }
  });
  return out;
}

size_t wrap_scalar_operands(std::string* text, std::vector<ScalarOperand> operands) {
  std::string& t = *text;
  std::sort(operands.begin(), operands.end(), [](const ScalarOperand& a, const ScalarOperand& b) {
    return std::tie(a.scalar_begin, a.scalar_end) < std::tie(b.scalar_begin, b.scalar_end);
  });
  const std::string call = kScalarOperandCall;
  std::vector<OperandWrap> edits;
  size_t busy_until = 0;  // the end of the text the edits so far read or change
  for (const auto& op : operands) {
    if (op.scalar_end > t.size() || op.vector_end > t.size()) continue;
    if (!edits.empty() && edits.back().begin == op.scalar_begin && edits.back().end == op.scalar_end) continue;
    const size_t lo = std::min(op.scalar_begin, op.vector_begin), hi = std::max(op.scalar_end, op.vector_end);
    if (!edits.empty() && lo < busy_until) continue;  // overlaps the previous one: a later round
    if (t.compare(op.scalar_begin, call.size(), call) == 0) continue;
    std::string vec = t.substr(op.vector_begin, op.vector_end - op.vector_begin);
    if (vec.find("//") != std::string::npos || vec.find("/*") != std::string::npos) continue;
    edits.push_back({op.scalar_begin, op.scalar_end, call + "<decltype(" + one_line(vec) + ")>("});
    busy_until = hi;
  }
  apply_wraps(text, edits);
  return edits.size();
}

}  // namespace mslport::front
