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
    // atomic_bool is a byte that the atomic helpers update through its word.
    case K::Scalar: return t.atomic && t.scalar == ir::ScalarKind::Bool ? "uchar" : scalar_cl_name(t.scalar);
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
  // [] is a runtime-sized trailing array of a struct.
  for (; e->is_array(); e = e->elem.get()) dims += "[" + (e->count ? std::to_string(e->count) : "") + "]";
  return cl_type_name(m, *e) + " " + name + dims;
}

}  // namespace mslport::back::opencl
