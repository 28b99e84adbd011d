#include "back/opencl/prelude.h"

#include <cstdlib>
#include <set>
#include <stdexcept>
#include <utility>

namespace mslport::back::opencl {
namespace {

struct FixedHelper {
  const char* name;
  std::vector<const char*> deps;
  const char* text;
};

// Every helper takes the Metal grid size (the `grid` kernel argument) when it
// needs Metal's view of the threadgroup: OpenCL 1.2 launches whole
// work-groups, while Metal's dispatchThreads clips the edge threadgroups.
const std::vector<FixedHelper>& fixed_helpers() {
  static const std::vector<FixedHelper> kHelpers = {
      {"mslport_threads_per_threadgroup",
       {},
       "// Metal's threads_per_threadgroup: the work-group clipped to the grid.\n"
       "uint3 mslport_threads_per_threadgroup(uint4 grid) {\n"
       "  const uint3 size = (uint3)((uint)get_local_size(0), (uint)get_local_size(1), (uint)get_local_size(2));\n"
       "  const uint3 origin = (uint3)((uint)get_group_id(0), (uint)get_group_id(1), (uint)get_group_id(2)) * size;\n"
       "  return min(size, grid.xyz - origin);\n"
       "}\n"},
      {"mslport_threadgroup_thread_count",
       {"mslport_threads_per_threadgroup"},
       "uint mslport_threadgroup_thread_count(uint4 grid) {\n"
       "  const uint3 n = mslport_threads_per_threadgroup(grid);\n"
       "  return n.x * n.y * n.z;\n"
       "}\n"},
      {"mslport_in_grid",
       {},
       "// False for the work-items OpenCL adds beyond a dispatchThreads grid.\n"
       "bool mslport_in_grid(uint4 grid) {\n"
       "  return get_global_id(0) < grid.x && get_global_id(1) < grid.y && get_global_id(2) < grid.z;\n"
       "}\n"},
      {"mslport_thread_position_in_grid",
       {},
       "uint3 mslport_thread_position_in_grid(uint4 grid) {\n"
       "  return (uint3)((uint)get_global_id(0), (uint)get_global_id(1), (uint)get_global_id(2));\n"
       "}\n"},
      {"mslport_thread_position_in_threadgroup",
       {},
       "uint3 mslport_thread_position_in_threadgroup(uint4 grid) {\n"
       "  return (uint3)((uint)get_local_id(0), (uint)get_local_id(1), (uint)get_local_id(2));\n"
       "}\n"},
      {"mslport_threadgroup_position_in_grid",
       {},
       "uint3 mslport_threadgroup_position_in_grid(uint4 grid) {\n"
       "  return (uint3)((uint)get_group_id(0), (uint)get_group_id(1), (uint)get_group_id(2));\n"
       "}\n"},
      {"mslport_threads_per_grid", {}, "uint3 mslport_threads_per_grid(uint4 grid) { return grid.xyz; }\n"},
      {"mslport_threadgroups_per_grid",
       {},
       "uint3 mslport_threadgroups_per_grid(uint4 grid) {\n"
       "  return (uint3)((uint)get_num_groups(0), (uint)get_num_groups(1), (uint)get_num_groups(2));\n"
       "}\n"},
      {"mslport_dispatch_threads_per_threadgroup",
       {},
       "uint3 mslport_dispatch_threads_per_threadgroup(uint4 grid) {\n"
       "  return (uint3)((uint)get_local_size(0), (uint)get_local_size(1), (uint)get_local_size(2));\n"
       "}\n"},
      {"mslport_grid_origin", {}, "uint3 mslport_grid_origin(uint4 grid) { return (uint3)(0u); }\n"},
      {"mslport_grid_size", {}, "uint3 mslport_grid_size(uint4 grid) { return grid.xyz; }\n"},
      {"mslport_thread_index_in_threadgroup",
       {"mslport_threads_per_threadgroup"},
       "// Linear index with the clipped sizes, as Metal numbers the threads.\n"
       "uint mslport_thread_index_in_threadgroup(uint4 grid) {\n"
       "  const uint3 n = mslport_threads_per_threadgroup(grid);\n"
       "  return (uint)get_local_id(0) + n.x * ((uint)get_local_id(1) + n.y * (uint)get_local_id(2));\n"
       "}\n"},
      {"mslport_thread_index_in_simdgroup",
       {"mslport_thread_index_in_threadgroup"},
       "uint mslport_thread_index_in_simdgroup(uint4 grid) { return mslport_thread_index_in_threadgroup(grid) % 32u; "
       "}\n"},
      {"mslport_simdgroup_index_in_threadgroup",
       {"mslport_thread_index_in_threadgroup"},
       "uint mslport_simdgroup_index_in_threadgroup(uint4 grid) { return mslport_thread_index_in_threadgroup(grid) / "
       "32u; }\n"},
      {"mslport_threads_per_simdgroup", {}, "uint mslport_threads_per_simdgroup(uint4 grid) { return 32u; }\n"},
      {"mslport_simdgroups_per_threadgroup",
       {"mslport_threadgroup_thread_count"},
       "uint mslport_simdgroups_per_threadgroup(uint4 grid) { return (mslport_threadgroup_thread_count(grid) + 31u) / "
       "32u; }\n"},
      {"mslport_simd_slot",
       {"mslport_threads_per_threadgroup"},
       "// A work-item's slot in the SIMD scratch: its Metal thread index, or\n"
       "// 0xffffffff for work-items outside Metal's (clipped) threadgroup.\n"
       "uint mslport_simd_slot(uint4 grid) {\n"
       "  const uint3 n = mslport_threads_per_threadgroup(grid);\n"
       "  const uint3 l = (uint3)((uint)get_local_id(0), (uint)get_local_id(1), (uint)get_local_id(2));\n"
       "  if (l.x >= n.x || l.y >= n.y || l.z >= n.z) return 0xffffffffu;\n"
       "  return l.x + n.x * (l.y + n.y * l.z);\n"
       "}\n"},
      {"mslport_threadgroup_any",
       {},
       "// True on every work-item when v is true on any work-item of the work-group\n"
       "// (loops whose trip count differs between threads, see passes/predicate_sync.h).\n"
       "bool mslport_threadgroup_any(int v, __local uint* scratch) {\n"
       "  if (get_local_id(0) == 0 && get_local_id(1) == 0 && get_local_id(2) == 0) scratch[0] = 0u;\n"
       "  barrier(CLK_LOCAL_MEM_FENCE);\n"
       "  if (v) atomic_or((volatile __local uint*)scratch, 1u);\n"
       "  barrier(CLK_LOCAL_MEM_FENCE);\n"
       "  const bool r = scratch[0] != 0u;\n"
       "  barrier(CLK_LOCAL_MEM_FENCE);\n"
       "  return r;\n"
       "}\n"},
      {"mslport_nv_warps",
       {"mslport_threadgroup_thread_count"},
       "#ifdef MSLPORT_NV_SHFL\n"
       "// NVIDIA (the runtime defines MSLPORT_NV_SHFL there): warps are 32 work-items of\n"
       "// consecutive linear id x + X * (y + Y * z), the order Metal numbers a threadgroup's\n"
       "// threads, so SIMD group i is warp i when the work-group is whole warps and is\n"
       "// not clipped by a dispatchThreads grid (then Metal's sizes are the work-group's).\n"
       "// The same in every work-item of a work-group.\n"
       "bool mslport_nv_warps(uint4 grid) {\n"
       "  const uint n = (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));\n"
       "  return (n & 31u) == 0u && mslport_threadgroup_thread_count(grid) == n;\n"
       "}\n"
       "// Warp shuffles and votes (inline PTX, as CLBlast does); every lane of the warp\n"
       "// takes part (mask 0xffffffff): collectives sit in threadgroup-uniform control flow.\n"
       "uint mslport_nv_shfl_idx(uint v, uint lane) {\n"
       "  uint r;\n"
       "  __asm__ __volatile__(\"shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;\" : \"=r\"(r) : \"r\"(v), "
       "\"r\"(lane));\n"
       "  return r;\n"
       "}\n"
       "uint mslport_nv_shfl_bfly(uint v, uint mask) {\n"
       "  uint r;\n"
       "  __asm__ __volatile__(\"shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;\" : \"=r\"(r) : \"r\"(v), "
       "\"r\"(mask));\n"
       "  return r;\n"
       "}\n"
       "uint mslport_nv_shfl_up(uint v, uint delta) {\n"
       "  uint r;\n"
       "  __asm__ __volatile__(\"shfl.sync.up.b32 %0, %1, %2, 0x0, 0xffffffff;\" : \"=r\"(r) : \"r\"(v), "
       "\"r\"(delta));\n"
       "  return r;\n"
       "}\n"
       "uint mslport_nv_ballot(int p) {\n"
       "  uint r;\n"
       "  __asm__ __volatile__(\"{ .reg .pred q; setp.ne.s32 q, %1, 0; vote.sync.ballot.b32 %0, q, 0xffffffff; }\" : "
       "\"=r\"(r) : \"r\"(p));\n"
       "  return r;\n"
       "}\n"
       "#endif\n"},
      {"mslport_bf16_to_float",
       {},
       "// bfloat is stored as its 16 bits (ushort); arithmetic happens in float.\n"
       "float mslport_bf16_to_float(ushort x) { return as_float((uint)x << 16); }\n"},
      {"mslport_float_to_bf16",
       {},
       "ushort mslport_float_to_bf16(float f) {\n"
       "  const uint u = as_uint(f);\n"
       "  if ((u & 0x7fffffffu) > 0x7f800000u) return (ushort)((u >> 16) | 0x40u);  // NaN stays a (quiet) NaN\n"
       "  return (ushort)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);            // round to nearest even\n"
       "}\n"},
      {"mslport_round_bf16",
       {"mslport_bf16_to_float", "mslport_float_to_bf16"},
       "float mslport_round_bf16(float f) { return mslport_bf16_to_float(mslport_float_to_bf16(f)); }\n"},
      {"mslport_half_to_float",
       {},
       "// half is stored as its 16 bits (ushort): no cl_khr_fp16, so only vload/vstore_half.\n"
       "float mslport_half_to_float(ushort x) { return vload_half(0, (const __private half*)&x); }\n"},
      {"mslport_float_to_half",
       {},
       "ushort mslport_float_to_half(float f) {\n"
       "  ushort x;\n"
       "  vstore_half_rte(f, 0, (__private half*)&x);\n"
       "  return x;\n"
       "}\n"},
      {"mslport_round_half",
       {"mslport_half_to_float", "mslport_float_to_half"},
       "float mslport_round_half(float f) { return mslport_half_to_float(mslport_float_to_half(f)); }\n"},
      {"mslport_udiv_prepare",
       {},
       "// Division by a divisor a loop does not change (raise/invariant_division.cc):\n"
       "// Granlund & Montgomery's round-up method, exact for every 32-bit numerator.\n"
       "// .x multiplier, .y and .z shifts, .w the divisor.\n"
       "uint4 mslport_udiv_prepare(uint d) {\n"
       "  const uint l = d > 1u ? 32u - clz(d - 1u) : 0u;  // ceil(log2(d))\n"
       "  const ulong dd = d > 1u ? (ulong)d : 1ul;\n"
       "  const uint m = (uint)((((1ul << l) - dd) << 32) / dd + 1ul);\n"
       "  return (uint4)(m, min(l, 1u), l > 0u ? l - 1u : 0u, d);\n"
       "}\n"},
      {"mslport_udiv",
       {},
       "// n / d for r = mslport_udiv_prepare(d); d == 0 (undefined in Metal) gives\n"
       "// 0xffffffff as NVIDIA and Apple GPUs do, not a trap.\n"
       "uint mslport_udiv(uint n, uint4 r) {\n"
       "  const uint t = mul_hi(n, r.x);\n"
       "  const uint q = (t + ((n - t) >> r.y)) >> r.z;\n"
       "  return r.w == 0u ? 0xffffffffu : q;\n"
       "}\n"},
      {"mslport_prefetch_l2",
       {},
       "// A hint: bring the line holding *p into L2 (raise/prefetch_strided_loads.cc). On\n"
       "// NVIDIA (MSLPORT_NV_SHFL, defined there by the runtime) a PTX prefetch; elsewhere nothing.\n"
       "#ifdef MSLPORT_NV_SHFL\n"
       "#define mslport_prefetch_l2(p) __asm__ __volatile__(\"prefetch.global.L2 [%0];\" : : \"l\"(p))\n"
       "#else\n"
       "#define mslport_prefetch_l2(p) ((void)(p))\n"
       "#endif\n"},
      {"mslport_umod",
       {"mslport_udiv"},
       "uint mslport_umod(uint n, uint4 r) { return r.w == 0u ? n : n - mslport_udiv(n, r) * r.w; }\n"},
  };
  return kHelpers;
}

const FixedHelper* find_fixed(const std::string& name) {
  for (auto& h : fixed_helpers())
    if (name == h.name) return &h;
  return nullptr;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size())
    s.replace(pos, from.size(), to);
  return s;
}

const char* lane_names = "xyzw";

}  // namespace

void Prelude::add(const std::string& name, const std::string& text, std::vector<std::string> deps) {
  for (auto& d : deps)
    if (!have_.count(d)) require(d);
  if (have_.insert(name).second) items_.push_back(Item{name, text, std::move(deps)});
}

void Prelude::require(const std::string& name) {
  if (have_.count(name)) return;
  const FixedHelper* h = find_fixed(name);
  if (!h) throw std::logic_error("unknown OpenCL prelude helper " + name);
  add(name, h->text, std::vector<std::string>(h->deps.begin(), h->deps.end()));
}

void Prelude::keep_only(const std::set<std::string>& called) {
  std::set<std::string> keep;
  // Dependencies come before their users: walk backwards once.
  for (auto it = items_.rbegin(); it != items_.rend(); ++it) {
    if (!called.count(it->name) && !keep.count(it->name)) continue;
    keep.insert(it->name);
    keep.insert(it->deps.begin(), it->deps.end());
  }
  std::vector<Item> kept;
  for (auto& i : items_)
    if (keep.count(i.name)) kept.push_back(std::move(i));
  items_ = std::move(kept);
  have_ = keep;
}

std::string Prelude::narrow_helper(NarrowFloat kind, NarrowConv conv, int width) {
  const std::string k = kind == NarrowFloat::BFloat ? "bf16" : "half";
  if (width == 1) {
    std::string name = conv == NarrowConv::ToFloat     ? "mslport_" + k + "_to_float"
                       : conv == NarrowConv::FromFloat ? "mslport_float_to_" + k
                                                       : "mslport_round_" + k;
    require(name);
    return name;
  }
  const std::string n = std::to_string(width);
  const std::string f = "float" + n, u = "ushort" + n;
  std::string name, text;
  std::vector<std::string> deps;
  if (conv == NarrowConv::ToFloat) {
    name = "mslport_" + k + "x" + n + "_to_" + f;
    if (kind == NarrowFloat::BFloat)
      text = f + " " + name + "(" + u + " x) { return as_" + f + "(convert_uint" + n + "(x) << 16); }\n";
    else text = f + " " + name + "(" + u + " x) { return vload_half" + n + "(0, (const __private half*)&x); }\n";
  } else if (conv == NarrowConv::FromFloat) {
    name = "mslport_" + f + "_to_" + k + "x" + n;
    if (kind == NarrowFloat::BFloat) {
      deps.push_back("mslport_float_to_bf16");
      text = u + " " + name + "(" + f + " f) {\n  return (" + u + ")(";
      for (int i = 0; i < width; ++i)
        text += std::string(i ? ", " : "") + "mslport_float_to_bf16(f." + lane_names[i] + ")";
      text += ");\n}\n";
    } else {
      text = u + " " + name + "(" + f + " f) {\n  " + u + " x;\n  vstore_half" + n +
             "_rte(f, 0, (__private half*)&x);\n  return x;\n}\n";
    }
  } else {
    name = "mslport_round_" + k + "x" + n;
    std::string to = narrow_helper(kind, NarrowConv::ToFloat, width);
    std::string from = narrow_helper(kind, NarrowConv::FromFloat, width);
    text = f + " " + name + "(" + f + " f) { return " + to + "(" + from + "(f)); }\n";
    deps = {to, from};
  }
  add(name, text, deps);
  return name;
}

// simdgroup_matrix<float, 8, 8> without sub-groups: every lane of the SIMD
// group holds the whole matrix (row-major) and computes all of it. Lanes
// never exchange data, so no barrier is needed, and every lane stores the
// same values. The union's pairs are thread_elements() (m.p[pair]): a lane
// that writes its pair changes its own copy, and the shared pass
// simd_matrix_elements gathers the lanes' pairs before the tile is read whole.
std::string Prelude::simdgroup_matrix_type() {
  const std::string M = kSimdMatrixType;
  add(M,
      "// simdgroup_matrix<float, 8, 8>: each lane holds all 64 elements, row-major; p[i] is elements 2i, 2i + "
      "1.\ntypedef union { float e[64]; float2 p[32]; } " +
          M + ";\n");
  return M;
}

std::string Prelude::simdgroup_matrix_helper(const std::string& op, const std::string& space,
                                             const std::string& format) {
  const std::string M = simdgroup_matrix_type();
  std::string name = "mslport_simdgroup_" + op + "_" + format + "8x8", text;
  std::string qualifier = space.empty() ? "" : space + " ";
  if (op == "load" || op == "store") {
    std::string tag = space.empty() ? "private" : space.substr(space.find_first_not_of('_'));
    name += "_" + tag;
  }
  // A float, read from / written to memory of the format, and rounded to it.
  const NarrowFloat narrow = format == "bfloat" ? NarrowFloat::BFloat : NarrowFloat::Half;
  const bool is_float = format == "float";
  const std::string elem = is_float ? "float" : "ushort";
  auto read = [&](const std::string& x) {
    return is_float ? x : narrow_helper(narrow, NarrowConv::ToFloat, 1) + "(" + x + ")";
  };
  auto write = [&](const std::string& x) {
    return is_float ? x : narrow_helper(narrow, NarrowConv::FromFloat, 1) + "(" + x + ")";
  };
  auto rounded = [&](const std::string& x) {
    return is_float ? x : narrow_helper(narrow, NarrowConv::Round, 1) + "(" + x + ")";
  };
  std::vector<std::string> deps = {M};
  if (!is_float) {
    for (NarrowConv c : {NarrowConv::ToFloat, NarrowConv::FromFloat, NarrowConv::Round})
      deps.push_back(narrow_helper(narrow, c, 1));
  }
  if (op == "load") {
    text =
        M + " " + name + "(" + qualifier + "const " + elem +
        "* src, ulong stride, ulong2 origin, bool transpose) {\n  " + M +
        " m;\n"
        "  for (int r = 0; r < 8; ++r)\n"
        "    for (int c = 0; c < 8; ++c)\n"
        "      m.e[r * 8 + c] = " +
        read("transpose ? src[(origin.y + c) * stride + origin.x + r] : src[(origin.y + r) * stride + origin.x + c]") +
        ";\n"
        "  return m;\n}\n";
  } else if (op == "store") {
    text = "void " + name + "(" + M + " m, " + qualifier + elem +
           "* dst, ulong stride, ulong2 origin, bool transpose) {\n"
           "  for (int r = 0; r < 8; ++r)\n"
           "    for (int c = 0; c < 8; ++c)\n"
           "      dst[(origin.y + r) * stride + origin.x + c] = " +
           write("transpose ? m.e[c * 8 + r] : m.e[r * 8 + c]") +
           ";\n"
           "}\n";
  } else if (op == "multiply" || op == "multiply_accumulate") {
    bool acc = op == "multiply_accumulate";
    text = M + " " + name + "(" + M + " a, " + M + " b" + (acc ? ", " + M + " c" : "") + ") {\n  " + M +
           " d;\n"
           "  for (int r = 0; r < 8; ++r)\n"
           "    for (int col = 0; col < 8; ++col) {\n"
           "      float s = 0.0f;\n"
           "      for (int k = 0; k < 8; ++k) s = fma(a.e[r * 8 + k], b.e[k * 8 + col], s);\n"
           "      d.e[r * 8 + col] = " +
           rounded(std::string("s") + (acc ? " + c.e[r * 8 + col]" : "")) +
           ";\n"
           "    }\n"
           "  return d;\n}\n";
  } else if (op == "diagonal") {  // simdgroup_matrix<T, C, R>(T dval)
    text = M + " " + name + "(float v) {\n  " + M + " m;\n  for (int i = 0; i < 64; ++i) m.e[i] = i % 9 == 0 ? " +
           rounded("v") + " : 0.0f;\n  return m;\n}\n";
  } else {  // filled
    text = M + " " + name + "(float v) {\n  " + M + " m;\n  for (int i = 0; i < 64; ++i) m.e[i] = " + rounded("v") +
           ";\n  return m;\n}\n";
  }
  add(name, text, deps);
  return name;
}

std::string Prelude::fract_helper(int width) {
  const std::string t = width == 1 ? "float" : "float" + std::to_string(width);
  const std::string name = "mslport_fract_" + t;
  add(name, "// Metal's fract: x - floor(x), kept below 1.\n" + t + " " + name + "(" + t +
                " x) { return fmin(x - floor(x), 0x1.fffffep-1f); }\n");
  return name;
}

// The emulation of SIMD-group functions (no sub-groups in OpenCL C 1.2 on
// PoCL). Every work-item of the work-group calls the helper (the shared
// passes put collectives in threadgroup-uniform control flow): each writes
// (value, active) to its slot, then reads its SIMD group's 32 slots (lanes are
// Metal thread indices / 32; the last group may be partial) and combines the
// active ones. Scratch layout: n values of T, then n int flags, n = work-group
// size; bindings.json asks for sizeof(T) + 4 bytes per thread.
bool Prelude::is_vote(ir::CollectiveOp op) {
  using Op = ir::CollectiveOp;
  return op == Op::SimdAll || op == Op::SimdAny || op == Op::SimdBallot || op == Op::SimdIsFirst || op == Op::QuadAll ||
         op == Op::QuadAny || op == Op::QuadIsFirst || op == Op::SimdActiveThreadsMask || op == Op::QuadBallot ||
         op == Op::QuadActiveThreadsMask;
}

bool Prelude::is_fill(ir::CollectiveOp op) {
  using Op = ir::CollectiveOp;
  return op == Op::SimdShuffleAndFillDown || op == Op::SimdShuffleAndFillUp || op == Op::QuadShuffleAndFillDown ||
         op == Op::QuadShuffleAndFillUp;
}

// simd_ / quad_shuffle_and_fill_down / _up: two values per lane (data,
// filling) through a scratch that holds one, so two exchange rounds. The
// group splits into runs of `modulo` lanes (its width where the call gives
// 0: no modulo); lane i of a run reads data from lane i + delta (i - delta)
// of its run, filling where that falls past the run's end (before its
// start), wrapped by the run's width. A source outside the run or past the
// end of a partial group leaves the lane's own data, as the C++ runtime.
std::string Prelude::fill_helper(ir::CollectiveOp op, const std::string& value_type) {
  using Op = ir::CollectiveOp;
  const bool quad = op >= Op::QuadSum;
  const bool down = op == Op::SimdShuffleAndFillDown || op == Op::QuadShuffleAndFillDown;
  const std::string W = quad ? "4u" : "32u";
  const std::string name = std::string("mslport_") + ir::collective_name(op) + "_" + value_type;
  if (have_.count(name)) return name;
  std::string text = "$T " + name +
                     "($T v, $T f, uint delta, uint modulo, int active, __local uint* scratch, uint4 grid) {\n"
                     "  const uint n = (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));\n"
                     "  const uint slot = mslport_simd_slot(grid);\n"
                     "  __local $T* vals = (__local $T*)scratch;\n"
                     "  const uint base = slot & ~(" +
                     W +
                     " - 1u);\n"
                     "  const uint end = min(base + " +
                     W +
                     ", mslport_threadgroup_thread_count(grid));\n"
                     "  const uint m = (modulo == 0u || modulo > " +
                     W + ") ? " + W +
                     " : modulo;\n"
                     "  const uint lane = slot - base, i = lane % m, run = base + lane - i;\n"
                     "  int j = " +
                     (down ? "(int)(i + delta)" : "(int)i - (int)delta") +
                     ";\n  const int filled = " + (down ? "j >= (int)m" : "j < 0") + ";\n  if (filled) j " +
                     (down ? "-=" : "+=") +
                     " (int)m;\n"
                     "  const int ok = j >= 0 && j < (int)m && run + (uint)j < end;\n"
                     "  const uint src = ok ? run + (uint)j : slot;\n"
                     "  $T r = v;\n"
                     "  if (slot < n) vals[slot] = v;\n"
                     "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "  if (ok && !filled) r = vals[src];\n"
                     "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "  if (slot < n) vals[slot] = f;\n"
                     "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "  if (ok && filled) r = vals[src];\n"
                     "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "  return r;\n"
                     "}\n";
  add(name, replace_all(text, "$T", value_type), {"mslport_simd_slot", "mslport_threadgroup_thread_count"});
  return name;
}

std::string Prelude::simd_helper(ir::CollectiveOp op, const std::string& value_type, bool is_float) {
  using Op = ir::CollectiveOp;
  const bool vote = is_vote(op);
  // Quad-group functions work on the 4-lane runs of the SIMD groups.
  const bool quad = op >= Op::QuadSum;
  const std::string W = quad ? "4u" : "32u";
  const std::string T = vote ? "int" : value_type;
  std::string name = std::string("mslport_") + ir::collective_name(op);
  if (!vote) name += "_" + value_type;
  if (have_.count(name)) return name;

  std::string ret = T, extra, body;
  auto fold = [&](const std::string& combine) {
    return "  $T r = v;\n  int have = 0;\n"
           "  for (uint i = base; i < end; ++i) {\n"
           "    if (!act[i]) continue;\n"
           "    r = have ? " +
           combine +
           " : vals[i];\n"
           "    have = 1;\n"
           "  }\n";
  };
  const std::string mn = is_float ? "fmin" : "min", mx = is_float ? "fmax" : "max";
  switch (op) {
    case Op::SimdSum:
    case Op::QuadSum: body = fold("r + vals[i]"); break;
    case Op::SimdProduct:
    case Op::QuadProduct: body = fold("r * vals[i]"); break;
    case Op::SimdMin:
    case Op::QuadMin: body = fold(mn + "(r, vals[i])"); break;
    case Op::SimdMax:
    case Op::QuadMax: body = fold(mx + "(r, vals[i])"); break;
    case Op::SimdAnd:
    case Op::QuadAnd: body = fold("(r & vals[i])"); break;
    case Op::SimdOr:
    case Op::QuadOr: body = fold("(r | vals[i])"); break;
    case Op::SimdXor:
    case Op::QuadXor: body = fold("(r ^ vals[i])"); break;
    case Op::SimdPrefixInclusiveSum:
    case Op::SimdPrefixExclusiveSum:
    case Op::QuadPrefixInclusiveSum:
    case Op::QuadPrefixExclusiveSum: {
      const bool inclusive = op == Op::SimdPrefixInclusiveSum || op == Op::QuadPrefixInclusiveSum;
      body = std::string("  $T r = ($T)(0);\n  for (uint i = base; i < end && i ") + (inclusive ? "<=" : "<") +
             " slot; ++i)\n    if (act[i]) r += vals[i];\n";
      break;
    }
    case Op::SimdPrefixInclusiveProduct:
    case Op::SimdPrefixExclusiveProduct:
    case Op::QuadPrefixInclusiveProduct:
    case Op::QuadPrefixExclusiveProduct: {
      const bool inclusive = op == Op::SimdPrefixInclusiveProduct || op == Op::QuadPrefixInclusiveProduct;
      body = std::string("  $T r = ($T)(1);\n  for (uint i = base; i < end && i ") + (inclusive ? "<=" : "<") +
             " slot; ++i)\n    if (act[i]) r *= vals[i];\n";
      break;
    }
    case Op::SimdBroadcast:
    case Op::SimdShuffle:
    case Op::QuadBroadcast:
    case Op::QuadShuffle:
      extra = "uint lane, ";
      body = "  const uint src = base + lane;\n  $T r = (lane < " + W + " && src < end) ? vals[src] : v;\n";
      break;
    case Op::SimdShuffleRotateDown:
    case Op::SimdShuffleRotateUp:
    case Op::QuadShuffleRotateDown:
    case Op::QuadShuffleRotateUp: {
      const bool down = op == Op::SimdShuffleRotateDown || op == Op::QuadShuffleRotateDown;
      extra = "uint delta, ";
      body = "  const uint d = delta % " + W + ", me = slot - base;\n  const uint src = base + " +
             (down ? "(me + d) % " + W : "(me + " + W + " - d) % " + W) + ";\n  $T r = src < end ? vals[src] : v;\n";
      break;
    }
    case Op::SimdIsFirst:
    case Op::QuadIsFirst:
      ret = "bool";
      body = "  int r = active;\n  for (uint i = base; i < slot; ++i)\n    if (act[i]) r = 0;\n";
      break;
    case Op::SimdBroadcastFirst:
    case Op::QuadBroadcastFirst:
      body = "  $T r = v;\n  for (uint i = base; i < end; ++i)\n    if (act[i]) { r = vals[i]; break; }\n";
      break;
    case Op::SimdShuffleDown:
    case Op::QuadShuffleDown:
      extra = "uint delta, ";
      body =
          "  const uint l = (slot - base) + delta;\n  $T r = (l < " + W + " && base + l < end) ? vals[base + l] : v;\n";
      break;
    case Op::SimdShuffleUp:
    case Op::QuadShuffleUp:
      extra = "uint delta, ";
      body = "  $T r = (slot < n && delta <= slot - base) ? vals[slot - delta] : v;\n";
      break;
    case Op::SimdShuffleXor:
    case Op::QuadShuffleXor:
      extra = "uint mask, ";
      body =
          "  const uint l = (slot - base) ^ mask;\n  $T r = (l < " + W + " && base + l < end) ? vals[base + l] : v;\n";
      break;
    case Op::SimdAll:
    case Op::SimdAny:
    case Op::QuadAll:
    case Op::QuadAny: {
      ret = "bool";
      const bool all = op == Op::SimdAll || op == Op::QuadAll;
      body = all ? "  int r = 1;\n  for (uint i = base; i < end; ++i)\n    if (act[i] && !vals[i]) r = 0;\n"
                 : "  int r = 0;\n  for (uint i = base; i < end; ++i)\n    if (act[i] && vals[i]) r = 1;\n";
      break;
    }
    case Op::QuadBallot:
    case Op::QuadActiveThreadsMask:
      ret = "uint";
      body = "  uint r = 0u;\n  for (uint i = base; i < end; ++i)\n    if (act[i] && vals[i]) r |= 1u << (i - base);\n";
      break;
    case Op::SimdShuffleAndFillDown:
    case Op::SimdShuffleAndFillUp:
    case Op::QuadShuffleAndFillDown:
    case Op::QuadShuffleAndFillUp: return fill_helper(op, value_type);
    case Op::SimdBallot:
    case Op::SimdActiveThreadsMask:
      ret = "ulong";
      body =
          "  ulong r = 0;\n  for (uint i = base; i < end; ++i)\n    if (act[i] && vals[i]) r |= 1ul << (i - base);\n";
      break;
  }
  const std::string fast = nv_simd_fast_path(op, value_type, is_float);
  std::string text = ret + " " + name + "($T v, " + extra + "int active, __local uint* scratch, uint4 grid) {\n" +
                     fast +
                     "  const uint n = (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));\n"
                     "  const uint slot = mslport_simd_slot(grid);\n"
                     "  __local $T* vals = (__local $T*)scratch;\n"
                     "  __local int* act = (__local int*)(scratch + (n * (uint)sizeof($T) + 3u) / 4u);\n"
                     "  if (slot < n) {\n    vals[slot] = v;\n    act[slot] = active;\n  }\n"
                     "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "  const uint base = slot & ~" +
                     (quad ? "3u" : "31u") +
                     ";\n"
                     "  const uint end = min(base + " +
                     W + ", mslport_threadgroup_thread_count(grid));\n" + body +
                     "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                     "  return r;\n"
                     "}\n";
  std::vector<std::string> deps = {"mslport_simd_slot", "mslport_threadgroup_thread_count"};
  if (!fast.empty()) deps.push_back("mslport_nv_warps");
  if (!fast.empty() && !vote) deps.push_back("mslport_nv_shfl_" + value_type);
  add(name, replace_all(text, "$T", T), deps);
  return name;
}

namespace {

// The scalar and lane count of an OpenCL value type name ("float4" ->
// {"float", 4}); lanes 0 when it is not a scalar or vector of a type the
// warp-shuffle path moves (32 bits or narrower).
std::pair<std::string, int> shfl_type(const std::string& t) {
  size_t d = t.find_first_of("0123456789");
  std::string scalar = t.substr(0, d);
  int lanes = d == std::string::npos ? 1 : std::atoi(t.c_str() + d);
  static const std::set<std::string> ok = {"float", "int", "uint", "short", "ushort", "char", "uchar"};
  if (!ok.count(scalar) || !(lanes == 1 || lanes == 2 || lanes == 3 || lanes == 4 || lanes == 8 || lanes == 16))
    return {scalar, 0};
  return {scalar, lanes};
}

// Identity of a reduction on `scalar` (inactive lanes contribute it).
std::string identity(ir::CollectiveOp op, const std::string& scalar) {
  using Op = ir::CollectiveOp;
  const bool f = scalar == "float";
  auto upper = [&](const char* suffix) {
    if (scalar == "uint" || scalar == "ushort" || scalar == "uchar")
      return std::string(scalar == "uint" ? "UINT" : scalar == "ushort" ? "USHRT" : "UCHAR") + suffix;
    return std::string(scalar == "int" ? "INT" : scalar == "short" ? "SHRT" : "CHAR") + suffix;
  };
  switch (op) {
    case Op::SimdProduct: return "1";
    case Op::SimdMin: return f ? "INFINITY" : upper("_MAX");
    case Op::SimdMax:
      if (f) return "-INFINITY";
      if (scalar == "uint" || scalar == "ushort" || scalar == "uchar") return "0";
      return upper("_MIN");
    case Op::SimdAnd: return "~0";
    default: return "0";
  }
}

}  // namespace

// Shuffles of a whole value of type T (component by component through
// 32-bit PTX shuffles): mslport_nv_shfl_{idx,bfly,up}_T.
std::string Prelude::nv_shuffle_helper(const std::string& T) {
  auto [scalar, lanes] = shfl_type(T);
  const std::string name = "mslport_nv_shfl_" + T;
  const bool f = scalar == "float";
  auto one = [&](const std::string& prim, const std::string& x) {
    const std::string bits = f ? "as_uint(" + x + ")" : "(uint)(" + x + ")";
    const std::string call = "mslport_nv_shfl_" + prim + "(" + bits + ", a)";
    return f ? "as_float(" + call + ")" : "(" + scalar + ")" + call;
  };
  std::string text = "#ifdef MSLPORT_NV_SHFL\n";
  for (const char* prim : {"idx", "bfly", "up"}) {
    text += T + " mslport_nv_shfl_" + prim + "_" + T + "(" + T + " v, uint a) {\n";
    if (lanes == 1) {
      text += "  return " + one(prim, "v") + ";\n";
    } else {
      text += "  " + T + " r;\n";
      for (int i = 0; i < lanes; ++i) {
        std::string c = std::string(".s") + "0123456789abcdef"[i];
        text += "  r" + c + " = " + one(prim, "v" + c) + ";\n";
      }
      text += "  return r;\n";
    }
    text += "}\n";
  }
  text += "#endif\n";
  add(name, text, {"mslport_nv_warps"});
  return name;
}

std::string Prelude::nv_simd_fast_path(ir::CollectiveOp op, const std::string& value_type, bool is_float) {
  using Op = ir::CollectiveOp;
  // The functions the warp-shuffle path serves; the rest keep the emulation.
  if (op > Op::SimdBallot) return "";
  const bool vote = is_vote(op);
  std::string T = vote ? "int" : value_type;
  auto [scalar, lanes] = shfl_type(T);
  if (lanes == 0) return "";  // 64-bit values: the emulation only
  std::string dep = vote ? "mslport_nv_warps" : nv_shuffle_helper(T);
  const std::string idx = "mslport_nv_shfl_idx_" + T, bfly = "mslport_nv_shfl_bfly_" + T,
                    up = "mslport_nv_shfl_up_" + T;
  const std::string mn = is_float ? "fmin" : "min", mx = is_float ? "fmax" : "max";
  std::string body;
  auto reduce = [&](const std::string& combine) {
    return "    " + T + " r = active ? v : (" + T + ")(" + identity(op, scalar) +
           ");\n"
           "    for (uint m = 16u; m > 0u; m >>= 1) {\n"
           "      const " +
           T + " o = " + bfly +
           "(r, m);\n"
           "      r = " +
           combine +
           ";\n"
           "    }\n"
           "    return r;\n";
  };
  auto from_lane = [&](const std::string& src_valid, const std::string& src) {
    return "    const " + T + " o = " + idx + "(v, (" + src +
           ") & 31u);\n"
           "    return (" +
           src_valid + ") ? o : v;\n";
  };
  switch (op) {
    case Op::SimdSum: body = reduce("r + o"); break;
    case Op::SimdProduct: body = reduce("r * o"); break;
    case Op::SimdMin: body = reduce(mn + "(r, o)"); break;
    case Op::SimdMax: body = reduce(mx + "(r, o)"); break;
    case Op::SimdAnd: body = reduce("r & o"); break;
    case Op::SimdOr: body = reduce("r | o"); break;
    case Op::SimdXor: body = reduce("r ^ o"); break;
    case Op::SimdPrefixInclusiveSum:
    case Op::SimdPrefixExclusiveSum:
      body = "    " + T + " r = active ? v : (" + T +
             ")(0);\n"
             "    for (uint d = 1u; d < 32u; d <<= 1) {\n"
             "      const " +
             T + " o = " + up +
             "(r, d);\n"
             "      if (me >= d) r += o;\n"
             "    }\n";
      if (op == Op::SimdPrefixExclusiveSum)
        body += "    r = " + up + "(r, 1u);\n    if (me == 0u) r = (" + T + ")(0);\n";
      body += "    return r;\n";
      break;
    case Op::SimdBroadcast:
    case Op::SimdShuffle: body = from_lane("lane < 32u", "lane"); break;
    case Op::SimdShuffleDown: body = "    const uint l = me + delta;\n" + from_lane("l < 32u", "l"); break;
    case Op::SimdShuffleUp: body = from_lane("delta <= me", "me - delta"); break;
    case Op::SimdShuffleXor: body = "    const uint l = me ^ mask;\n" + from_lane("l < 32u", "l"); break;
    case Op::SimdBroadcastFirst:
      body =
          "    const uint b = mslport_nv_ballot(active);\n"
          "    const " +
          T + " o = " + idx +
          "(v, 31u - clz(b & (0u - b)));\n"
          "    return b ? o : v;\n";
      break;
    case Op::SimdAll: body = "    return mslport_nv_ballot(active && !v) == 0u;\n"; break;
    case Op::SimdAny: body = "    return mslport_nv_ballot(active && v) != 0u;\n"; break;
    case Op::SimdBallot: body = "    return (ulong)mslport_nv_ballot(active && v);\n"; break;
    default: return "";  // returned above
  }
  require(dep);
  return "#ifdef MSLPORT_NV_SHFL\n"
         "  if (mslport_nv_warps(grid)) {  // warp shuffles, no scratch and no barrier\n"
         "    const uint me = mslport_simd_slot(grid) & 31u;\n" +
         body + "  }\n#endif\n";
}

std::string Prelude::text() const {
  std::string out;
  for (auto& i : items_) out += i.text + "\n";
  return out;
}

}  // namespace mslport::back::opencl
