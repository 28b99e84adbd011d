#include "passes/rename_reserved.h"

#include <set>

namespace mslport::passes {

void rename_reserved(ir::Module& m, const ReservedNames& names) {
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
  // `n`, or `n` with more `_` until no name of the module has it.
  auto take = [&](std::string n) {
    while (taken.count(n)) n += "_";
    taken.insert(n);
    return n;
  };
  auto fix = [&](std::string& name, NameScope scope) {
    if (!names.reserved(name, scope)) return;
    name = take(names.reserved(name + "_", scope) ? "m_" + name : name + "_");
  };
  for (auto& s : m.structs) {
    fix(s.name, NameScope::Struct);
    for (auto& f : s.fields) fix(f.name, NameScope::Field);
  }
  for (auto& c : m.constants) fix(c.name, NameScope::Constant);
  for (auto& k : m.kernels) {
    if (names.rename_kernels) fix(k.name, NameScope::Kernel);
    for (auto& p : k.params) fix(p.name, NameScope::Parameter);
    for (auto& v : k.vars) fix(v.name, NameScope::Local);
    for (auto& a : k.tg_allocs) fix(a.name, NameScope::Local);
  }
  // A struct or union named as a kernel (MLX's random.metal has a union
  // `rbits` and a kernel of that host name): valid C++, where the type is
  // then written with its tag, but in the emitted code both are in one
  // scope and the function hides the type. The kernel keeps its name, which
  // the host looks it up by. (A variable cannot share a kernel's name: clang
  // refuses the source.)
  std::set<std::string> kernel_names;
  for (auto& k : m.kernels) kernel_names.insert(k.name);
  for (auto& s : m.structs)
    if (kernel_names.count(s.name)) s.name = take(s.name + "_");
}

}  // namespace mslport::passes
