#include "back/openmp/rename_reserved.h"

#include <set>
#include <string>

namespace mslport::back::openmp {

void rename_reserved(ir::Module& m) {
  // Identifiers emit_openmp.cc declares where kernel names are in scope:
  // in the threadgroup function and its work-item loops (parameters,
  // variables, allocations), and in the typed entry (only parameters there),
  // and the namespaces the emitted code names.
  static const std::set<std::string> kBody = {"act", "err", "geo", "lx", "ly", "lz", "nthreads", "st", "wi",
                                              "std", "mslport", "mslport_kernels"};
  static const std::set<std::string> kEntry = {"dispatch", "g", "ngroups"};
  for (auto& k : m.kernels) {
    std::set<std::string> taken;
    for (auto& p : k.params) taken.insert(p.name);
    for (auto& v : k.vars) taken.insert(v.name);
    for (auto& a : k.tg_allocs) taken.insert(a.name);
    for (auto& c : m.constants) taken.insert(c.name);
    auto fix = [&](std::string& name, bool param) {
      if (!kBody.count(name) && !(param && kEntry.count(name))) return;
      std::string n = name + "_";
      while (taken.count(n)) n += "_";
      taken.insert(n);
      name = n;
    };
    for (auto& p : k.params) fix(p.name, true);
    for (auto& v : k.vars) fix(v.name, false);
    for (auto& a : k.tg_allocs) fix(a.name, false);
  }
}

}  // namespace mslport::back::openmp
