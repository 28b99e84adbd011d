// A value (not an object) given to a `const thread T&` parameter of scalar
// or vector type: `twice(x + 1.0f)` with `float twice(const thread float& v)`.
//
// Metal, as C++, binds the reference to a temporary holding the value. C++
// for OpenCL, the language mslport parses Metal as (parse_metal.cc),
// materialises that temporary in the default address space and refuses to
// bind a `__private` reference to it: "no matching function", with the
// candidate's note "cannot bind reference in default address space to
// object in address space '__private' in 1st argument". A class
// temporary's member is materialised where it can bind (one a brace list
// makes, not one a call returns), so the front end wraps the argument in the
// text it gave clang,
//     x + 1.0f   =>   ::metal::__mslport_box<decltype(x + 1.0f)>{x + 1.0f}.v
// and parses again; the front end reads that as the argument itself, whose
// temporary the inliner makes (passes/inline_functions.h). Only an
// argument written in the file (or in a macro's argument there) is wrapped.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

// libclang's handles, as clang-c/Index.h declares them: the text step below
// is tested without libclang's headers.
typedef void* CXFile;
typedef struct CXTranslationUnitImpl* CXTranslationUnit;

namespace mslport::front {

struct ReferenceArgument {
  CXFile file = nullptr;
  unsigned callee = 0;  // offset of the called name, where clang reports the call
  // 0-based; -1 for each argument that is_value_text (a template's
  // parameter, whose note names no argument).
  int argument = 0;
};

// The arguments clang refused to bind to a `__private` reference in this parse.
std::vector<ReferenceArgument> unbound_reference_arguments(CXTranslationUnit tu);

// The byte range of argument `n` (0-based) of the call whose name starts at
// `callee` in `text` (`f(a, g(b, c))`, `f<T, 2>(a)`): false when the text
// there is no such call.
bool call_argument_range(const std::string& text, unsigned callee, int n, unsigned* begin, unsigned* end);

// Is an argument's text a value rather than an object: an operator, a call
// or cast, a literal at its top level (`v - 1`, `abs(v)`; not `v`, `a[i]`,
// `s.f`, `p->f`, `(v)`)?
bool is_value_text(const std::string& argument);

// Wraps each argument (offsets into `text` as given; `file` is not read).
// Returns how many were wrapped.
size_t box_reference_arguments(std::string* text, const std::vector<ReferenceArgument>& arguments);

constexpr const char* kBoxType = "::metal::__mslport_box";

}  // namespace mslport::front
