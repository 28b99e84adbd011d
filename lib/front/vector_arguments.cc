#include "front/vector_arguments.h"

#include <clang-c/Index.h>

#include <algorithm>
#include <regex>
#include <tuple>

#include "front/cursor_util.h"
#include "front/metal_lexer.h"

namespace mslport::front {

std::string vector_type_named(const std::string& description) {
  static const std::regex kName(
      R"(^'(?:(?:const|__private|__generic|__global|__local|__constant) )*((?:bool|char|uchar|short|ushort|int|uint|long|ulong|half|bfloat|float)[234])(?: ?&)?')");
  static const std::regex kOf(
      R"(vector of ([234]) '(bool|char|uchar|short|ushort|int|uint|long|ulong|half|bfloat|float)' values)");
  std::smatch m;
  if (std::regex_search(description, m, kName)) return m[1].str();
  if (std::regex_search(description, m, kOf)) return m[2].str() + m[1].str();
  return "";
}

namespace {

// The place of the parameter a note's range declares among its function's
// parameters, or -1.
int parameter_index(CXTranslationUnit tu, CXSourceRange range) {
  CXCursor p = clang_getNullCursor();
  // The declaration's name ends the range; its type starts it.
  for (CXSourceLocation l : {clang_getRangeEnd(range), clang_getRangeStart(range)}) {
    CXFile file;
    unsigned offset = 0;
    clang_getSpellingLocation(l, &file, nullptr, nullptr, &offset);
    if (!file) continue;
    if (offset > 0 && clang_equalLocations(l, clang_getRangeEnd(range))) --offset;
    CXCursor c = clang_getCursor(tu, clang_getLocationForOffset(tu, file, offset));
    if (clang_getCursorKind(c) == CXCursor_ParmDecl) {
      p = c;
      break;
    }
  }
  if (clang_Cursor_isNull(p)) return -1;
  struct Find {
    CXCursor parm;
    int seen = 0, found = -1;
  } find{p};
  clang_visitChildren(
      clang_getCursorSemanticParent(p),
      [](CXCursor c, CXCursor, CXClientData data) {
        auto* f = static_cast<Find*>(data);
        if (clang_getCursorKind(c) != CXCursor_ParmDecl) return CXChildVisit_Continue;
        if (clang_equalCursors(c, f->parm)) {
          f->found = f->seen;
          return CXChildVisit_Break;
        }
        ++f->seen;
        return CXChildVisit_Continue;
      },
      &find);
  return find.found;
}

}  // namespace

std::vector<VectorArgumentList> vector_argument_lists(CXTranslationUnit tu) {
  static const std::regex kNote(R"(cannot convert initializer list argument to (.*)$)");
  std::vector<VectorArgumentList> out;
  for_each_diagnostic(tu, [&](CXDiagnostic d, const std::string& msg) {
    FilePos call;
    if (msg.rfind("no matching function for call to", 0) == 0 && written_pos(clang_getDiagnosticLocation(d), &call)) {
      CXDiagnosticSet notes = clang_getChildDiagnostics(d);
      for (unsigned k = 0; notes && k < clang_getNumDiagnosticsInSet(notes); ++k) {
        CXDiagnostic note = clang_getDiagnosticInSet(notes, k);
        std::string text = take(clang_getDiagnosticSpelling(note));
        std::smatch m;
        std::string type;
        if (std::regex_search(text, m, kNote)) type = vector_type_named(m[1].str());
        int index = !type.empty() && clang_getDiagnosticNumRanges(note) >= 1
                        ? parameter_index(tu, clang_getDiagnosticRange(note, clang_getDiagnosticNumRanges(note) - 1))
                        : -1;
        if (index >= 0) out.push_back({call.file, call.offset, (unsigned)index, type});
        clang_disposeDiagnostic(note);
      }
    }
  });
  return out;
}

namespace {

// The argument `index` of the call whose callee starts at tokens[at]: the
// tokens [first, last] of the argument; false when the callee is not a name
// (`f`, `ns::f`, `f<T, 2>`) followed by `(`, or has fewer arguments.
bool argument_tokens(const std::vector<LexToken>& toks, size_t at, unsigned index, size_t* first, size_t* last) {
  size_t k = at;
  if (k < toks.size() && toks[k].is("::")) ++k;
  while (k < toks.size() && toks[k].kind == LexToken::Kind::Identifier) {
    ++k;
    if (k < toks.size() && toks[k].is("::")) ++k;
    else break;
  }
  if (k == at || k >= toks.size()) return false;
  if (toks[k].is("<")) {  // template arguments: `<` ... `>` at depth 0 of brackets
    int depth = 0;
    for (++k; k < toks.size(); ++k) {
      if (toks[k].is("(") || toks[k].is("[") || toks[k].is("{")) k = matching_close(toks, k);
      else if (toks[k].is("<")) ++depth;
      else if (toks[k].is(">") && depth-- == 0) break;
      else if (toks[k].is(">>") && (depth -= 2) < 0) break;
      else if (toks[k].is(";") || toks[k].is(")")) return false;
    }
    if (k >= toks.size() || !toks[k].is(">")) return false;
    ++k;
  }
  if (k >= toks.size() || !toks[k].is("(")) return false;
  const size_t close = matching_close(toks, k);
  if (close >= toks.size()) return false;
  unsigned arg = 0;
  size_t begin = k + 1;
  for (size_t j = k + 1; j <= close; ++j) {
    if (j < close && (toks[j].is("(") || toks[j].is("[") || toks[j].is("{"))) {
      j = matching_close(toks, j);
      continue;
    }
    if (j == close || toks[j].is(",")) {
      if (arg == index) {
        if (j == begin) return false;
        *first = begin, *last = j - 1;
        return true;
      }
      ++arg, begin = j + 1;
    }
  }
  return false;
}

}  // namespace

size_t construct_vector_arguments(std::string* text, std::vector<VectorArgumentList> lists) {
  std::string& t = *text;
  const LexedSource lexed = lex_metal(t);
  const auto& toks = lexed.tokens;
  struct Edit {
    size_t open;  // the list's `{`
    std::string type;
    bool agree = true;
  };
  std::vector<Edit> edits;
  for (const auto& l : lists) {
    auto tok = std::lower_bound(toks.begin(), toks.end(), (size_t)l.call,
                                [](const LexToken& x, size_t offset) { return x.begin < offset; });
    if (tok == toks.end() || tok->begin != l.call || tok->directive >= 0) continue;
    size_t first = 0, last = 0;
    if (!argument_tokens(toks, (size_t)(tok - toks.begin()), l.argument, &first, &last)) continue;
    if (!toks[first].is("{") || matching_close(toks, first) != last) continue;
    auto same = std::find_if(edits.begin(), edits.end(), [&](const Edit& e) { return e.open == toks[first].begin; });
    if (same != edits.end()) {
      same->agree = same->agree && same->type == l.vector_type;
      continue;
    }
    if (first > 0 && toks[first - 1].kind == LexToken::Kind::Identifier) continue;  // named already
    edits.push_back({toks[first].begin, l.vector_type});
  }
  edits.erase(std::remove_if(edits.begin(), edits.end(), [](const Edit& e) { return !e.agree; }), edits.end());
  if (edits.empty()) return 0;
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.open < b.open; });
  // The type's name goes before the `{`: lines never move.
  std::string out;
  size_t from = 0;
  for (const auto& e : edits) {
    out.append(t, from, e.open - from);
    out += e.type;
    from = e.open;
  }
  out.append(t, from, std::string::npos);
  t = std::move(out);
  return edits.size();
}

}  // namespace mslport::front
