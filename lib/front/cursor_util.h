// Small helpers over the libclang C API: strings, children, tokens and source
// locations. Everything that deals with macro expansions lives here, so the
// builders can treat a cursor's source text as if macros did not exist.
#pragma once

#include <clang-c/Index.h>

#include <functional>
#include <string>
#include <vector>

namespace mslport::front {

// Takes ownership of a CXString.
std::string take(CXString s);
// A cursor's name (with the shim's keyword renaming undone).
std::string spelling(CXCursor c);
std::string kind_spelling(CXCursor c);
std::string type_spelling(CXType t);

// Direct children in libclang's visiting order.
std::vector<CXCursor> children(CXCursor c);

struct Token {
  CXTokenKind kind;
  std::string text;
  unsigned offset = 0;  // byte offset in the file the tokens were taken from
  unsigned line = 0, col = 0;
};

// The file position where a location ends up after macro expansion: for a
// location inside a macro body, the position of the macro use.
struct FilePos {
  CXFile file = nullptr;
  unsigned line = 0, col = 0, offset = 0;
};
FilePos expansion_pos(CXSourceLocation l);
FilePos spelling_pos(CXSourceLocation l);
// Where a location is written, when that is in its file itself or in a
// macro argument used there (spelled at or after the use), rather than in a
// macro's body: the text the front end may mend and parse again.
bool written_pos(CXSourceLocation l, FilePos* out);
// The same for a range that starts and ends in one file: its begin and end
// (exclusive) there.
bool written_range(CXSourceRange r, CXFile* file, unsigned* begin, unsigned* end);

// Calls `f` with each of the parse's diagnostics and its message (the
// diagnose-and-mend steps' scan).
void for_each_diagnostic(CXTranslationUnit tu, const std::function<void(CXDiagnostic, const std::string&)>& f);

// Of a type as clang's diagnostics describe it ("'half4' (vector of 4
// 'half' values)", "'float16_t' (aka 'half')", "'half
// __attribute__((ext_vector_type(4)))'"): whether it is a vector, and the
// scalar type its description ends with (a vector's element, a typedef's
// canonical type), or "".
bool is_vector_description(const std::string& d);
std::string described_scalar(const std::string& d);

// Tokens of a cursor's extent. libclang tokenizes nothing for an extent that
// starts inside a macro expansion (e.g. at `kernel` or `device`), so the ends
// are first mapped to their expansion locations and the range is rebuilt in
// the user's file. Macro uses therefore appear as their name token.
std::vector<Token> cursor_tokens(CXTranslationUnit tu, CXCursor c);
// Tokens between two file offsets of one file (end exclusive).
std::vector<Token> file_tokens(CXTranslationUnit tu, CXFile file, unsigned begin, unsigned end);

// The tokens of a loop statement `c` up to its body: the header, `for ( ...
// )`. (Tokenizing the whole statement made a nest of N loops cost N^2: 6.6 s
// for 2,500.)
std::vector<Token> for_header_tokens(CXTranslationUnit tu, CXCursor c, CXCursor body);

// Offsets (after expansion) of a cursor's extent.
FilePos extent_begin(CXCursor c);
FilePos extent_end(CXCursor c);

// The cursor's source text (its tokens joined by spaces), for messages.
std::string source_text(CXTranslationUnit tu, CXCursor c);

}  // namespace mslport::front
