#include "back/opencl/keywords.h"

#include <set>

namespace mslport::back::opencl {

bool is_reserved_in_opencl(const std::string& name) {
  // The keywords in groups, several to a line (clang-format would put one on each).
  // clang-format off
  static const std::set<std::string> kReserved = {
      // C99 keywords
      "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
      "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
      "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "_Bool",
      "_Complex", "_Imaginary",
      // OpenCL C qualifiers and types
      "__global", "global", "__local", "local", "__constant", "constant", "__private", "private", "__kernel",
      "kernel", "__read_only", "read_only", "__write_only", "write_only", "__read_write", "read_write", "uniform",
      "pipe", "bool", "uchar", "ushort", "uint", "ulong", "half", "quad", "size_t", "ptrdiff_t", "intptr_t",
      "uintptr_t", "image1d_t", "image1d_array_t", "image1d_buffer_t", "image2d_t", "image2d_array_t",
      "image3d_t", "sampler_t", "event_t", "true", "false", "complex", "imaginary",
      // functions the printed kernel bodies call under another name than the
      // Metal source did (a local of that name would shadow them)
      "barrier", "fabs", "fmin", "fmax", "clamp",
#include "back/opencl/cl_macros.inc"
  };
  // clang-format on
  if (kReserved.count(name)) return true;
  // The prelude's helpers and the names the printer declares (mslport_grid, ...).
  if (name.rfind("mslport_", 0) == 0 || name.rfind("MSLPORT_", 0) == 0) return true;
  // vector type names (float4, uchar16, ...) and families of builtins
  static const char* kPrefixes[] = {"convert_", "as_"};
  for (const char* p : kPrefixes)
    if (name.rfind(p, 0) == 0) return true;
  static const char* kScalars[] = {"char", "uchar", "short", "ushort", "int",  "uint",
                                   "long", "ulong", "float", "double", "half", "bool"};
  for (const char* s : kScalars) {
    std::string base = s;
    if (name.size() > base.size() && name.compare(0, base.size(), base) == 0) {
      std::string n = name.substr(base.size());
      if (n == "2" || n == "3" || n == "4" || n == "8" || n == "16") return true;
    }
  }
  return false;
}

passes::ReservedNames opencl_reserved_names() {
  passes::ReservedNames names;
  names.reserved = [](const std::string& name, passes::NameScope) { return is_reserved_in_opencl(name); };
  names.rename_kernels = false;
  return names;
}

}  // namespace mslport::back::opencl
