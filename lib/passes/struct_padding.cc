#include "passes/struct_padding.h"

#include <algorithm>
#include <map>

namespace mslport::passes {
using namespace ir;

namespace {

int round_up(int x, int a) { return a <= 1 ? x : (x + a - 1) / a * a; }

StructField pad_field(int n, int offset, int bytes) {
  return StructField{"mslport_pad" + std::to_string(n), Type::array_of(Type::scalar_of(ScalarKind::UChar), bytes),
                     offset};
}

// The struct a Member expression selects from.
int member_struct_index(const Expr& member) {
  const Type& base = member.args[0]->type;
  return member.arrow ? base.elem->struct_index : base.struct_index;
}

}  // namespace

bool pad_structs(Module& m, DiagEngine& diags, const std::string& backend) {
  bool ok = true;
  auto unsupported = [&](const StructDef& s, const std::string& what) {
    diags.error(s.loc, "the layout of struct " + s.name + " (" + what + ") is not supported by the " + backend +
                           " backend yet");
    ok = false;
  };
  std::map<int, std::vector<int>> remap;  // struct -> old field index -> new
  for (size_t si = 0; si < m.structs.size(); ++si) {
    StructDef& s = m.structs[si];
    if (s.is_union) {
      // Every member at offset 0 in every language: only the size can
      // differ (an alignas on the union), and a byte array as large as
      // Metal's union, appended last, makes it so.
      int size = 0, align = 1;
      for (auto& f : s.fields) {
        size = std::max(size, type_size(m, f.type));
        align = std::max(align, type_align(m, f.type));
      }
      if (s.size > round_up(size, align)) {
        StructField pad = pad_field(0, 0, s.size);
        s.fields.push_back(pad);
      } else if (s.size != round_up(size, align)) {
        unsupported(s, "size " + std::to_string(s.size) + ", alignment " + std::to_string(s.align));
      }
      continue;
    }
    std::vector<StructField> fields;
    std::vector<int> index;
    int off = 0, align = 1, pads = 0;
    bool fits = true;
    for (auto& f : s.fields) {
      const int a = type_align(m, f.type), natural = round_up(off, a);
      if (f.offset < natural) {
        unsupported(s, "field " + f.name + " at offset " + std::to_string(f.offset));
        fits = false;
        break;
      }
      if (f.offset > natural) fields.push_back(pad_field(pads++, off, f.offset - off));
      index.push_back((int)fields.size());
      fields.push_back(f);
      off = f.offset + type_size(m, f.type);
      align = std::max(align, a);
    }
    if (!fits) continue;
    // A runtime-sized trailing array (count 0) must stay last: Metal sizes
    // such a struct without it, as C does.
    const bool open_ended = !s.fields.empty() && s.fields.back().type.is_array() && s.fields.back().type.count == 0;
    if (s.size > round_up(off, align) && !open_ended) {
      fields.push_back(pad_field(pads++, off, s.size - off));
      off = s.size;
    }
    // A larger alignment than the fields' only moves where the target puts
    // the object; its size and the offsets are what the padding made them.
    if (round_up(off, align) != s.size) {
      unsupported(s, "size " + std::to_string(s.size) + ", alignment " + std::to_string(s.align));
      continue;
    }
    if (pads == 0) continue;
    s.fields = std::move(fields);
    remap[(int)si] = std::move(index);
  }
  if (remap.empty()) return ok;

  auto renumber = [&](Expr& e) {
    if (e.kind == Expr::Kind::Member) {
      auto it = remap.find(member_struct_index(e));
      if (it != remap.end()) e.index = it->second.at(e.index);
    }
    if (e.kind == Expr::Kind::InitList && e.type.is_struct()) {
      auto it = remap.find(e.type.struct_index);
      if (it == remap.end()) return true;
      const StructDef& s = m.structs[e.type.struct_index];
      std::vector<ExprPtr> args(s.fields.size());
      for (size_t i = 0; i < e.args.size(); ++i) args[it->second.at(i)] = std::move(e.args[i]);
      // An initialiser may leave out trailing fields; the gaps left are padding.
      while (!args.empty() && !args.back()) args.pop_back();
      for (size_t i = 0; i < args.size(); ++i) {
        if (args[i]) continue;
        auto zero = std::make_unique<Expr>();
        zero->kind = Expr::Kind::InitList;
        zero->type = s.fields[i].type;
        zero->args.push_back(make_int(Type::scalar_of(ScalarKind::UChar), 0));
        args[i] = std::move(zero);
      }
      e.args = std::move(args);
    }
    return true;
  };
  for (auto& k : m.kernels)
    if (k.body)
      walk_stmts_mut(*k.body, [&](Stmt& s) {
        for (ExprPtr* e : {&s.expr, &s.step})
          if (*e) walk_exprs_mut(**e, renumber);
        return true;
      });
  for (auto& c : m.constants)
    if (c.init) walk_exprs_mut(*c.init, renumber);
  return ok;
}

}  // namespace mslport::passes
