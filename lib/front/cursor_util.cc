#include "front/cursor_util.h"

namespace mslport::front {

std::string take(CXString s) {
  const char* p = clang_getCString(s);
  std::string r = p ? p : "";
  clang_disposeString(s);
  return r;
}
std::string spelling(CXCursor c) {
  // The shim renames OpenCL keywords that Metal code may use as names
  // (`local`, `global`, ...) with this suffix; the user's name is restored.
  static const std::string kSuffix = "__mslport_kw";
  std::string s = take(clang_getCursorSpelling(c));
  if (s.size() > kSuffix.size() && s.compare(s.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0)
    s.resize(s.size() - kSuffix.size());
  return s;
}
std::string kind_spelling(CXCursor c) { return take(clang_getCursorKindSpelling(clang_getCursorKind(c))); }
std::string type_spelling(CXType t) { return take(clang_getTypeSpelling(t)); }

std::vector<CXCursor> children(CXCursor c) {
  std::vector<CXCursor> out;
  clang_visitChildren(
      c,
      [](CXCursor child, CXCursor, CXClientData data) {
        static_cast<std::vector<CXCursor>*>(data)->push_back(child);
        return CXChildVisit_Continue;
      },
      &out);
  return out;
}

FilePos expansion_pos(CXSourceLocation l) {
  FilePos p;
  clang_getExpansionLocation(l, &p.file, &p.line, &p.col, &p.offset);
  return p;
}
FilePos spelling_pos(CXSourceLocation l) {
  FilePos p;
  clang_getSpellingLocation(l, &p.file, &p.line, &p.col, &p.offset);
  return p;
}

bool written_pos(CXSourceLocation l, FilePos* out) {
  FilePos s = spelling_pos(l), x = expansion_pos(l);
  if (!s.file || !x.file || !clang_File_isEqual(s.file, x.file) || s.offset < x.offset) return false;
  *out = s;
  return true;
}

bool written_range(CXSourceRange r, CXFile* file, unsigned* begin, unsigned* end) {
  FilePos b, e;
  if (!written_pos(clang_getRangeStart(r), &b) || !written_pos(clang_getRangeEnd(r), &e) ||
      !clang_File_isEqual(b.file, e.file) || b.offset >= e.offset)
    return false;
  *file = b.file, *begin = b.offset, *end = e.offset;
  return true;
}

void for_each_diagnostic(CXTranslationUnit tu, const std::function<void(CXDiagnostic, const std::string&)>& f) {
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n; ++i) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    f(d, take(clang_getDiagnosticSpelling(d)));
    clang_disposeDiagnostic(d);
  }
}

bool is_vector_description(const std::string& d) {
  return d.find("vector of") != std::string::npos || d.find("ext_vector_type") != std::string::npos;
}

std::string described_scalar(const std::string& d) {
  size_t end = d.rfind('\'');
  if (end == std::string::npos || end == 0) return "";
  size_t begin = d.rfind('\'', end - 1);
  if (begin == std::string::npos) return "";
  std::string t = d.substr(begin + 1, end - begin - 1);
  if (size_t attr = t.find(" __attribute__"); attr != std::string::npos) t = t.substr(0, attr);
  return t;
}

std::vector<Token> for_header_tokens(CXTranslationUnit tu, CXCursor c, CXCursor body) {
  FilePos b = expansion_pos(clang_getRangeStart(clang_getCursorExtent(c)));
  FilePos e = expansion_pos(clang_getCursorLocation(body));
  if (!b.file || !e.file || !clang_File_isEqual(b.file, e.file) || e.offset <= b.offset) return cursor_tokens(tu, c);
  return file_tokens(tu, b.file, b.offset, e.offset);
}

FilePos extent_begin(CXCursor c) { return expansion_pos(clang_getRangeStart(clang_getCursorExtent(c))); }
FilePos extent_end(CXCursor c) { return expansion_pos(clang_getRangeEnd(clang_getCursorExtent(c))); }

std::vector<Token> file_tokens(CXTranslationUnit tu, CXFile file, unsigned begin, unsigned end) {
  std::vector<Token> out;
  if (!file || end <= begin) return out;
  CXSourceRange range =
      clang_getRange(clang_getLocationForOffset(tu, file, begin), clang_getLocationForOffset(tu, file, end));
  CXToken* toks = nullptr;
  unsigned n = 0;
  clang_tokenize(tu, range, &toks, &n);
  for (unsigned i = 0; i < n; ++i) {
    Token t;
    t.kind = clang_getTokenKind(toks[i]);
    t.text = take(clang_getTokenSpelling(tu, toks[i]));
    FilePos p = expansion_pos(clang_getTokenLocation(tu, toks[i]));
    t.offset = p.offset;
    t.line = p.line;
    t.col = p.col;
    if (t.kind == CXToken_Comment) continue;
    out.push_back(std::move(t));
  }
  clang_disposeTokens(tu, toks, n);
  return out;
}

std::vector<Token> cursor_tokens(CXTranslationUnit tu, CXCursor c) {
  CXSourceRange ext = clang_getCursorExtent(c);
  FilePos b = expansion_pos(clang_getRangeStart(ext));
  FilePos e = expansion_pos(clang_getRangeEnd(ext));
  if (!b.file || !clang_File_isEqual(b.file, e.file)) return {};
  // An end inside a macro use maps to the start of that use; include the
  // macro's name token.
  FilePos es = spelling_pos(clang_getRangeEnd(ext));
  unsigned end = e.offset;
  if (!es.file || !clang_File_isEqual(es.file, e.file) || es.offset != e.offset) end += 1;
  return file_tokens(tu, b.file, b.offset, end);
}

std::string source_text(CXTranslationUnit tu, CXCursor c) {
  std::string s;
  for (auto& t : cursor_tokens(tu, c)) s += (s.empty() ? "" : " ") + t.text;
  return s;
}

}  // namespace mslport::front
