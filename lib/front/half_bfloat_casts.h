// Explicit conversions between half and bfloat.
//
// Metal converts explicitly between any two of its scalar types, half and
// bfloat included: `static_cast<bfloat>(h)`, `bfloat(h)`, `(half)b`, and
// through typedefs (MLX's `static_cast<bfloat16_t>(x)` of a float16_t). It
// only keeps them from mixing implicitly (MSL 3.1: "half and bfloat do not
// mix" in arithmetic). C++ for OpenCL, the language mslport parses Metal as
// (parse_metal.cc), has no conversion between _Float16 and __bf16 (the
// shim's half and bfloat) and refuses every such cast: "static_cast from
// 'half' to 'bfloat' is not allowed", and the same for a functional-style
// and a C-style cast. Every half and every bfloat is a float, so the
// conversion is defined as going through float, exact on the way in and
// rounded to nearest even at the final narrowing, as float to half and
// float to bfloat already are. The diagnostic gives the cast operand's
// range, so the front end converts the operand to float in the text it gave
// clang,
//     x   =>   ::metal::__mslport_convert<float>(x)
// and parses again; the front end reads that call as a conversion. Only a
// scalar operand written in the file (or in a macro's argument there) is
// converted; vector casts are adapted to the shim's constructors before
// clang sees them (adapt_source.h) and do not reach this. Implicit mixing
// (`h + b`, `bfloat b = h;`) reports other diagnostics and stays an error.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

// libclang's handles, as clang-c/Index.h declares them: the text step below
// is tested without libclang's headers.
typedef void* CXFile;
typedef struct CXTranslationUnitImpl* CXTranslationUnit;

namespace mslport::front {

struct HalfBfloatCast {
  CXFile file = nullptr;
  unsigned operand_begin = 0, operand_end = 0;  // the cast operand's text (end exclusive)
};

// The casts between half and bfloat clang refused in this parse.
std::vector<HalfBfloatCast> half_bfloat_casts(CXTranslationUnit tu);

// Converts each cast's operand to float (offsets into `text` as given;
// `file` is not read). An operand given twice (a template's instances) is
// converted once; one already converted, and one overlapping another of the
// same call, are left as they are (a later parse reports it again where it
// still fails). Returns how many operands were converted.
size_t convert_cast_operands_through_float(std::string* text, std::vector<HalfBfloatCast> casts);

// What an operand is wrapped in.
constexpr const char* kThroughFloatCall = "::metal::__mslport_convert<float>";

}  // namespace mslport::front
