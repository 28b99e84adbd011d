// A small lexer for Metal (C++) source text, used before clang parses a file
// (see adapt_source.h). It knows comments, string and character literals,
// line continuations and preprocessor directives, and nothing of the
// grammar: the adaptations match short token patterns.
#pragma once

#include <string>
#include <vector>

namespace mslport::front {

struct LexToken {
  enum class Kind { Identifier, Number, String, Char, Punct };
  Kind kind = Kind::Punct;
  std::string text;  // spelling (a punctuator is one or two characters)
  size_t begin = 0;  // byte offsets in the source
  size_t end = 0;
  int line = 1;        // 1-based
  int directive = -1;  // index of the preprocessor directive it belongs to, or -1
  bool is(const char* s) const { return text == s; }
  bool ident(const char* s) const { return kind == Kind::Identifier && text == s; }
};

struct LexedSource {
  std::vector<LexToken> tokens;
  // For each directive: its name ("include", "define", ...).
  std::vector<std::string> directive_names;
};

// Never fails: an unterminated literal or comment ends at the end of text.
LexedSource lex_metal(const std::string& text);

// Index of the token that closes the bracket opened at `open` ("(", "[",
// "{"), or tokens.size() when it is not closed. Brackets inside a
// preprocessor directive only match within that directive.
size_t matching_close(const std::vector<LexToken>& toks, size_t open);

}  // namespace mslport::front
