// Brace initialisers of vectors with fewer elements than the vector.
//
// Metal takes `float4 acc = {0.f};` and zero-fills the elements not given,
// the rule clang's ext vectors follow in C and C++ (and GNU C's, and
// AltiVec's). C++ for OpenCL, the language mslport parses Metal as
// (parse_metal.cc), wants every element: "too few elements in vector
// initialization (expected 4 elements, have 1)". That diagnostic says
// exactly where the list is and how many elements are missing (vector
// elements of the list counted by their components), so the front end
// completes each such list with zeros in the text it gave clang and parses
// again. Only a brace written in the file is completed: one that comes from
// a macro body stays an error, since one body may be used with lists of
// different lengths.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

// libclang's handles, as clang-c/Index.h declares them: the text step below
// is tested without libclang's headers.
typedef void* CXFile;
typedef struct CXTranslationUnitImpl* CXTranslationUnit;

namespace mslport::front {

struct ShortVectorInitializer {
  CXFile file = nullptr;
  unsigned brace_offset = 0;  // of the list's `{` in that file
  unsigned missing = 0;       // elements to add
};

// The short vector initialisers clang reported for this parse.
std::vector<ShortVectorInitializer> short_vector_initializers(CXTranslationUnit tu);

// Adds each list's `missing` zero elements at the end of the brace list
// that opens at its `brace_offset` (offsets into `text` as given; `file` is
// not read; a list given twice is completed once). Returns how many lists were completed: one
// with no `{` at its offset or no matching `}` is left as it is. The text is
// lexed once, however many lists it has.
size_t complete_vector_initializers(std::string* text, const std::vector<ShortVectorInitializer>& lists);

}  // namespace mslport::front
