// Kernels defined by function-like macros (`#define UNARY(NAME, T) kernel
// void NAME(device T* x [[buffer(0)]], uint i [[thread_position_in_grid]])
// { ... }` and `UNARY(neg_f32, float)`), expanded in the source text before
// clang sees it.
//
// Why: the front end reads what clang drops or does not expose from the
// tokens a cursor covers (a parameter's `[[buffer(0)]]`, a vector's `.xy`),
// and a macro expansion has no tokens of its own: every cursor in it covers
// the invocation `UNARY(neg_f32, float)`. Expanded, the kernel is ordinary
// code, written on the invocation's line.
//
// Which macros: a function-like macro whose replacement list defines a
// function with `kernel` (a `kernel` token and a `{`), or invokes such a
// macro. Instantiation macros (`template [[host_name("x")]] [[kernel]]
// decltype(f<T>) f<T>;`) define nothing and stay macros: adapt_source.h
// adapts them where they are defined. Expansion follows the preprocessor's
// rules for `#`, `##` and `__VA_ARGS__`, honours #undef and redefinition,
// and rescans the result for more such invocations; arguments are
// substituted as written (clang expands the macros in them afterwards).
// Lines stay put: an invocation spanning lines becomes its expansion
// followed by as many line breaks.
#pragma once

#include <string>

namespace mslport::front {

// `text` with every invocation of a kernel-defining macro expanded.
std::string expand_kernel_macros(const std::string& text);

}  // namespace mslport::front
