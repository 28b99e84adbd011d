#include "back/opencl/cl_types.h"

#include <set>

#include "back/opencl/prelude.h"

namespace mslport::back::opencl {

namespace {
std::string scalar_cl_name(ir::ScalarKind k) {
  switch (k) {
    case ir::ScalarKind::BFloat:
    case ir::ScalarKind::Half: return "ushort";  // storage bits, see raise/memory_types.cc
    default: return ir::scalar_name(k);          // OpenCL and Metal agree on the rest
  }
}
const char* space_qualifier(ir::AddressSpace s) {
  switch (s) {
    case ir::AddressSpace::Device: return "__global ";
    case ir::AddressSpace::Constant: return "__constant ";
    case ir::AddressSpace::Threadgroup: return "__local ";
    case ir::AddressSpace::Private: return "";
  }
  return "";
}
}  // namespace

std::string cl_type_name(const ir::Module& m, const ir::Type& t) {
  using K = ir::Type::Kind;
  switch (t.kind) {
    case K::Void: return "void";
    case K::Scalar: return scalar_cl_name(t.scalar);
    case K::Vector: return scalar_cl_name(t.scalar) + std::to_string(t.count);
    case K::Pointer:
      return std::string(space_qualifier(t.space)) + (t.is_const ? "const " : "") + cl_type_name(m, *t.elem) + "*";
    case K::Array: return cl_type_name(m, *t.elem) + "[" + std::to_string(t.count) + "]";
    case K::Struct: return ir::type_name(m, t);
    case K::SimdMatrix: return Prelude::kSimdMatrixType;  // float 8x8 only, see check_supported.cc
  }
  return "?";
}

std::string cl_declaration(const ir::Module& m, const ir::Type& t, const std::string& name) {
  if (!t.is_array()) return cl_type_name(m, t) + " " + name;
  std::string dims;
  const ir::Type* e = &t;
  for (; e->is_array(); e = e->elem.get()) dims += "[" + std::to_string(e->count) + "]";
  return cl_type_name(m, *e) + " " + name + dims;
}

bool is_reserved_identifier(const std::string& name) {
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
      "INFINITY", "NAN", "HUGE_VALF", "MAXFLOAT", "CLK_LOCAL_MEM_FENCE", "CLK_GLOBAL_MEM_FENCE"};
  if (kReserved.count(name)) return true;
  // vector type names (float4, uchar16, ...) and families of builtins
  static const char* kPrefixes[] = {"convert_", "as_"};
  for (const char* p : kPrefixes)
    if (name.rfind(p, 0) == 0) return true;
  static const char* kScalars[] = {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong",
                                   "float", "double", "half", "bool"};
  for (const char* s : kScalars) {
    std::string base = s;
    if (name.size() > base.size() && name.compare(0, base.size(), base) == 0) {
      std::string n = name.substr(base.size());
      if (n == "2" || n == "3" || n == "4" || n == "8" || n == "16") return true;
    }
  }
  return false;
}

}  // namespace mslport::back::opencl
