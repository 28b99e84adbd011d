// Scalar operands of greater rank than the vector beside them.
//
// Metal converts a scalar operand to the element type of the vector operand
// it meets (`h4 * s`, `s + h4`, `h4 *= s`, `c ? h4 : s` with half4 h4 and
// float s give half4, MSL 3.1 "Scalar and Vector Operators"), as C++ converts
// one arithmetic type to another. C++ for OpenCL, the language mslport parses
// Metal as (parse_metal.cc), follows OpenCL C's rule instead (OpenCL C 1.2,
// 6.2.6): "scalar operand type has greater rank than the type of the vector
// element". That diagnostic gives the ranges of both operands, so the front
// end wraps the scalar in the text it gave clang,
//     s   =>   ::metal::__mslport_scalar_operand<decltype(V)>(s)
// with V the vector operand's text, and parses again. The shim's
// __mslport_scalar_operand is the element type of V where Metal converts the
// scalar implicitly, and the scalar's own type otherwise (an integer vector
// with a floating scalar, half with bfloat), so that clang's diagnostic
// stands there; the type is chosen per template instance. The front end
// reads the call as the conversion. Only operands written in the file are
// wrapped: one inside a macro body stays an error, since the body may serve
// other types.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

// libclang's handles, as clang-c/Index.h declares them: the text step below
// is tested without libclang's headers.
typedef void* CXFile;
typedef struct CXTranslationUnitImpl* CXTranslationUnit;

namespace mslport::front {

struct ScalarOperand {
  CXFile file = nullptr;
  unsigned scalar_begin = 0, scalar_end = 0;  // the scalar operand's text (end exclusive)
  unsigned vector_begin = 0, vector_end = 0;  // the vector operand's text
};

// The scalar operands of greater rank clang reported for this parse.
std::vector<ScalarOperand> scalar_operands_of_greater_rank(CXTranslationUnit tu);

// Wraps each scalar operand in a call that converts it to its vector's
// element type (offsets into `text` as given; `file` is not read). An
// operand given twice (a template's instances) is wrapped once; one already
// wrapped, one whose vector text holds a comment, and one overlapping
// another of the same call are left as they are (a later parse reports it
// again where it still fails). Returns how many operands were wrapped.
size_t wrap_scalar_operands(std::string* text, std::vector<ScalarOperand> operands);

// The name of the shim's conversion the wrapping calls.
constexpr const char* kScalarOperandCall = "::metal::__mslport_scalar_operand";

}  // namespace mslport::front
