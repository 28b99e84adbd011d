#include "ir/analysis/function_constant_reads.h"

#include <algorithm>
#include <set>

namespace mslport::ir::analysis {
namespace {

// Adds to `out` the host-set constants that `e` reads, following computed
// constants and, when `functions` is given, the helpers it calls.
void collect(const Module& m, const Expr& e, std::set<int>* out, std::set<int>* seen_constants,
             std::set<int>* seen_functions);

void collect_in(const Module& m, const Stmt& s, std::set<int>* out, std::set<int>* seen_constants,
                std::set<int>* seen_functions) {
  walk_stmt_exprs(s, [&](const Expr& x) {
    collect(m, x, out, seen_constants, seen_functions);
    return false;  // collect walks the operands itself
  });
}

void collect(const Module& m, const Expr& e, std::set<int>* out, std::set<int>* seen_constants,
             std::set<int>* seen_functions) {
  walk_exprs(e, [&](const Expr& x) {
    if (x.kind == Expr::Kind::GlobalConstRef && x.index >= 0 && x.index < (int)m.constants.size() &&
        seen_constants->insert(x.index).second) {
      const GlobalConst& g = m.constants[x.index];
      if (g.host_set) out->insert(x.index);
      else if (g.init) collect(m, *g.init, out, seen_constants, seen_functions);
    }
    if (x.kind == Expr::Kind::UserCall && x.index >= 0 && x.index < (int)m.functions.size() &&
        seen_functions->insert(x.index).second && m.functions[x.index].def.body)
      collect_in(m, *m.functions[x.index].def.body, out, seen_constants, seen_functions);
    return true;
  });
}

}  // namespace

bool depends_on_host_set_constant(const Module& m, int c) {
  if (c < 0 || c >= (int)m.constants.size()) return false;
  if (m.constants[c].host_set) return true;
  if (!m.constants[c].init) return false;
  std::set<int> out, seen_constants{c}, seen_functions;
  collect(m, *m.constants[c].init, &out, &seen_constants, &seen_functions);
  return !out.empty();
}

std::set<int> constants_read(const Module& m, const Kernel& k) {
  std::set<int> out, seen_constants, seen_functions;
  if (k.body) collect_in(m, *k.body, &out, &seen_constants, &seen_functions);
  return seen_constants;
}

std::vector<int> host_set_constants_read(const Module& m, const Kernel& k) {
  std::set<int> out, seen_constants, seen_functions;
  if (k.body) collect_in(m, *k.body, &out, &seen_constants, &seen_functions);
  // A flag that says whether the host binds a parameter is read at dispatch.
  for (const Param& p : k.params)
    for (size_t c = 0; !p.present_if.empty() && c < m.constants.size(); ++c)
      if (m.constants[c].host_set && m.constants[c].name == p.present_if) out.insert(int(c));
  std::vector<int> v(out.begin(), out.end());
  std::stable_sort(v.begin(), v.end(), [&](int a, int b) {
    return m.constants[a].function_constant_index < m.constants[b].function_constant_index;
  });
  return v;
}

}  // namespace mslport::ir::analysis
