// A class object copied out of the constant address space: `S s = params;`
// with `constant S& params [[buffer(1)]]`, `o[i] = table[k];` from a
// program-scope constant array of structs or matrices.
//
// Metal, as C++, copies it. C++ for OpenCL, the language mslport parses
// Metal as (parse_metal.cc), gives the implicit copy and move constructors
// and assignments a `__generic` reference, which cannot bind a `__constant`
// object: "no matching constructor for initialization of 'S'" or "no viable
// overloaded '='", each candidate's note saying "cannot bind reference in
// address space '__constant' to object in address space '__generic'". The
// front end wraps the source in the text it gave clang,
//     params   =>   ::metal::__mslport_load(params)
// (the shim declares it, returning a copy of a constant object) and parses
// again; the front end reads the call as its argument. Only a source written
// in the file (or in a macro's argument there), and not a brace list, is
// wrapped.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

// libclang's handles, as clang-c/Index.h declares them: the text step below
// is tested without libclang's headers.
typedef void* CXFile;
typedef struct CXTranslationUnitImpl* CXTranslationUnit;

namespace mslport::front {

struct ConstantCopy {
  CXFile file = nullptr;
  unsigned begin = 0, end = 0;  // the source object's text (end exclusive)
};

// The copies out of the constant address space clang refused in this parse.
std::vector<ConstantCopy> constant_space_copies(CXTranslationUnit tu);

// Wraps each source (offsets into `text` as given; `file` is not read), as
// wrap_operands does; a brace list is left as it is. Returns how many were
// wrapped.
size_t load_constant_copies(std::string* text, const std::vector<ConstantCopy>& copies);

constexpr const char* kLoadCall = "::metal::__mslport_load";

}  // namespace mslport::front
