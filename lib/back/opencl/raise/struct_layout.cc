// Step: structs keep Metal's layout (ir::StructDef offsets) in OpenCL. Both
// languages lay fields out naturally with 3-vectors 16 bytes wide, so this
// normally changes nothing; where a Metal offset is larger than OpenCL's
// natural one, an explicit `uchar mslport_padN[k]` field fills the gap (and
// member indices and struct initialisers are renumbered).
#include <algorithm>
#include <map>

#include "back/opencl/raise/ir_build.h"
#include "back/opencl/raise/raise.h"

namespace mslport::back::opencl {
namespace {

int round_up(int x, int a) { return a <= 1 ? x : (x + a - 1) / a * a; }

ir::StructField pad_field(int n, int offset, int bytes) {
  return ir::StructField{"mslport_pad" + std::to_string(n),
                         ir::Type::array_of(ir::Type::scalar_of(ir::ScalarKind::UChar), bytes), offset};
}

}  // namespace

bool raise_struct_layout(RaiseContext& ctx) {
  ir::Module& m = ctx.module;
  bool ok = true;
  std::map<int, std::vector<int>> remap;  // struct -> old field index -> new
  for (size_t si = 0; si < m.structs.size(); ++si) {
    ir::StructDef& s = m.structs[si];
    if (s.is_union) {
      // Every member at offset 0 in both languages: only the size and the
      // alignment can differ, and they come from the same members.
      int size = 0, align = 1;
      for (auto& f : s.fields) {
        size = std::max(size, ir::type_size(m, f.type));
        align = std::max(align, ir::type_align(m, f.type));
      }
      if (round_up(size, align) != s.size || align != s.align) {
        ctx.unsupported(s.loc, "the layout of union " + s.name + " (size " + std::to_string(s.size) + ", alignment " +
                                   std::to_string(s.align) + ")");
        ok = false;
      }
      continue;
    }
    std::vector<ir::StructField> fields;
    std::vector<int> index;
    int off = 0, align = 1, pads = 0;
    for (auto& f : s.fields) {
      const int a = ir::type_align(m, f.type), natural = round_up(off, a);
      if (f.offset < natural) {
        ctx.unsupported(s.loc, "the layout of struct " + s.name + " (field " + f.name + " at offset " +
                                   std::to_string(f.offset) + ")");
        ok = false;
        break;
      }
      if (f.offset > natural) fields.push_back(pad_field(pads++, off, f.offset - off));
      index.push_back((int)fields.size());
      fields.push_back(f);
      off = f.offset + ir::type_size(m, f.type);
      align = std::max(align, a);
    }
    if (!ok) continue;
    if (s.size > round_up(off, align)) {
      fields.push_back(pad_field(pads++, off, s.size - off));
      off = s.size;
    }
    if (round_up(off, align) != s.size || s.align > align) {
      ctx.unsupported(s.loc, "the layout of struct " + s.name + " (size " + std::to_string(s.size) + ", alignment " +
                                 std::to_string(s.align) + ")");
      ok = false;
      continue;
    }
    if (pads == 0) continue;
    s.fields = std::move(fields);
    remap[(int)si] = std::move(index);
  }
  if (remap.empty()) return ok;

  auto renumber = [&](ir::ExprPtr e) -> ir::ExprPtr {
    if (e->kind == ir::Expr::Kind::Member) {
      auto it = remap.find(member_struct_index(*e));
      if (it != remap.end()) e->index = it->second.at(e->index);
    }
    if (e->kind == ir::Expr::Kind::InitList && e->type.is_struct()) {
      auto it = remap.find(e->type.struct_index);
      if (it == remap.end()) return e;
      const ir::StructDef& s = m.structs[e->type.struct_index];
      std::vector<ir::ExprPtr> args(s.fields.size());
      for (size_t i = 0; i < e->args.size(); ++i) args[it->second.at(i)] = std::move(e->args[i]);
      // An initialiser may leave out trailing fields; the gaps left are padding.
      while (!args.empty() && !args.back()) args.pop_back();
      for (size_t i = 0; i < args.size(); ++i) {
        if (args[i]) continue;
        auto zero = std::make_unique<ir::Expr>();
        zero->kind = ir::Expr::Kind::InitList;
        zero->type = s.fields[i].type;
        zero->args.push_back(ir::make_int(ir::Type::scalar_of(ir::ScalarKind::UChar), 0));
        args[i] = std::move(zero);
      }
      e->args = std::move(args);
    }
    return e;
  };
  for (auto& k : m.kernels) rewrite_kernel_exprs(k, renumber);
  for (auto& c : m.constants)
    if (c.init) rewrite_expr(c.init, renumber);
  return ok;
}

}  // namespace mslport::back::opencl
