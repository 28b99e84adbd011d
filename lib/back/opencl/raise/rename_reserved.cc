// Step: Metal names that OpenCL C reserves (`global`, `half2`, `fmax`, ...)
// get a trailing underscore (`as_x` and `convert_x` become `m_as_x`, ...).
#include <set>

#include "back/opencl/cl_types.h"
#include "back/opencl/raise/raise.h"

namespace mslport::back::opencl {

void rename_reserved(RaiseContext& ctx) {
  ir::Module& m = ctx.module;
  std::set<std::string> taken;
  for (auto& s : m.structs) {
    taken.insert(s.name);
    for (auto& f : s.fields) taken.insert(f.name);
  }
  for (auto& c : m.constants) taken.insert(c.name);
  for (auto& k : m.kernels) {
    taken.insert(k.name);
    for (auto& p : k.params) taken.insert(p.name);
    for (auto& v : k.vars) taken.insert(v.name);
    for (auto& a : k.tg_allocs) taken.insert(a.name);
  }
  auto fix = [&](std::string& name) {
    if (!is_reserved_identifier(name)) return;
    std::string n = is_reserved_identifier(name + "_") ? "m_" + name : name + "_";
    while (taken.count(n)) n += "_";
    taken.insert(n);
    name = n;
  };
  for (auto& s : m.structs) {
    fix(s.name);
    for (auto& f : s.fields) fix(f.name);
  }
  for (auto& c : m.constants) fix(c.name);
  for (auto& k : m.kernels) {
    if (is_reserved_identifier(k.name)) ctx.unsupported(k.loc, "a kernel named '" + k.name + "' (reserved in OpenCL C)");
    for (auto& p : k.params) fix(p.name);
    for (auto& v : k.vars) fix(v.name);
    for (auto& a : k.tg_allocs) fix(a.name);
  }
}

}  // namespace mslport::back::opencl
