#include "front/metal_lexer.h"

#include <cctype>
#include <cstring>

namespace mslport::front {

namespace {

bool ident_start(char c) { return std::isalpha((unsigned char)c) || c == '_'; }
bool ident_char(char c) { return std::isalnum((unsigned char)c) || c == '_'; }

// Two-character punctuators the adaptations care about (the rest are lexed
// one character at a time, which is enough for matching brackets).
const char* const kPunct2[] = {"::", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&",
                               "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##"};

}  // namespace

LexedSource lex_metal(const std::string& s) {
  LexedSource out;
  size_t i = 0, n = s.size();
  int line = 1;
  bool line_start = true;  // only whitespace since the last newline
  int directive = -1;
  auto skip_continuation = [&]() {
    // backslash-newline joins lines everywhere
    while (i + 1 < n && s[i] == '\\' && (s[i + 1] == '\n' || (s[i + 1] == '\r' && i + 2 < n && s[i + 2] == '\n'))) {
      i += s[i + 1] == '\n' ? 2 : 3;
      ++line;
    }
  };
  while (i < n) {
    skip_continuation();
    if (i >= n) break;
    char c = s[i];
    if (c == '\n') {
      ++line;
      ++i;
      line_start = true;
      directive = -1;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n') {
          i += 2;
          ++line;
          continue;
        }
        ++i;
      }
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      i += 2;
      while (i < n && !(s[i] == '*' && i + 1 < n && s[i + 1] == '/')) {
        if (s[i] == '\n') ++line;
        ++i;
      }
      i = i < n ? i + 2 : n;
      continue;
    }
    LexToken t;
    t.begin = i;
    t.line = line;
    if (c == '#' && line_start) {
      out.directive_names.emplace_back();
      directive = (int)out.directive_names.size() - 1;
      t.kind = LexToken::Kind::Punct;
      t.text = "#";
      ++i;
      t.end = i;
      t.directive = directive;
      out.tokens.push_back(t);
      line_start = false;
      // The directive's name.
      while (i < n && (s[i] == ' ' || s[i] == '\t')) ++i;
      size_t b = i;
      while (i < n && ident_char(s[i])) ++i;
      if (i > b) {
        LexToken nt;
        nt.kind = LexToken::Kind::Identifier;
        nt.text = s.substr(b, i - b);
        nt.begin = b;
        nt.end = i;
        nt.line = line;
        nt.directive = directive;
        out.directive_names[directive] = nt.text;
        out.tokens.push_back(nt);
      }
      continue;
    }
    line_start = false;
    t.directive = directive;
    // Raw string literal R"delim( ... )delim" (with an optional prefix).
    size_t pre = i;
    while (pre < n && (s[pre] == 'u' || s[pre] == 'U' || s[pre] == 'L' || s[pre] == '8') && pre - i < 2) ++pre;
    if (pre + 1 < n && s[pre] == 'R' && s[pre + 1] == '"') {
      size_t d = pre + 2;
      while (d < n && s[d] != '(' && d - pre < 20) ++d;
      std::string close = ")" + s.substr(pre + 2, d - pre - 2) + "\"";
      size_t e = s.find(close, d);
      e = e == std::string::npos ? n : e + close.size();
      for (size_t k = i; k < e; ++k)
        if (s[k] == '\n') ++line;
      t.kind = LexToken::Kind::String;
      t.text = s.substr(i, e - i);
      t.end = i = e;
      out.tokens.push_back(t);
      continue;
    }
    if (c == '"' || c == '\'' ||
        ((c == 'u' || c == 'U' || c == 'L') && i + 1 < n && (s[i + 1] == '"' || s[i + 1] == '\''))) {
      size_t q = c == '"' || c == '\'' ? i : i + 1;
      char quote = s[q];
      size_t e = q + 1;
      while (e < n && s[e] != quote && s[e] != '\n') e += s[e] == '\\' ? 2 : 1;
      e = e < n ? e + 1 : n;
      t.kind = quote == '"' ? LexToken::Kind::String : LexToken::Kind::Char;
      t.text = s.substr(i, e - i);
      t.end = i = e;
      out.tokens.push_back(t);
      continue;
    }
    if (ident_start(c)) {
      while (i < n && ident_char(s[i])) ++i;
      t.kind = LexToken::Kind::Identifier;
      t.text = s.substr(t.begin, i - t.begin);
      t.end = i;
      out.tokens.push_back(t);
      continue;
    }
    if (std::isdigit((unsigned char)c) || (c == '.' && i + 1 < n && std::isdigit((unsigned char)s[i + 1]))) {
      // pp-number: digits, letters, '.', '\'' separators and exponent signs
      ++i;
      while (i < n) {
        char d = s[i];
        if (ident_char(d) || d == '.' || d == '\'') {
          ++i;
        } else if ((d == '+' || d == '-') &&
                   (s[i - 1] == 'e' || s[i - 1] == 'E' || s[i - 1] == 'p' || s[i - 1] == 'P')) {
          ++i;
        } else {
          break;
        }
      }
      t.kind = LexToken::Kind::Number;
      t.text = s.substr(t.begin, i - t.begin);
      t.end = i;
      out.tokens.push_back(t);
      continue;
    }
    t.kind = LexToken::Kind::Punct;
    t.text = std::string(1, c);
    for (const char* p2 : kPunct2)
      if (i + 1 < n && c == p2[0] && s[i + 1] == p2[1]) t.text = p2;
    i += t.text.size();
    t.end = i;
    out.tokens.push_back(t);
  }
  return out;
}

size_t matching_close(const std::vector<LexToken>& toks, size_t open) {
  const std::string& o = toks[open].text;
  const char* close = o == "(" ? ")" : o == "[" ? "]" : o == "{" ? "}" : nullptr;
  if (!close) return toks.size();
  int depth = 0;
  for (size_t i = open; i < toks.size(); ++i) {
    if (toks[i].directive != toks[open].directive) {
      if (toks[open].directive >= 0) return toks.size();  // a directive ends at its line
      continue;                                           // code does not match into directives
    }
    if (toks[i].text == o) ++depth;
    else if (toks[i].text == close && --depth == 0) return i;
  }
  return toks.size();
}

}  // namespace mslport::front
