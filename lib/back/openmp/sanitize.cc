#include "back/openmp/sanitize.h"

#include "back/openmp/cpp_printer.h"

namespace mslport::back::openmp {
using namespace ir;

namespace {
constexpr int kFindDevice = -1, kFindThreadgroup = -2;  // sanitizer_rt.h

std::string c_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}
}  // namespace

int Sanitizer::region_of(const Expr& base) const {
  if (base.kind == Expr::Kind::TgAllocRef) return base.index;
  if (base.kind == Expr::Kind::ParamRef) {
    const Param& p = k_.params.at(base.index);
    if (p.kind == Param::Kind::Buffer || p.kind == Param::Kind::ThreadgroupMemory)
      return int(k_.tg_allocs.size()) + base.index;
    return kNotChecked;
  }
  if (!base.type.is_pointer()) return kNotChecked;
  switch (base.type.space) {
    case AddressSpace::Threadgroup: return kFindThreadgroup;
    case AddressSpace::Device: case AddressSpace::Constant: return kFindDevice;
    default: return kNotChecked;
  }
}

int Sanitizer::pointer_region(const Expr& ptr) const {
  const Expr* e = &ptr;
  for (;;) {
    if (e->kind == Expr::Kind::TgAllocRef || e->kind == Expr::Kind::ParamRef) {
      int r = region_of(*e);
      if (r != kNotChecked) return r;
      break;
    }
    if (e->kind == Expr::Kind::Cast || (e->kind == Expr::Kind::Unary && e->unary_op == UnaryOp::AddrOf) ||
        e->kind == Expr::Kind::Index) {
      e = e->args[0].get();
      continue;
    }
    if (e->kind == Expr::Kind::Binary && (e->binary_op == BinaryOp::Add || e->binary_op == BinaryOp::Sub)) {
      const Expr* l = e->args[0].get();
      const Expr* r = e->args[1].get();
      if (l->type.is_pointer() || l->type.is_array()) { e = l; continue; }
      if (r->type.is_pointer() || r->type.is_array()) { e = r; continue; }
    }
    break;
  }
  return region_of(ptr);
}

std::string Sanitizer::site(const SourceLoc& loc) {
  sites_.push_back(loc);
  return "mslport_site_" + k_.name + "_" + std::to_string(sites_.size() - 1);
}

std::string Sanitizer::site_definitions() const {
  std::string out;
  for (size_t i = 0; i < sites_.size(); ++i)
    out += "const mslport::san::Site mslport_site_" + k_.name + "_" + std::to_string(i) + " = {" +
           c_string(sites_[i].file) + ", " + std::to_string(sites_[i].line) + ", " + std::to_string(sites_[i].col) +
           "};\n";
  return out;
}

std::vector<std::string> Sanitizer::begin_statements(const CppPrinter& p) const {
  int nregions = int(k_.tg_allocs.size() + k_.params.size());
  std::vector<std::string> out;
  out.push_back("mslport::san::Checker& mslport_san = mslport::san::begin(geo, " + std::to_string(checks_) + "u, " +
                std::to_string(nregions) + ");");
  out.push_back("mslport::san::Scope mslport_san_scope{mslport_san};");
  for (size_t i = 0; i < k_.tg_allocs.size(); ++i) {
    const TgAlloc& a = k_.tg_allocs[i];
    const Type* e = &a.type;
    while (e->kind == Type::Kind::Array) e = e->elem.get();
    out.push_back("mslport_san.region(" + std::to_string(i) + ", " + c_string(a.name) + ", true, &" + a.name +
                  ", sizeof " + a.name + ", sizeof(" + p.type(*e) + "));");
  }
  for (size_t i = 0; i < k_.params.size(); ++i) {
    const Param& prm = k_.params[i];
    if (prm.kind != Param::Kind::ThreadgroupMemory && prm.kind != Param::Kind::Buffer) continue;
    std::string id = std::to_string(k_.tg_allocs.size() + i);
    std::string elem = "sizeof(" + p.type(*prm.type.elem) + ")";
    if (prm.kind == Param::Kind::ThreadgroupMemory)
      out.push_back("mslport_san.region(" + id + ", " + c_string(prm.name) + ", true, " + prm.name + ", " + prm.name +
                    "_bytes, " + elem + ");");
    else if (prm.kind == Param::Kind::Buffer)
      out.push_back("mslport_san.region(" + id + ", " + c_string(prm.name) + ", false, " + prm.name +
                    ", mslport::san::buffer_bytes(" + std::to_string(prm.index) + "), " + elem + ", " +
                    // Only buffers the kernel can write take part in race checks.
                    (prm.type.space == AddressSpace::Device && !prm.type.is_const ? "true" : "false") + ");");
  }
  return out;
}

}  // namespace mslport::back::openmp
