#include "front/types.h"

#include <algorithm>
#include <map>
#include <vector>

namespace mslport::front {

namespace {

std::optional<ir::ScalarKind> scalar_kind(CXTypeKind k) {
  using ir::ScalarKind;
  switch (k) {
    case CXType_Bool: return ScalarKind::Bool;
    case CXType_Char_S:
    case CXType_SChar: return ScalarKind::Char;
    case CXType_Char_U:
    case CXType_UChar: return ScalarKind::UChar;
    case CXType_Short: return ScalarKind::Short;
    case CXType_UShort: return ScalarKind::UShort;
    case CXType_Int: return ScalarKind::Int;
    case CXType_UInt: return ScalarKind::UInt;
    case CXType_Long:
    case CXType_LongLong: return ScalarKind::Long;
    case CXType_ULong:
    case CXType_ULongLong: return ScalarKind::ULong;
    case CXType_Half:
    case CXType_Float16: return ScalarKind::Half;
    case CXType_BFloat16: return ScalarKind::BFloat;
    case CXType_Float: return ScalarKind::Float;
    default: return std::nullopt;
  }
}

// libclang 19 reports __bf16 (the shim's bfloat) as CXType_Unexposed; it is
// recognised by its canonical spelling, qualifiers aside.
bool is_bf16(CXType canonical) {
  if (canonical.kind == CXType_BFloat16) return true;
  if (canonical.kind != CXType_Unexposed) return false;
  std::string s = type_spelling(canonical), word;
  std::vector<std::string> words;
  for (char ch : s + " ") {
    if (ch == ' ') {
      if (!word.empty()) words.push_back(word);
      word.clear();
    } else {
      word += ch;
    }
  }
  if (words.empty() || words.back() != "__bf16") return false;
  for (size_t i = 0; i + 1 < words.size(); ++i)
    if (words[i] != "const" && words[i] != "volatile" && words[i].rfind("__", 0) != 0) return false;
  return true;
}

std::optional<ir::ScalarKind> scalar_of(CXType canonical) {
  if (is_bf16(canonical)) return ir::ScalarKind::BFloat;
  return scalar_kind(canonical.kind);
}

// True for the shim's metal::simdgroup_matrix<T, C, R> specialisations.
bool is_simdgroup_matrix(CXCursor decl) {
  if (spelling(decl) != "simdgroup_matrix") return false;
  CXCursor parent = clang_getCursorSemanticParent(decl);
  return clang_getCursorKind(parent) == CXCursor_Namespace && spelling(parent) == "metal";
}

int align_up(int v, int a) { return a <= 1 ? v : (v + a - 1) / a * a; }

}  // namespace

ir::AddressSpace address_space_of(CXType t) {
  if (t.kind == CXType_Invalid) return ir::AddressSpace::Private;
  // clang_getAddressSpace returns clang's LangAS for language address
  // spaces: 1 opencl_global, 2 opencl_local, 3 opencl_constant,
  // 4 opencl_private (0 = none, which in a kernel means private).
  switch (clang_getAddressSpace(t)) {
    case 1: return ir::AddressSpace::Device;
    case 2: return ir::AddressSpace::Threadgroup;
    case 3: return ir::AddressSpace::Constant;
    default: return ir::AddressSpace::Private;
  }
}

bool is_bool_vector(const FrontContext& ctx, CXCursor record) {
  return spelling(record) == "__mslport_bool_vector" && ctx.in_shim(record) &&
         clang_Cursor_getNumTemplateArguments(record) == 1;
}

std::optional<ir::Type> convert_type(FrontContext& ctx, CXType t, std::string* why) {
  CXType c = clang_getCanonicalType(t);
  auto fail = [&]() -> std::optional<ir::Type> {
    if (why) *why = "type '" + type_spelling(t) + "'";
    return std::nullopt;
  };
  if (c.kind == CXType_Void) return ir::Type::void_type();
  // Metal has no double: an unsuffixed literal (`1.0 / x`) is a float there.
  if (c.kind == CXType_Double) return ir::Type::scalar_of(ir::ScalarKind::Float);
  if (auto k = scalar_of(c)) return ir::Type::scalar_of(*k);
  switch (c.kind) {
    case CXType_ExtVector: {
      auto k = scalar_of(clang_getCanonicalType(clang_getElementType(c)));
      long long n = clang_getNumElements(c);
      if (!k || n < 2 || n > 4) return fail();
      return ir::Type::vector_of(*k, (int)n);
    }
    case CXType_Pointer: {
      CXType pointee = clang_getPointeeType(c);
      if (pointee.kind == CXType_Invalid) return fail();
      CXTypeKind pk = clang_getCanonicalType(pointee).kind;
      if (pk == CXType_FunctionProto || pk == CXType_FunctionNoProto) {
        if (why) *why = "pointer to function";
        return std::nullopt;
      }
      auto elem = convert_type(ctx, pointee, why);
      if (!elem) return std::nullopt;
      return ir::Type::pointer_to(*elem, address_space_of(pointee), clang_isConstQualifiedType(pointee) != 0);
    }
    case CXType_ConstantArray: {
      auto elem = convert_type(ctx, clang_getArrayElementType(c), why);
      if (!elem) return std::nullopt;
      return ir::Type::array_of(*elem, (int)clang_getArraySize(c));
    }
    case CXType_IncompleteArray: {
      // `float data[]`, the last field of a struct (struct_index checks):
      // an array of count 0, sized by the buffer it lives in.
      auto elem = convert_type(ctx, clang_getArrayElementType(c), why);
      if (!elem) return std::nullopt;
      return ir::Type::array_of(*elem, 0);
    }
    case CXType_Enum: {
      CXCursor decl = clang_getTypeDeclaration(c);
      return convert_type(ctx, clang_getEnumDeclIntegerType(decl), why);
    }
    case CXType_Record: {
      CXCursor decl = clang_getTypeDeclaration(c);
      // The shim's atomic_bool (OpenCL has none of its own).
      if (spelling(decl) == "__mslport_atomic_bool" && ctx.in_shim(decl))
        return ir::Type::atomic_of(ir::ScalarKind::Bool);
      // bool2/3/4: the shim's struct for them (metal_stdlib says why).
      if (is_bool_vector(ctx, decl))
        return ir::Type::vector_of(ir::ScalarKind::Bool, (int)clang_Cursor_getTemplateArgumentValue(decl, 0));
      // simd_vote and quad_vote are their vote_t in the IR (metal_stdlib).
      if (ctx.in_shim(decl) && spelling(decl) == "simd_vote") return ir::Type::scalar_of(ir::ScalarKind::ULong);
      if (ctx.in_shim(decl) && spelling(decl) == "quad_vote") return ir::Type::scalar_of(ir::ScalarKind::UInt);
      if (is_simdgroup_matrix(decl)) {
        if (clang_Cursor_getNumTemplateArguments(decl) != 3) return fail();
        auto k = scalar_of(clang_getCanonicalType(clang_Cursor_getTemplateArgumentType(decl, 0)));
        long long cols = clang_Cursor_getTemplateArgumentValue(decl, 1);
        long long rows = clang_Cursor_getTemplateArgumentValue(decl, 2);
        if (!k || cols != rows || cols != 8) return fail();  // the IR models 8x8 only
        ir::Type m;
        m.kind = ir::Type::Kind::SimdMatrix;
        m.scalar = *k;
        m.count = 8;
        return m;
      }
      auto idx = struct_index(ctx, decl, why);
      if (!idx) return std::nullopt;
      return ir::Type::struct_of(*idx);
    }
    case CXType_Atomic: {
      // atomic_int, atomic_uint, atomic_float, atomic_bool (metal::atomic<T>).
      auto k = scalar_of(clang_getCanonicalType(clang_Type_getValueType(c)));
      if (!k || (*k != ir::ScalarKind::Int && *k != ir::ScalarKind::UInt && *k != ir::ScalarKind::Float &&
                 *k != ir::ScalarKind::Bool)) {
        if (why) *why = "atomic type '" + type_spelling(t) + "'";
        return std::nullopt;
      }
      return ir::Type::atomic_of(*k);
    }
    default: return fail();
  }
}

std::optional<int> struct_index(FrontContext& ctx, CXCursor decl, std::string* why) {
  decl = clang_getCanonicalCursor(decl);
  CXCursor def = clang_getCursorDefinition(decl);
  if (!clang_Cursor_isNull(def)) decl = def;
  std::string usr = usr_of(decl);
  if (auto it = ctx.struct_by_usr.find(usr); it != ctx.struct_by_usr.end()) return it->second;
  CXCursorKind kind = clang_getCursorKind(decl);
  // The shim's structs are Metal's own types, with IR forms of their own;
  // metal::array<T, N> is an ordinary struct holding T[N].
  bool shim_array =
      ctx.in_shim(decl) && (spelling(decl) == "array" || spelling(decl) == "matrix" || spelling(decl) == "packed_vec");
  if ((kind != CXCursor_StructDecl && kind != CXCursor_ClassDecl && kind != CXCursor_UnionDecl) ||
      (ctx.in_shim(decl) && !shim_array)) {
    if (why) *why = "type '" + type_spelling(clang_getCursorType(decl)) + "'";
    return std::nullopt;
  }
  ir::StructDef def_ir;
  def_ir.is_union = kind == CXCursor_UnionDecl;
  // A struct template's instances are distinct structs: `Affine<half, 32>`
  // is `Affine_half_32`. Names stay unique in the module (structs of the
  // same name in different namespaces).
  // An anonymous record has no name of its own (clang spells it
  // "(anonymous union at file:line:col)").
  std::string base = clang_Cursor_isAnonymous(decl) ? "" : mangled_name(spelling(decl), template_args_text(decl));
  // packed_vec<float, 3> is Metal's packed_float3.
  if (shim_array && spelling(decl) == "packed_vec" && clang_Cursor_getNumTemplateArguments(decl) == 2) {
    std::string elem = template_args_text(decl);
    elem = elem.substr(1, elem.find(',') - 1);
    // The argument is spelled as C canonicalises it (`packed_vec<unsigned
    // char, 4>`): the name is Metal's, a valid identifier.
    static const std::map<std::string, std::string> kMetalNames = {
        {"unsigned char", "uchar"}, {"signed char", "char"},    {"unsigned short", "ushort"},
        {"unsigned int", "uint"},   {"unsigned long", "ulong"}, {"__bf16", "bfloat"}};
    if (auto it = kMetalNames.find(elem); it != kMetalNames.end()) elem = it->second;
    for (char& ch : elem)
      if (ch == ' ') ch = '_';
    base = "packed_" + elem + std::to_string(clang_Cursor_getTemplateArgumentValue(decl, 1));
  }
  if (base.empty())
    base = std::string(def_ir.is_union ? "anon_union_" : "anon_struct_") + std::to_string(ctx.module.structs.size());
  def_ir.name = ir::unique_struct_name(ctx.module, base);
  def_ir.loc = ctx.loc(decl);
  // Fields in declaration order; Metal lays structs out with natural
  // alignment (3-vectors padded to 4), which ir::type_size/type_align encode.
  struct Visit {
    FrontContext* ctx;
    std::vector<CXCursor> fields;
  } v{&ctx, {}};
  clang_Type_visitFields(
      clang_getCursorType(decl),
      [](CXCursor f, CXClientData d) {
        static_cast<Visit*>(d)->fields.push_back(f);
        return CXVisit_Continue;
      },
      &v);
  int offset = 0, align = 1;
  for (CXCursor f : v.fields) {
    if (clang_Cursor_isBitField(f)) {
      if (why) *why = "bit-field '" + spelling(f) + "'";
      return std::nullopt;
    }
    auto ft = convert_type(ctx, clang_getCursorType(f), why);
    if (!ft) return std::nullopt;
    if (ft->is_array() && ft->count == 0 && !clang_equalCursors(f, v.fields.back())) {
      if (why) *why = "runtime-sized array field '" + spelling(f) + "' that is not the last field";
      return std::nullopt;
    }
    // Pointer fields are C's: 8 bytes, as Metal's GPU addresses are. A
    // kernel parameter holding them is an argument buffer
    // (passes/flatten_argument_buffers.h).
    // (Arrays of them too: `simdgroup_float8x8 tiles[4];`.)
    const ir::Type* inner = &*ft;
    while (inner->is_array()) inner = inner->elem.get();
    if (inner->kind == ir::Type::Kind::SimdMatrix || ft->kind == ir::Type::Kind::Void ||
        (ft->is_pointer() && ft->elem->is_pointer())) {
      if (why) *why = "struct field '" + spelling(f) + "' of type '" + type_spelling(clang_getCursorType(f)) + "'";
      return std::nullopt;
    }
    int a = ir::type_align(ctx.module, *ft);
    // An anonymous member's fields are named as this struct's (member()
    // finds them through it); the member itself gets a name of the IR's.
    CXCursor record = clang_getTypeDeclaration(clang_getCanonicalType(clang_getCursorType(f)));
    bool anonymous = !clang_Cursor_isNull(record) && clang_Cursor_isAnonymousRecordDecl(record);
    std::string name = anonymous ? "anon" + std::to_string(def_ir.fields.size()) : spelling(f);
    if (def_ir.is_union) {  // every member at offset 0; the union as large as the largest
      def_ir.fields.push_back(ir::StructField{name, *ft, 0, anonymous});
      offset = std::max(offset, ir::type_size(ctx.module, *ft));
    } else {
      offset = align_up(offset, a);
      // clang lays the shim's types out as Metal does (3-vectors padded to 4,
      // matrices as columns, packed vectors as arrays) and honours `alignas`
      // on a field, which only ever moves it further.
      long long clang_bits = clang_Cursor_getOffsetOfField(f);
      if (clang_bits > 0 && clang_bits % 8 == 0 && clang_bits / 8 > offset) offset = (int)(clang_bits / 8);
      def_ir.fields.push_back(ir::StructField{name, *ft, offset, anonymous});
      offset += ir::type_size(ctx.module, *ft);
    }
    if (a > align) align = a;
  }
  // `struct alignas(16) S` and fields declared alignas(N) raise the
  // struct's alignment (and so its size) past its fields' natural one.
  long long clang_align = clang_Type_getAlignOf(clang_getCursorType(decl));
  if (clang_align > align && clang_align <= 4096) align = (int)clang_align;
  // An empty struct (a functor, a holder of static members) still has one
  // byte, as in C++: a field makes both targets agree on that.
  if (def_ir.fields.empty()) {
    def_ir.fields.push_back(ir::StructField{"mslport_empty", ir::Type::scalar_of(ir::ScalarKind::UChar), 0});
    offset = 1;
  }
  def_ir.align = align;
  def_ir.size = align_up(offset, align);
  ctx.module.structs.push_back(std::move(def_ir));
  int idx = (int)ctx.module.structs.size() - 1;
  ctx.struct_by_usr[usr] = idx;
  if (shim_array && spelling(decl) == "packed_vec") ctx.packed_vectors.insert(idx);
  return idx;
}

}  // namespace mslport::front
