#include "front/reference_arguments.h"

#include <clang-c/Index.h>

#include <cctype>
#include <cstdlib>

#include "front/cursor_util.h"
#include "front/operand_wrapping.h"

namespace mslport::front {

std::vector<ReferenceArgument> unbound_reference_arguments(CXTranslationUnit tu) {
  const std::string kReason =
      "cannot bind reference in default address space to object in address space '__private' in ";
  std::vector<ReferenceArgument> out;
  for_each_diagnostic(tu, [&](CXDiagnostic d, const std::string& msg) {
    if (msg.rfind("no matching", 0) != 0) return;
    FilePos at;
    if (!written_pos(clang_getDiagnosticLocation(d), &at)) return;
    CXDiagnosticSet notes = clang_getChildDiagnostics(d);
    for (unsigned j = 0; notes && j < clang_getNumDiagnosticsInSet(notes); ++j) {
      CXDiagnostic note = clang_getDiagnosticInSet(notes, j);
      std::string text = take(clang_getDiagnosticSpelling(note));
      clang_disposeDiagnostic(note);
      // A template's parameter: clang names no argument, so each argument
      // that is a value (not an object) is wrapped.
      if (text.find("cannot deduce a type for") != std::string::npos &&
          text.find("that would make '__private ") != std::string::npos) {
        out.push_back({at.file, at.offset, -1});
        continue;
      }
      size_t r = text.find(kReason);
      if (r == std::string::npos) continue;
      // "... in 1st argument", "in 2nd argument", ...
      int n = std::atoi(text.c_str() + r + kReason.size());
      if (n >= 1) out.push_back({at.file, at.offset, n - 1});
    }
  });
  return out;
}

bool call_argument_range(const std::string& t, unsigned callee, int n, unsigned* begin, unsigned* end) {
  size_t i = callee;
  auto ident = [](char c) { return std::isalnum((unsigned char)c) || c == '_'; };
  if (i >= t.size() || !ident(t[i])) return false;
  while (i < t.size() && ident(t[i])) ++i;
  auto skip_space = [&] {
    while (i < t.size() && std::isspace((unsigned char)t[i])) ++i;
  };
  skip_space();
  if (i < t.size() && t[i] == '<') {  // explicit template arguments
    int depth = 0;
    for (; i < t.size(); ++i) {
      if (t[i] == '<' || t[i] == '(') ++depth;
      else if ((t[i] == '>' || t[i] == ')') && --depth == 0) break;
      else if (t[i] == ';' || t[i] == '{') return false;
    }
    ++i;
    skip_space();
  }
  if (i >= t.size() || t[i] != '(') return false;
  ++i;
  int arg = 0, depth = 0;
  size_t start = i;
  for (; i < t.size(); ++i) {
    char c = t[i];
    if (c == '"' || c == '\'') {  // a literal: to its closing quote
      for (++i; i < t.size() && t[i] != c; ++i)
        if (t[i] == '\\') ++i;
      continue;
    }
    if (c == '/' && i + 1 < t.size() && (t[i + 1] == '/' || t[i + 1] == '*')) return false;  // keep it simple
    if (c == '(' || c == '[' || c == '{') ++depth;
    else if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    else if ((c == ',' || c == ')') && depth == 0) {
      if (arg == n) {
        size_t b = start, e = i;
        while (b < e && std::isspace((unsigned char)t[b])) ++b;
        while (e > b && std::isspace((unsigned char)t[e - 1])) --e;
        if (b == e) return false;
        *begin = unsigned(b);
        *end = unsigned(e);
        return true;
      }
      if (c == ')') return false;
      ++arg;
      start = i + 1;
    } else if (c == ';') {
      return false;
    }
  }
  return false;
}

bool is_value_text(const std::string& e) {
  int depth = 0;
  for (size_t i = 0; i < e.size(); ++i) {
    const char c = e[i];
    if (c == '(' && depth == 0 && !(i == 0 && e.back() == ')')) return true;  // a call or a cast
    if (c == '(' || c == '[') ++depth;
    else if ((c == ')' || c == ']') && depth > 0) --depth;
    else if (depth == 0 && c == '-' && i + 1 < e.size() && e[i + 1] == '>') ++i;  // p->field
    else if (depth == 0 && std::string("+-*/%&|^<>?!~=").find(c) != std::string::npos) return true;
    else if (depth == 0 && (std::isdigit((unsigned char)c) || c == '\'' || c == '"') && i == 0) return true;
  }
  return false;
}

size_t box_reference_arguments(std::string* text, const std::vector<ReferenceArgument>& arguments) {
  const std::string& t = *text;
  std::vector<OperandRange> ranges;
  for (const auto& a : arguments) {
    OperandRange r;
    if (a.argument >= 0) {
      if (call_argument_range(t, a.callee, a.argument, &r.begin, &r.end)) ranges.push_back(r);
      continue;
    }
    for (int n = 0; call_argument_range(t, a.callee, n, &r.begin, &r.end); ++n)
      if (is_value_text(t.substr(r.begin, r.end - r.begin))) ranges.push_back(r);
  }
  const std::string box = kBoxType;
  return wrap_operands(
      text, std::move(ranges), box, [&](const std::string& arg) { return box + "<decltype(" + one_line(arg) + ")>{"; },
      "}.v");
}

}  // namespace mslport::front
