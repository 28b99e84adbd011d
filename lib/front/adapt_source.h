// Metal syntax that clang's C++-for-OpenCL parser does not accept, rewritten
// in the source text before clang sees it. Each adaptation turns one Metal
// construct into C++ for OpenCL that means the same to the front end, and
// keeps every line where it was (only columns after a rewrite on the same
// line move), so clang's diagnostics keep pointing at the user's lines.
// Rewrites work on tokens, in code and in #define bodies alike, so the
// instantiation macros of template-heavy libraries are adapted where they are
// defined.
//
//  * `[[kernel]]` and `[[kernel, max_total_threads_per_threadgroup(N),
//    host_name("x")]]` attribute lists on a declaration: `kernel` becomes the
//    keyword, `host_name(X)` an annotation the front end reads
//    (`mslport_host_name:X`), `max_total_threads_per_threadgroup(N)` a
//    constant `__mslport_max_total_threads` declared first in the body.
//  * Template kernels: OpenCL rejects `__kernel` on templates, so `kernel` in
//    a template declaration becomes `__mkrn` (the shim's annotation without
//    `__kernel`), and its function-scope `threadgroup` variables, which
//    OpenCL allows only in `__kernel` functions, become references to
//    threadgroup storage:
//      threadgroup T a[N];  =>  typedef threadgroup T __mslport_tg_a[N];
//                               __mslport_tg_a& a = metal::__mslport_threadgroup_storage<__mslport_tg_a>();
//  * Explicit instantiations `template [[host_name(X)]] [[kernel]] decltype(f<T>) f<T>;`
//    and `template [[host_name(X)]] kernel void f<T>(...);`: clang drops
//    attributes there and cannot instantiate a kernel, so each becomes a
//    function that takes the instance's address (which instantiates it),
//    annotated `mslport_instance:X`; the front end builds the kernel from it.
//  * A function pointer template parameter `template <void (*f)(int)>`
//    becomes a function reference (`(&f)`): clang's OpenCL mode cannot match
//    a function to the pointer (it gives the pointee an address space).
//  * `constant` after a member function's parameter list (`S(U x) constant`)
//    is the address space of the object only: `__constant`, not the shim's
//    `__constant const` (a constructor cannot be const).
//  * Function constants `constant T name [[function_constant(i)]];` take the
//    value given for `name` (or index i): `constant T name = VALUE;`, and
//    `is_function_constant_defined(name)` reads a companion constant
//    `__mslport_fc_defined_name`. An optional constant (one that
//    is_function_constant_defined names) with no value is declared
//    undefined (`extern`, its companion false): no condition that reads its
//    value folds, and the front end diagnoses where its value is used. A required one with no value is set by the
//    host at dispatch: `extern constant T name;`, its companion true, and
//    its index in `__mslport_fc_index_name`.
//  * Casts to a vector type (`(float4)h`, `static_cast<float4>(i)`) and, for
//    a template type parameter T, `(T)x`, `static_cast<T>(x)` and `T(x)`:
//    Metal converts element by element where clang's vector casts
//    reinterpret bits or refuse another size, so they become `float4(h)`
//    (the shim's vector constructor) or `::metal::__mslport_convert<T>(x)`.
//  * Kernels defined by function-like macros are expanded first
//    (kernel_macros.h), so the adaptations below see their tokens.
//  * `vec<bool, N>` (also `metal::vec<bool, N>`) names the shim's bool
//    vector struct, `__mslport_bool_vector<N>`: clang's OpenCL mode has no
//    bool ext vectors for the `vec` alias to name.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

namespace mslport::front {

struct AdaptOptions {
  // Function constant values by name or by index (as a decimal string).
  std::map<std::string, std::string> function_constants;
  // The function constants that is_function_constant_defined names
  // anywhere in the program (function_constants_checked over every file):
  // the optional ones. A required one given no value is set by the host.
  std::set<std::string> checked_function_constants;
};

struct AdaptResult {
  std::string text;  // the adapted source (the input when nothing changed)
  bool changed = false;
  // Function constants declared in the file (name -> index), and whether
  // each was given a value.
  std::map<std::string, int> function_constants;
  std::map<std::string, bool> function_constant_defined;
  // Those the host sets at dispatch: required, and given no value.
  std::set<std::string> host_set_function_constants;
  // Errors and warnings found while adapting: line and message.
  std::vector<std::pair<int, std::string>> errors, warnings;
};

AdaptResult adapt_metal_source(const std::string& text, const AdaptOptions& options = {});

// The names `is_function_constant_defined(name)` is called with in `text`.
std::set<std::string> function_constants_checked(const std::string& text);

// Names the adaptations introduce, shared with the front end.
constexpr const char* kInstancePrefix = "mslport_instance:";
constexpr const char* kHostNamePrefix = "mslport_host_name:";
constexpr const char* kMaxThreadsName = "__mslport_max_total_threads";
constexpr const char* kThreadgroupStorageName = "__mslport_threadgroup_storage";
constexpr const char* kFcDefinedPrefix = "__mslport_fc_defined_";
constexpr const char* kFcIndexPrefix = "__mslport_fc_index_";

}  // namespace mslport::front
