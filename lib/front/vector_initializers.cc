#include "front/vector_initializers.h"

#include <clang-c/Index.h>

#include <regex>

#include "front/cursor_util.h"
#include "front/metal_lexer.h"

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

bool complete_vector_initializer(std::string* text, unsigned brace_offset, unsigned missing) {
  std::string& t = *text;
  if (brace_offset >= t.size() || t[brace_offset] != '{' || missing == 0) return false;
  // The list's tokens, lexed from its `{` (a token boundary), so that braces
  // in comments and literals are not counted.
  const LexedSource lexed = lex_metal(t.substr(brace_offset));
  const size_t close = matching_close(lexed.tokens, 0);
  if (close >= lexed.tokens.size()) return false;
  // An empty list or a trailing comma takes the zeros without a comma first.
  const LexToken& last = lexed.tokens[close - 1];
  const bool bare = last.is("{") || last.is(",");
  std::string zeros;
  for (unsigned k = 0; k < missing; ++k) zeros += (k == 0 && bare) ? "0" : ", 0";
  t.insert(brace_offset + lexed.tokens[close].begin, zeros);
  return true;
}

}  // namespace mslport::front
