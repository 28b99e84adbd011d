// A conditional operator between a class-type value a call returned and an
// lvalue of that class (`c ? adj * s : m` of matrices, SPIRV-Cross's
// spvInverse4x4; `c ? f(x) : s` of structs).
//
// Metal, as C++, gives the result the class type. C++ for OpenCL, the
// language mslport parses Metal as (parse_metal.cc), types the lvalue with
// its address space (`__private S`) and the call's result without one, and
// refuses the pair: "incompatible operand types ('S' and '__private S')".
// Both are values of one type to the ?: (its result is a copy either way),
// so the front end wraps the lvalue operand in the text it gave clang,
//     m   =>   ::metal::__mslport_value(m)
// a copy with no address space, and parses again; the front end reads the
// call as its argument. Only an operand whose type differs from the other's
// by its address space alone, and that is written in the file (or in a
// macro's argument there), is wrapped.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

// libclang's handles, as clang-c/Index.h declares them: the text step below
// is tested without libclang's headers.
typedef void* CXFile;
typedef struct CXTranslationUnitImpl* CXTranslationUnit;

namespace mslport::front {

struct ConditionalOperand {
  CXFile file = nullptr;
  unsigned begin = 0, end = 0;  // the lvalue operand's text (end exclusive)
};

// The ?: operands clang refused for their address space alone in this parse.
std::vector<ConditionalOperand> address_space_conditional_operands(CXTranslationUnit tu);

// Which of clang's two operand descriptions, "'S'" and "'__private S'",
// names the operand with an address space (0 or 1), 2 when both have one
// and the spaces differ, or -1 when the types differ in more than that
// (const aside).
int operand_with_address_space(const std::string& lhs, const std::string& rhs);

// Wraps each operand in the copy (offsets into `text` as given; `file` is
// not read), as wrap_operands does. Returns how many were wrapped.
size_t copy_conditional_operands(std::string* text, std::vector<ConditionalOperand> operands);

constexpr const char* kValueCall = "::metal::__mslport_value";

}  // namespace mslport::front
