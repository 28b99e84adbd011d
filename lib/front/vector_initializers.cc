#include "front/vector_initializers.h"

#include <clang-c/Index.h>

#include <algorithm>
#include <regex>
#include <set>

#include "front/cursor_util.h"
#include "front/metal_lexer.h"

namespace mslport::front {

std::vector<ShortVectorInitializer> short_vector_initializers(CXTranslationUnit tu) {
  static const std::regex kShort(
      R"(too few elements in vector initialization \(expected (\d+) elements, have (\d+)\))");
  std::vector<ShortVectorInitializer> out;
  for_each_diagnostic(tu, [&](CXDiagnostic d, const std::string& msg) {
    std::smatch m;
    if (std::regex_search(msg, m, kShort)) {
      unsigned expected = (unsigned)std::stoul(m[1].str()), have = (unsigned)std::stoul(m[2].str());
      // Where the list ends up after macro expansion: for a `{` inside a
      // macro, the macro's use, where complete_vector_initializer finds no
      // `{` and leaves the error standing.
      FilePos at = expansion_pos(clang_getDiagnosticLocation(d));
      if (at.file && expected > have) out.push_back({at.file, at.offset, expected - have});
    }
  });
  return out;
}

namespace {

// Where the zeros of the list opening at tokens[open] go (an offset in the
// lexed text), and the zeros; false when the list has no matching `}`.
bool zeros_for(const std::vector<LexToken>& tokens, size_t open, unsigned missing, size_t* at, std::string* zeros) {
  const size_t close = matching_close(tokens, open);
  if (close >= tokens.size()) return false;
  // An empty list or a trailing comma takes the zeros without a comma first.
  const LexToken& last = tokens[close - 1];
  const bool bare = last.is("{") || last.is(",");
  zeros->clear();
  for (unsigned k = 0; k < missing; ++k) *zeros += (k == 0 && bare) ? "0" : ", 0";
  *at = tokens[close].begin;
  return true;
}

}  // namespace

size_t complete_vector_initializers(std::string* text, const std::vector<ShortVectorInitializer>& lists) {
  std::string& t = *text;
  // The file is lexed once for all its lists: lexing it again from each
  // list's `{` to the end made a file of many lists quadratic.
  LexedSource file;
  bool lexed = false;
  std::vector<std::pair<size_t, std::string>> inserts;  // (offset in t, zeros)
  std::set<unsigned> seen;                              // a list given twice is completed once
  for (const auto& l : lists) {
    if (l.brace_offset >= t.size() || t[l.brace_offset] != '{' || l.missing == 0) continue;
    if (!seen.insert(l.brace_offset).second) continue;
    if (!lexed) file = lex_metal(t), lexed = true;
    auto tok = std::lower_bound(file.tokens.begin(), file.tokens.end(), l.brace_offset,
                                [](const LexToken& x, size_t offset) { return x.begin < offset; });
    size_t at = 0;
    std::string zeros;
    if (tok != file.tokens.end() && tok->begin == l.brace_offset && tok->directive < 0) {
      // Code outside directives: from a `{` on, the file's tokens are those
      // of the text lexed from that `{`, so the list matches as it would.
      if (!zeros_for(file.tokens, (size_t)(tok - file.tokens.begin()), l.missing, &at, &zeros)) continue;
    } else {
      // A `{` this lexer takes as part of a directive, a comment or a
      // literal (clang saw a list there): lexed from the brace itself, a
      // token boundary, as every list once was.
      const LexedSource own = lex_metal(t.substr(l.brace_offset));
      if (!zeros_for(own.tokens, 0, l.missing, &at, &zeros)) continue;
      at += l.brace_offset;
    }
    inserts.emplace_back(at, std::move(zeros));
  }
  if (inserts.empty()) return 0;
  // Distinct lists close at distinct braces: the text is rebuilt once, in
  // order, rather than inserted into once per list.
  std::sort(inserts.begin(), inserts.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string out;
  size_t added = 0;
  for (const auto& ins : inserts) added += ins.second.size();
  out.reserve(t.size() + added);
  size_t from = 0;
  for (const auto& [at, zeros] : inserts) {
    out.append(t, from, at - from);
    out += zeros;
    from = at;
  }
  out.append(t, from, std::string::npos);
  t = std::move(out);
  return inserts.size();
}

}  // namespace mslport::front
