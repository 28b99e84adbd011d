#include "front/vector_initializers.h"

#include <clang-c/Index.h>

#include <cctype>
#include <regex>

#include "front/cursor_util.h"

namespace mslport::front {

std::vector<ShortVectorInitializer> short_vector_initializers(CXTranslationUnit tu) {
  static const std::regex kShort(
      R"(too few elements in vector initialization \(expected (\d+) elements, have (\d+)\))");
  std::vector<ShortVectorInitializer> out;
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n; ++i) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    std::string msg = take(clang_getDiagnosticSpelling(d));
    std::smatch m;
    if (std::regex_search(msg, m, kShort)) {
      unsigned expected = (unsigned)std::stoul(m[1].str()), have = (unsigned)std::stoul(m[2].str());
      // Where the list ends up after macro expansion: for a `{` inside a
      // macro, the macro's use, where complete_vector_initializer finds no
      // `{` and leaves the error standing.
      FilePos at = expansion_pos(clang_getDiagnosticLocation(d));
      if (at.file && expected > have) out.push_back({at.file, at.offset, expected - have});
    }
    clang_disposeDiagnostic(d);
  }
  return out;
}

namespace {

// Skips a comment or a string/character literal starting at `i`; returns the
// index after it, or `i` when none starts there.
size_t skip_literal_or_comment(const std::string& t, size_t i) {
  if (t.compare(i, 2, "//") == 0) {
    size_t e = t.find('\n', i);
    return e == std::string::npos ? t.size() : e;
  }
  if (t.compare(i, 2, "/*") == 0) {
    size_t e = t.find("*/", i + 2);
    return e == std::string::npos ? t.size() : e + 2;
  }
  if (t[i] == '"' || t[i] == '\'') {
    char q = t[i];
    for (size_t j = i + 1; j < t.size(); ++j) {
      if (t[j] == '\\') ++j;
      else if (t[j] == q) return j + 1;
      else if (t[j] == '\n') return j;
    }
    return t.size();
  }
  return i;
}

}  // namespace

bool complete_vector_initializer(std::string* text, unsigned brace_offset, unsigned missing) {
  std::string& t = *text;
  if (brace_offset >= t.size() || t[brace_offset] != '{' || missing == 0) return false;
  int depth = 0;
  size_t close = std::string::npos;
  // The last significant character before the closing brace: `{` (an empty
  // list) or `,` (a trailing comma) takes the zeros without a comma first.
  char last = '{';
  for (size_t i = brace_offset + 1; i < t.size();) {
    size_t after = skip_literal_or_comment(t, i);
    if (after != i) {
      if (t[i] == '"' || t[i] == '\'') last = t[i];
      i = after;
      continue;
    }
    char c = t[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || (c == '}' && depth > 0)) --depth;
    else if (c == '}') {
      close = i;
      break;
    }
    if (!std::isspace((unsigned char)c)) last = c;
    ++i;
  }
  if (close == std::string::npos) return false;
  std::string zeros;
  for (unsigned k = 0; k < missing; ++k) zeros += (k == 0 && (last == '{' || last == ',')) ? "0" : ", 0";
  t.insert(close, zeros);
  return true;
}

}  // namespace mslport::front
