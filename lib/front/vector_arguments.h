// Brace lists passed where a vector parameter is expected.
//
// Metal takes `f({a, b, c})` for a parameter of type uint3 (MLX's
// `elem_to_loc_2_nd<IdxT>({N * index.x, index.y, index.z}, ...)`): the
// argument copy-list-initialises the parameter, and a vector is
// constructible from its elements. C++ for OpenCL, the language mslport
// parses Metal as (parse_metal.cc), cannot copy-list-initialise an ext
// vector parameter: "no matching function for call to 'f'", with a note per
// candidate, "cannot convert initializer list argument to 'uint3'". The
// error is at the call, and each note gives the parameter's type and its
// declaration (whose place among the function's parameters is the
// argument's), so the front end names the vector type before that
// argument, a brace list, in the text it gave clang,
//     {a, b, c}   =>   uint3{a, b, c}
// and parses again. The list stays a list: clang reads it as it reads
// `uint3 v = {a, b, c};`, so vector elements count by their components and
// a short list is completed with zeros (vector_initializers.h), as in Metal.
// A list is rewritten only when every candidate that refuses it names the
// same vector type and when its braces are written in the file: one from a
// macro's body stays an error, since the body may serve other types.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

// libclang's handles, as clang-c/Index.h declares them: the text step below
// is tested without libclang's headers.
typedef void* CXFile;
typedef struct CXTranslationUnitImpl* CXTranslationUnit;

namespace mslport::front {

struct VectorArgumentList {
  CXFile file = nullptr;
  unsigned call = 0;        // where the call starts: the callee's name (`f`, `ns::f`, `f<T>`)
  unsigned argument = 0;    // which argument, from 0
  std::string vector_type;  // the shim's name of the parameter's type, "uint3"
};

// The brace lists clang could not pass as a vector argument in this parse.
std::vector<VectorArgumentList> vector_argument_lists(CXTranslationUnit tu);

// Names the vector type before each such argument (offsets into `text` as
// given; `file` is not read). A list given twice with the same type (a
// template's instances) is rewritten once; a list given with two types
// (overloads), an argument that is not a brace list, and a call whose callee
// is not a plain or qualified name with optional template arguments are
// left as they are. Returns how many lists were rewritten.
size_t construct_vector_arguments(std::string* text, std::vector<VectorArgumentList> lists);

// The shim's vector type a clang type description names: "'uint3' (vector
// of 3 'uint' values)" => "uint3", "'const float4 &'" => "float4"; "" when
// it is no vector.
std::string vector_type_named(const std::string& description);

}  // namespace mslport::front
