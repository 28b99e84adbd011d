// Vectors initialised with parentheses: `short2 offset(a, b);`.
//
// Metal's vector types are classes with constructors, so a declaration
// may construct its vector directly from elements and smaller vectors
// (MLX's reductions: `short2 offset((lid % n) * k, lid / n);`), as the
// functional form `short2(a, b)` does. C++ for OpenCL, the language mslport
// parses Metal as (parse_metal.cc), has ext vectors instead, which take a
// single scalar or vector in parentheses: "excess elements in scalar
// initializer", at the variable's name. The front end then gives that
// declaration the shim's vector constructor in the text it gave clang,
//     short2 offset(a, b)   =>   short2 offset = ::metal::__mslport_make_vector<decltype(offset)>(a, b)
// and parses again; the constructor takes the same pieces `short2(a, b)`
// does, and the front end checks them the same way. The type is the
// variable's own (`decltype`), so a template's declaration serves every
// instance, and lines and columns do not move before the name.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

// libclang's handles, as clang-c/Index.h declares them: the text step below
// is tested without libclang's headers.
typedef void* CXFile;
typedef struct CXTranslationUnitImpl* CXTranslationUnit;

namespace mslport::front {

struct VectorDirectInitializer {
  CXFile file = nullptr;
  unsigned name = 0;  // offset of the declared variable's name
};

// The declarations clang could not initialise with parentheses in this parse.
std::vector<VectorDirectInitializer> vector_direct_initializers(CXTranslationUnit tu);

// Rewrites each declaration whose name starts at an offset given (offsets
// into `text` as given; `file` is not read): the name must be an
// identifier followed by `(`, written in the file (not in a macro's body or
// a directive). An offset given twice (a template's instances) is rewritten
// once. Returns how many were rewritten.
size_t construct_vector_direct_initializers(std::string* text, std::vector<VectorDirectInitializer> found);

}  // namespace mslport::front
