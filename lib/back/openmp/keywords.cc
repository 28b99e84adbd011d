#include "back/openmp/keywords.h"

#include <set>

namespace mslport::back::openmp {

bool is_reserved_in_cpp(const std::string& name, passes::NameScope scope) {
  // The keywords in groups, several to a line (clang-format would put one on each).
  // clang-format off
  static const std::set<std::string> kEverywhere = {
      // C++17 keywords and alternative tokens
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
      "char", "char16_t", "char32_t", "class", "compl", "const", "constexpr", "const_cast", "continue", "decltype",
      "default", "delete", "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false",
      "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept",
      "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register",
      "reinterpret_cast", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct",
      "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union",
      "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while",
      // types the emitted code spells without a namespace
      "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "size_t",
      // the namespaces it names
      "std", "mslport", "mslport_kernels",
#include "back/openmp/std_macros.inc"
  };
  // clang-format on
  // Declared by the threadgroup function and its work-item loops, where the
  // kernel's parameters, variables and constants are in scope: a kernel
  // value of that name would be hidden by (or hide) the emitted one.
  static const std::set<std::string> kKernelCode = {"act", "err", "geo", "lx", "ly", "lz", "nthreads", "st", "wi"};
  // Declared by the typed entry point, where only the parameters are in
  // scope (`g` was once read as the threadgroup index: a silent miscompile).
  static const std::set<std::string> kEntry = {"dispatch", "g", "ngroups"};
  // The generic entry's parameters, declared before it names the kernel's
  // types (`mslport::require_buffer<Params>(a, ...)`).
  static const std::set<std::string> kGenericEntry = {"a", "d", "msg", "msg_len"};
  if (kEverywhere.count(name)) return true;
  // The runtime's names (mslport_dispatch, MSLPORT_MAX_BINDINGS) and every
  // local the emitted code declares (mslport_sx, mslport_all_alive, ...).
  if (name.rfind("mslport_", 0) == 0 || name.rfind("MSLPORT_", 0) == 0) return true;
  switch (scope) {
    case passes::NameScope::Parameter: return kKernelCode.count(name) || kEntry.count(name);
    case passes::NameScope::Struct: return kKernelCode.count(name) || kGenericEntry.count(name);
    case passes::NameScope::Local:
    case passes::NameScope::Constant: return kKernelCode.count(name) != 0;
    case passes::NameScope::Field:
    case passes::NameScope::Kernel: return false;
  }
  return false;
}

passes::ReservedNames cpp_reserved_names() {
  passes::ReservedNames names;
  names.reserved = is_reserved_in_cpp;
  return names;
}

}  // namespace mslport::back::openmp
