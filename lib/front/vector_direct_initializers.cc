#include "front/vector_direct_initializers.h"

#include <clang-c/Index.h>

#include <algorithm>

#include "front/cursor_util.h"
#include "front/metal_lexer.h"

namespace mslport::front {

std::vector<VectorDirectInitializer> vector_direct_initializers(CXTranslationUnit tu) {
  std::vector<VectorDirectInitializer> out;
  for_each_diagnostic(tu, [&](CXDiagnostic d, const std::string& msg) {
    FilePos at;
    if (msg == "excess elements in scalar initializer" && written_pos(clang_getDiagnosticLocation(d), &at))
      out.push_back({at.file, at.offset});
  });
  return out;
}

size_t construct_vector_direct_initializers(std::string* text, std::vector<VectorDirectInitializer> found) {
  std::string& t = *text;
  const LexedSource lexed = lex_metal(t);
  const auto& toks = lexed.tokens;
  std::vector<size_t> names;  // token indices
  for (const auto& f : found) {
    auto tok = std::lower_bound(toks.begin(), toks.end(), (size_t)f.name,
                                [](const LexToken& x, size_t offset) { return x.begin < offset; });
    if (tok == toks.end() || tok->begin != f.name || tok->directive >= 0) continue;
    size_t i = (size_t)(tok - toks.begin());
    // A declarator: the name, then `(`; a cast or a call (`T(a, b)`, the
    // name after `.`, `->` or `::`) is another diagnostic's business.
    if (tok->kind != LexToken::Kind::Identifier || i + 1 >= toks.size() || !toks[i + 1].is("(")) continue;
    if (i > 0 && (toks[i - 1].is(".") || toks[i - 1].is("->") || toks[i - 1].is("::"))) continue;
    if (std::find(names.begin(), names.end(), i) == names.end()) names.push_back(i);
  }
  if (names.empty()) return 0;
  std::sort(names.begin(), names.end());
  std::string out;
  size_t from = 0;
  for (size_t i : names) {
    const LexToken& name = toks[i];
    out.append(t, from, name.end - from);
    out += " = ::metal::__mslport_make_vector<decltype(" + name.text + ")>";
    from = name.end;
  }
  out.append(t, from, std::string::npos);
  t = std::move(out);
  return names.size();
}

}  // namespace mslport::front
