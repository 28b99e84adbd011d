#include "bench/cases.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <new>
#include <stdexcept>
#include <thread>
#include <vector>

namespace mslport::bench {

using runtime::Access;
using runtime::DispatchSpec;

uint64_t BenchCase::min_bytes() const {
  uint64_t n = 0;
  for (const auto& b : buffers) n += b.bytes_read + b.bytes_written;
  return n;
}

uint64_t BenchCase::set_bytes() const {
  uint64_t n = 0;
  for (const auto& b : buffers) n += b.bytes;
  return n;
}

const BenchBuffer* BenchCase::buffer(int index) const {
  for (const auto& b : buffers)
    if (b.index == index) return &b;
  return nullptr;
}

namespace {

constexpr size_t kMiB = size_t{1} << 20;

// ---- buffer builders ----

BenchBuffer input(int index, const std::string& name, size_t bytes, Fill fill, float lo = 0, float hi = 0) {
  BenchBuffer b;
  b.index = index;
  b.name = name;
  b.access = Access::Read;
  b.bytes = bytes;
  b.fill = fill;
  b.lo = lo;
  b.hi = hi;
  b.bytes_read = bytes;
  return b;
}
BenchBuffer in_f32(int index, const std::string& name, size_t count, float lo, float hi) {
  return input(index, name, count * 4, Fill::Uniform, lo, hi);
}
BenchBuffer in_bf16(int index, const std::string& name, size_t count, float lo, float hi) {
  return input(index, name, count * 2, Fill::Bf16Uniform, lo, hi);
}
BenchBuffer in_bits(int index, const std::string& name, size_t bytes) {
  return input(index, name, bytes, Fill::RandomBits);
}
BenchBuffer output(int index, const std::string& name, size_t bytes) {
  BenchBuffer b;
  b.index = index;
  b.name = name;
  b.access = Access::Write;
  b.bytes = bytes;
  b.fill = Fill::Zero;
  b.bytes_written = bytes;
  return b;
}
BenchBuffer inout_f32(int index, const std::string& name, size_t count, float lo, float hi) {
  BenchBuffer b = in_f32(index, name, count, lo, hi);
  b.access = Access::ReadWrite;
  b.bytes_written = b.bytes;
  return b;
}
// A constant struct or scalar: 32-bit words (floats by their bits).
BenchBuffer words(int index, const std::string& name, const std::vector<uint32_t>& w) {
  BenchBuffer b;
  b.index = index;
  b.name = name;
  b.access = Access::Read;
  b.bytes = w.size() * 4;
  b.fill = Fill::Bytes;
  b.contents.resize(b.bytes);
  std::memcpy(b.contents.data(), w.data(), b.bytes);
  b.bytes_read = b.bytes;
  return b;
}
uint32_t fbits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
BenchBuffer u32(int index, const std::string& name, uint32_t v) { return words(index, name, {v}); }
BenchBuffer f32(int index, const std::string& name, float v) { return words(index, name, {fbits(v)}); }
BenchBuffer f32_values(int index, const std::string& name, const std::vector<float>& v) {
  std::vector<uint32_t> w;
  for (float f : v) w.push_back(fbits(f));
  return words(index, name, w);
}

DispatchSpec groups(uint32_t gx, uint32_t gy, uint32_t tx) {
  DispatchSpec d;
  d.threadgroups = {gx, gy, 1};
  d.threads_per_threadgroup = {tx, 1, 1};
  d.grid_threads = {gx * tx, gy, 1};
  return d;
}

uint32_t ceil_div(uint64_t a, uint64_t b) { return static_cast<uint32_t>((a + b - 1) / b); }
uint32_t next_pow2(uint32_t v) {
  uint32_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

std::string mib(uint64_t bytes) { return std::to_string((bytes + kMiB / 2) / kMiB) + " MiB"; }

// ---- the cases ----

BenchCase silu_mul_stacked_f32() {
  const uint32_t ffn = 768, n_slots = 8192;  // Qwen3-30B-A3B expert ffn; 1024 tokens x top_k 8
  const size_t n = size_t{ffn} * n_slots;
  BenchCase c;
  c.kernel = "silu_mul_stacked_f32";
  c.description = "ffn=768, n_slots=8192 (1024 tokens x top_k 8)";
  c.dispatch = groups(ceil_div(ffn, 256), n_slots, 256);
  c.buffers = {in_f32(0, "gate", n, -4, 4), in_f32(1, "up", n, -1, 1), output(2, "out", n * 4),
               words(3, "p", {ffn, n_slots})};
  return c;
}

BenchCase weighted_sum_stacked(const std::string& kernel, bool residual) {
  const uint32_t hidden = 2048 * 1024, n_slots = 8;  // 1024 tokens of hidden 2048, flattened
  BenchCase c;
  c.kernel = kernel;
  c.description = "hidden=2048*1024 (1024 tokens flattened), n_slots=8";
  c.dispatch = groups(ceil_div(hidden, 256), 1, 256);
  c.buffers = {in_f32(0, "slots", size_t{hidden} * n_slots, -1, 1), in_f32(1, "weights", n_slots, 0, 0.25f),
               residual ? inout_f32(2, "residual", hidden, -1, 1) : output(2, "out", size_t{hidden} * 4),
               words(3, "p", {hidden, n_slots})};
  return c;
}

BenchCase fused_norm_add_f32() {
  const uint32_t dim = 2048, rows = 2048;
  const uint32_t tg = std::min(256u, next_pow2(dim));
  const size_t n = size_t{dim} * rows;
  BenchCase c;
  c.kernel = "fused_norm_add_f32";
  c.description = "rows=2048, dim=2048";
  c.dispatch = groups(rows, 1, tg);
  c.threadgroup_memory = {{0, tg * 4}};
  c.buffers = {in_f32(0, "residual", n, -1, 1),
               in_f32(1, "input", n, -1, 1),
               in_f32(2, "weight", dim, 0.5f, 1.5f),
               output(3, "output", n * 4),
               u32(4, "dim", dim),
               u32(5, "rows", rows),
               f32(6, "eps", 1e-6f)};
  return c;
}

BenchCase fused_residual_norm_f32() {
  const uint32_t dim = 2048, rows = 2048;
  const uint32_t tg = std::min(256u, next_pow2(dim));
  const size_t n = size_t{dim} * rows;
  BenchCase c;
  c.kernel = "fused_residual_norm_f32";
  c.description = "rows=2048, dim=2048, write_sum=1";
  c.dispatch = groups(rows, 1, tg);
  c.threadgroup_memory = {{0, dim * 4}};  // the row's sums, then the reduction
  c.buffers = {in_f32(0, "residual", n, -1, 1),      in_f32(1, "input", n, -1, 1),
               in_f32(2, "weight", dim, 0.5f, 1.5f), output(3, "normed_output", n * 4),
               output(4, "sum_output", n * 4),       words(5, "params", {dim, rows, fbits(1e-6f), 1u})};
  return c;
}

BenchCase fused_moe_wsum_norm_add_f32() {
  const uint32_t dim = 2048, top_k = 8, rows = 1024;
  const uint32_t tg = std::min(256u, next_pow2(dim));
  const size_t n = size_t{dim} * rows;
  BenchCase c;
  c.kernel = "fused_moe_wsum_norm_add_f32";
  c.description = "rows=1024, top_k=8, dim=2048";
  c.dispatch = groups(rows, 1, tg);
  c.threadgroup_memory = {{0, (tg + dim) * 4}};
  c.buffers = {in_f32(0, "expert_outputs", n * top_k, -1, 1),
               in_f32(1, "weights", size_t{rows} * top_k, 0, 0.25f),
               in_f32(2, "residual", n, -1, 1),
               in_f32(3, "norm_weight", dim, 0.5f, 1.5f),
               output(4, "output", n * 4),
               u32(5, "dim", dim),
               u32(6, "top_k", top_k),
               u32(7, "rows", rows),
               f32(8, "eps", 1e-6f)};
  return c;
}

BenchCase moe_gate() {
  const uint32_t seq = 2048, hidden = 2048, experts = 128, top_k = 8;
  BenchCase c;
  c.kernel = "moe_gate";
  c.description = "seq_len=2048, hidden=2048, 128 experts, top_k=8 (router: compute-bound, 2*seq*experts*hidden flops)";
  c.dispatch = groups(seq, 1, 128);
  c.threadgroup_memory = {{0, (hidden + experts) * 4}};
  c.buffers = {in_bf16(0, "hidden_state", size_t{seq} * hidden, -2, 2),
               in_f32(1, "router_weights", size_t{experts} * hidden, -0.05f, 0.05f),
               in_f32(2, "norm_weight", hidden, 0.5f, 1.5f),
               in_f32(3, "per_expert_scale", experts, 0.5f, 1.5f),
               output(4, "expert_ids", size_t{seq} * top_k * 4),
               output(5, "expert_weights", size_t{seq} * top_k * 4),
               u32(6, "hidden_dim", hidden),
               u32(7, "n_experts", experts),
               u32(8, "top_k", top_k),
               f32(9, "rms_eps", 1e-6f)};
  return c;
}

// A language model's output projection (the LM head: Llama-3-8B's
// vocabulary of 128256 rows over its hidden size of 4096, the largest
// in_dim these kernels take): the largest mat-vec of a decode step, 125 MiB
// of 2-bit to 501 MiB of 8-bit weights. Not a 64-128 MiB layer: on the
// H100 a launch that does nothing takes 6 us of device time, 12 % of the
// 8-bit kernel's 49 us at that size, while the copy roof moves 384 MiB per
// launch (measured: a copy of the 8-bit layer's 71 MB read 2361 GB/s, of
// 285 MB 2841; the kernel 1465 and 1761 GB/s;
// bench/records/2026-11-24-h100-nvidia-matvec.txt).
BenchCase dequant_matvec(const std::string& kernel, uint32_t bits) {
  const uint32_t out_dim = 128256, in_dim = 4096, group = 64;  // in_dim <= 4096 (x_shared)
  const uint32_t groups_per_row = in_dim / group;
  BenchCase c;
  c.kernel = kernel;
  c.description = std::to_string(bits) + "-bit LM head, out_dim=" + std::to_string(out_dim) +
                  ", in_dim=4096, group_size=64 (" + mib(size_t{out_dim} * in_dim * bits / 8) + " of weights)";
  c.dispatch = groups(ceil_div(out_dim, 8), 1, 256);
  c.buffers = {in_bits(0, "W_packed", size_t{out_dim} * in_dim * bits / 8),
               in_bf16(1, "scales", size_t{out_dim} * groups_per_row, 0.001f, 0.02f),
               in_bf16(2, "biases", size_t{out_dim} * groups_per_row, -0.1f, 0.0f),
               in_f32(3, "x", in_dim, -1, 1),
               output(4, "out", size_t{out_dim} * 4),
               u32(5, "out_dim", out_dim),
               u32(6, "in_dim", in_dim),
               u32(7, "group_size", group)};
  return c;
}

BenchCase bf16_matvec() {
  const uint32_t in_dim = 7168, out_dim = 4096;  // DeepSeek-V3 hidden
  BenchCase c;
  c.kernel = "bf16_matvec";
  c.description = "out_dim=4096, in_dim=7168 (56 MiB of bf16 weights)";
  c.dispatch = groups(out_dim, 1, 256);
  c.buffers = {in_bf16(0, "w", size_t{out_dim} * in_dim, -0.05f, 0.05f), in_f32(1, "input", in_dim, -1, 1),
               output(2, "output", size_t{out_dim} * 4), u32(3, "in_dim", in_dim), u32(4, "out_dim", out_dim)};
  return c;
}

constexpr uint32_t kElementwise = 4u << 20;  // 4M floats = 16 MiB per vector

BenchCase swiglu_fused() {
  const uint32_t dim = kElementwise;
  BenchCase c;
  c.kernel = "swiglu_fused";
  c.description = "dim=4M (4096 tokens x 1024 intermediate, flattened)";
  c.dispatch = groups(ceil_div(dim, 256), 1, 256);
  c.buffers = {in_f32(0, "gate", dim, -4, 4), in_f32(1, "up", dim, -1, 1), output(2, "out", size_t{dim} * 4),
               u32(3, "dim", dim)};
  return c;
}

BenchCase rms_norm_apply() {
  const uint32_t dim = kElementwise;
  BenchCase c;
  c.kernel = "rms_norm_apply";
  c.description = "dim=4M";
  c.dispatch = groups(ceil_div(dim, 256), 1, 256);
  c.buffers = {in_f32(0, "x", dim, -1, 1),
               in_f32(1, "weight", dim, 0.5f, 1.5f),
               f32_values(2, "sum_sq", {float(dim) / 3.0f}),
               output(3, "out", size_t{dim} * 4),
               u32(4, "dim", dim),
               f32(5, "eps", 1e-6f)};
  return c;
}

BenchCase residual_add() {
  const uint32_t dim = kElementwise;
  BenchCase c;
  c.kernel = "residual_add";
  c.description = "dim=4M";
  c.dispatch = groups(ceil_div(dim, 256), 1, 256);
  c.buffers = {in_f32(0, "a", dim, -1, 1), in_f32(1, "b", dim, -1, 1), output(2, "out", size_t{dim} * 4),
               u32(3, "dim", dim)};
  return c;
}

// Linear attention, one decode step: each of 64 value heads' 128x128 float
// state is decayed, read against k, updated by the delta rule and read
// against q (state read and written in place; q/k/v are one token's
// conv_out). Decay in [0.9, 1) and gates in (0, 1) keep the state bounded
// over the repeated launches.
BenchCase gated_delta_net_step() {
  const uint32_t heads = 64, k_heads_per_v = 4, key_total = (heads / k_heads_per_v) * 128;
  const uint32_t conv_per_token = 2 * key_total + heads * 128;
  BenchCase c;
  c.kernel = "gated_delta_net_step";
  c.description = "decode: 64 value heads x 128x128 state (4 MiB, read and written), 1 token";
  c.dispatch = groups(heads, 1, 128);
  c.buffers = {inout_f32(0, "state", size_t{heads} * 128 * 128, -0.1f, 0.1f),
               in_f32(1, "conv_out", conv_per_token, -0.2f, 0.2f),
               in_f32(2, "g_decay", heads, 0.9f, 0.999f),
               in_f32(3, "beta_gate", heads, 0.05f, 0.95f),
               output(4, "output", size_t{heads} * 128 * 4),
               u32(5, "k_heads_per_v", k_heads_per_v),
               u32(6, "n_tokens", 1),
               u32(7, "key_total", key_total),
               u32(8, "num_v_heads", heads)};
  return c;
}

BenchCase moe_combine_residual() {
  const uint32_t dim = 2u << 20, K = 8;  // 2M floats (1024 tokens of hidden 2048, flattened)
  BenchCase c;
  c.kernel = "moe_combine_residual";
  c.description = "dim=2M, K=8 of 16 expert buffers (unused ones bound, 64 bytes, not read)";
  c.dispatch = groups(ceil_div(dim, 256), 1, 256);
  c.buffers = {in_f32(0, "h_mid", dim, -1, 1), in_f32(1, "shared_out", dim, -1, 1),
               output(2, "hidden_out", size_t{dim} * 4)};
  for (uint32_t k = 0; k < 16; ++k) {
    std::string name = "expert_out" + std::to_string(k);
    if (k < K) {
      c.buffers.push_back(in_f32(3 + k, name, dim, -1, 1));
    } else {
      BenchBuffer b = input(3 + k, name, 64, Fill::Zero);
      b.bytes_read = 0;
      c.buffers.push_back(b);
    }
  }
  // params[0..15]: expert weights (K used), [16]: shared gate score, [17]: pad.
  std::vector<float> params(18, 0.0f);
  for (uint32_t k = 0; k < K; ++k) params[k] = 0.125f;
  params[16] = 0.3f;
  BenchBuffer p = f32_values(19, "params", params);
  p.bytes_read = (K + 1) * 4;
  c.buffers.push_back(p);
  c.buffers.push_back(u32(20, "dim", dim));
  c.buffers.push_back(u32(21, "K", K));
  return c;
}

const std::map<std::string, std::function<BenchCase()>>& table() {
  static const std::map<std::string, std::function<BenchCase()>> t = {
      {"silu_mul_stacked_f32", silu_mul_stacked_f32},
      {"weighted_sum_stacked_f32", [] { return weighted_sum_stacked("weighted_sum_stacked_f32", false); }},
      {"weighted_sum_residual_stacked_f32",
       [] { return weighted_sum_stacked("weighted_sum_residual_stacked_f32", true); }},
      {"fused_norm_add_f32", fused_norm_add_f32},
      {"fused_residual_norm_f32", fused_residual_norm_f32},
      {"fused_moe_wsum_norm_add_f32", fused_moe_wsum_norm_add_f32},
      {"moe_gate", moe_gate},
      {"dequant_matvec_4bit_v3", [] { return dequant_matvec("dequant_matvec_4bit_v3", 4); }},
      {"dequant_matvec_8bit_v3", [] { return dequant_matvec("dequant_matvec_8bit_v3", 8); }},
      // The corpus's other row-per-SIMD-group mat-vecs (same bindings and
      // dispatch as v3): v4 loads a uint4 (four weight words) per lane, v5
      // dequantises through a per-lane 16-entry table, 2-bit packs 16 weights
      // per word.
      {"dequant_matvec_4bit_v4", [] { return dequant_matvec("dequant_matvec_4bit_v4", 4); }},
      {"dequant_matvec_4bit_v5", [] { return dequant_matvec("dequant_matvec_4bit_v5", 4); }},
      {"dequant_matvec_2bit", [] { return dequant_matvec("dequant_matvec_2bit", 2); }},
      {"bf16_matvec", bf16_matvec},
      {"swiglu_fused", swiglu_fused},
      {"rms_norm_apply", rms_norm_apply},
      {"residual_add", residual_add},
      {"gated_delta_net_step", gated_delta_net_step},
      {"moe_combine_residual", moe_combine_residual},
  };
  return t;
}

// ---- filling ----

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint64_t hash_name(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

}  // namespace

std::vector<std::string> bench_kernels() {
  std::vector<std::string> out;
  for (const auto& [name, fn] : table()) out.push_back(name);
  return out;
}

std::optional<BenchCase> bench_case(const std::string& kernel) {
  auto it = table().find(kernel);
  if (it == table().end()) return std::nullopt;
  return it->second();
}

namespace {

// Bytes [begin, end) of `b`'s random contents; `begin` is a multiple of
// kFillChunk. Each chunk draws from a stream seeded by (seed, chunk), so the
// contents do not depend on how many threads fill them.
constexpr size_t kFillChunk = size_t(4) << 20;

void fill_random_chunk(const BenchBuffer& b, uint64_t seed, uint8_t* dst, size_t begin, size_t end) {
  uint64_t s = seed ^ (0xD1B54A32D192ED03ull * (begin / kFillChunk + 1));
  if (b.fill == Fill::RandomBits) {
    size_t i = begin;
    for (; i + 8 <= end; i += 8) {
      uint64_t r = splitmix(s);
      std::memcpy(dst + i, &r, 8);
    }
    if (i < end) {
      uint64_t r = splitmix(s);
      std::memcpy(dst + i, &r, end - i);
    }
    return;
  }
  const bool bf16 = b.fill == Fill::Bf16Uniform;
  const size_t elem = bf16 ? 2 : 4;
  const float scale = (b.hi - b.lo) / 16777216.0f;
  uint64_t r = 0;
  // kFillChunk is a multiple of 2 * elem: element pairs never straddle chunks.
  for (size_t i = begin / elem, n = end / elem; i < n; ++i) {
    if ((i & 1) == 0) r = splitmix(s);
    uint32_t bits24 = static_cast<uint32_t>((i & 1) ? (r >> 40) : (r & 0xFFFFFF));
    float v = b.lo + scale * float(bits24);
    uint32_t u;
    std::memcpy(&u, &v, 4);
    if (bf16) {
      uint16_t h = static_cast<uint16_t>((u + 0x7FFF + ((u >> 16) & 1)) >> 16);  // round to nearest even
      std::memcpy(dst + i * 2, &h, 2);
    } else {
      std::memcpy(dst + i * 4, &u, 4);
    }
  }
  std::memset(dst + std::max(begin, end / elem * elem), 0, end - std::max(begin, end / elem * elem));
}

}  // namespace

void fill_buffer(const BenchBuffer& b, uint64_t seed, uint8_t* dst) {
  switch (b.fill) {
    case Fill::Zero: std::memset(dst, 0, b.bytes); return;
    case Fill::Bytes:
      std::memset(dst, 0, b.bytes);
      std::memcpy(dst, b.contents.data(), std::min(b.bytes, b.contents.size()));
      return;
    case Fill::RandomBits:
    case Fill::Uniform:
    case Fill::Bf16Uniform: break;
  }
  // Hundreds of MiB per input set, several sets per kernel and process in
  // every round: one thread filled them at ~1 GB/s, longer than timing the
  // kernels. The machine's threads fill the chunks side by side.
  const size_t chunks = (b.bytes + kFillChunk - 1) / kFillChunk;
  const size_t threads = std::min<size_t>(chunks, std::max(1u, std::thread::hardware_concurrency()));
  auto work = [&](size_t first) {
    for (size_t c = first; c < chunks; c += threads)
      fill_random_chunk(b, seed, dst, c * kFillChunk, std::min(b.bytes, (c + 1) * kFillChunk));
  };
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(work, t);
  work(0);
  for (auto& t : pool) t.join();
}

InputSet::InputSet(const BenchCase& c, size_t set_index) {
  try {
    for (size_t i = 0; i < c.buffers.size(); ++i) {
      const BenchBuffer& b = c.buffers[i];
      size_t bytes = (std::max<size_t>(b.bytes, 1) + 4095) / 4096 * 4096;
      void* p = nullptr;
      if (posix_memalign(&p, 4096, bytes) != 0) throw std::bad_alloc();
      ptrs_.push_back(static_cast<uint8_t*>(p));
      uint64_t seed = hash_name(c.kernel) ^ (0x9E3779B97F4A7C15ull * (set_index + 1)) ^ (uint64_t(b.index) << 48);
      fill_buffer(b, seed, ptrs_.back());
    }
  } catch (...) {
    for (uint8_t* p : ptrs_) std::free(p);
    throw;
  }
}

InputSet::~InputSet() {
  for (uint8_t* p : ptrs_) std::free(p);
}

size_t input_sets_for(uint64_t set_bytes, uint64_t cache_bytes) {
  if (set_bytes == 0) return 2;
  uint64_t n = (4 * cache_bytes + set_bytes - 1) / set_bytes;
  return static_cast<size_t>(std::clamp<uint64_t>(n, 2, 256));
}

}  // namespace mslport::bench
