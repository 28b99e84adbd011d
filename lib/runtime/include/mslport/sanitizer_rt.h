// Shadow memory for `mslport check --sanitize`: C++ emitted with
// EmitOptions::sanitize routes every access to threadgroup memory and device
// buffers through Checker::ref (simdgroup_load/store through tile_load /
// tile_store), which checks it and returns the element. Sanitized kernels run
// their threadgroups one at a time (one Checker sees the whole dispatch).
//
// The ordering model (docs/architecture.md, "The sanitizer"):
//  * epoch: the barrier interval. begin() and every threadgroup_barrier
//    start a new one. Threadgroup-memory accesses in different epochs are
//    ordered.
//  * seq: bumped by barriers, simdgroup_barrier and every SIMD-group
//    collective; phase (per work-item): simdgroup_matrix operations passed.
//    Within one epoch, two accesses of lanes of one SIMD group (wi / 32) are
//    ordered when a collective, simdgroup_barrier or simdgroup_matrix
//    operation lies between them; lanes of different SIMD groups are never
//    ordered within an epoch. The lock-step barriers the backend inserts are
//    not Metal ordering points and do not bump anything.
//  * simdgroup_load / simdgroup_store: the tile's accesses belong to the SIMD
//    group as a whole (kSimdAgent), ordered with its own lanes, unordered
//    with other SIMD groups in the same epoch.
//  * device buffers (only those the kernel can write): device epochs start
//    with each threadgroup and at threadgroup_barrier(mem_flags::mem_device).
//    Accesses of different threadgroups are never ordered; within one
//    threadgroup a device epoch change orders them (and the SIMD-group rule
//    above).
//  * atomics: the atomic functions' accesses are synchronised with each
//    other, whichever threads and threadgroups make them; an atomic access
//    and a plain one to the same byte are ordered only as two plain ones
//    would be (a plain access racing with an atomic one is a race).
//  * race: two different work-items touch the same byte unordered, at least
//    one writing. Threadgroup cells keep the last writer, the first reader,
//    the latest other reader of its SIMD group and the latest reader of
//    another SIMD group; device cells the last writer, the first reader and
//    the latest other reader.
//  * bounds: the access lies outside its allocation (static array, dynamic
//    threadgroup memory of the case's size, device buffer of the case's
//    size). The access then goes to a scratch element instead.
//  * init: a threadgroup byte read that no work-item of this threadgroup wrote.
//  * divergence: a threadgroup_barrier that some threads returned before
//    while others wait at it; threads disagreeing on a condition that guards
//    a barrier or SIMD-group function (the emitted code also fails the case);
//    a simdgroup_matrix operation some lanes of a SIMD group skip; a
//    simd_shuffle* / simd_broadcast reading an inactive lane.
// Accesses made once at threadgroup level (wi == kTgLevel) are checked for
// bounds and init only. Findings are kept per source-line pair and handed to
// the runner as text by mslport_san_report (emitted with the module).
#ifndef MSLPORT_SANITIZER_RT_H
#define MSLPORT_SANITIZER_RT_H

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "mslport/openmp_rt.h"

namespace mslport {
namespace san {

enum : unsigned { kRace = 1, kBounds = 2, kInit = 4, kDivergence = 8 };
constexpr uint32_t kTgLevel = 0xffffffffu;
// Region ids below zero: find the allocation a pointer points into.
constexpr int kFindDevice = -1, kFindThreadgroup = -2;
enum class Use { Read, Write, ReadWrite, AtomicRead, AtomicWrite, AtomicReadWrite };
inline bool is_atomic(Use u) { return u == Use::AtomicRead || u == Use::AtomicWrite || u == Use::AtomicReadWrite; }
inline bool reads(Use u) { return u != Use::Write && u != Use::AtomicWrite; }
inline bool writes(Use u) { return u != Use::Read && u != Use::AtomicRead; }

struct Site {
  const char* file;
  int line, col;
};

// ------------------------------------------------------------- findings --
struct Finding {
  std::string kind, message, note;
  const Site* at;
  const Site* other;   // may be null
  uint64_t group = 0;  // linear threadgroup: the lowest one's finding is kept
};

inline std::mutex& findings_mutex() {
  static std::mutex m;
  return m;
}
inline std::map<std::string, Finding>& findings() {
  static std::map<std::string, Finding> f;
  return f;
}
inline void report(Finding f) {
  // One finding per kind and pair of source lines.
  auto key_of = [](const Site* s) { return s ? std::string(s->file) + ":" + std::to_string(s->line) : std::string(); };
  std::string a = key_of(f.at), b = key_of(f.other);
  if (b < a) std::swap(a, b);
  std::lock_guard<std::mutex> lock(findings_mutex());
  auto it = findings().find(f.kind + "|" + a + "|" + b);
  if (it == findings().end()) findings().emplace(f.kind + "|" + a + "|" + b, std::move(f));
  else if (f.group < it->second.group) it->second = std::move(f);
}
// One finding a line: kind, file, line, col, message, note file, line, col,
// note (tab-separated). Clears the findings.
inline size_t serialize_findings(char* buf, size_t len) {
  std::lock_guard<std::mutex> lock(findings_mutex());
  std::string out;
  for (auto& kv : findings()) {
    const Finding& f = kv.second;
    out += f.kind + "\t" + f.at->file + "\t" + std::to_string(f.at->line) + "\t" + std::to_string(f.at->col) + "\t" +
           f.message + "\t";
    if (f.other)
      out += std::string(f.other->file) + "\t" + std::to_string(f.other->line) + "\t" + std::to_string(f.other->col);
    else out += "\t0\t0";
    out += "\t" + f.note + "\n";
  }
  findings().clear();
  if (len == 0) return out.size();
  size_t n = std::min(out.size(), len - 1);
  std::memcpy(buf, out.data(), n);
  buf[n] = 0;
  return out.size();
}

// The generic entry's arguments: device buffer sizes for the bounds check.
inline const mslport_args*& current_args() {
  static const mslport_args* a = nullptr;
  return a;
}
inline uint64_t buffer_bytes(int index) {
  const mslport_args* a = current_args();
  return a && index >= 0 && index < MSLPORT_MAX_BINDINGS && a->buffers[index] ? a->buffer_bytes[index] : 0;
}

// ---------------------------------------------------------------- shadow --
// Who made an access: a work-item (wi < kMaxThreads), a SIMD group as a whole
// (kSimdAgent | its first work-item: simdgroup_load / simdgroup_store), or the
// threadgroup at threadgroup level (kTgLevel).
constexpr uint32_t kSimdAgent = 0x40000000u;
inline bool is_agent(uint32_t wi) { return wi != kTgLevel && (wi & kSimdAgent); }
inline uint32_t simd_of(uint32_t wi) { return (wi & ~kSimdAgent) / kSimdWidth; }

struct Access {
  uint32_t wi = 0, epoch = 0, seq = 0, phase = 0;
  const Site* site = nullptr;
  bool atomic = false;  // made by an atomic function
};
struct Cell {
  Access w, r1, r2, rx;  // last writer; first reader, same-SIMD-group and other-group readers
};

struct Region {
  const char* name = nullptr;
  bool threadgroup = false;
  bool tracked = false;  // device buffer the kernel may write: race-checked
  uintptr_t base = 0;
  uint64_t bytes = 0;  // device buffers: 0 = unknown (no bounds check)
  uint32_t elem = 1;   // element size, for 'name[i]' in messages
  std::vector<Cell> shadow;
};

// A new dispatch (the typed entry of a sanitized kernel calls it): device
// shadows start empty.
inline uint64_t& dispatch_generation() {
  static uint64_t g = 0;
  return g;
}
inline void dispatch_begin() { ++dispatch_generation(); }

class Checker {
 public:
  void begin(const Geometry& g, unsigned checks, int nregions) {
    geo_ = &g;
    checks_ = checks;
    pending_.clear();
    start_ = ++epoch_;
    ++seq_;
    if ((int)regions_.size() < nregions) regions_.resize(nregions);
    for (auto& r : regions_) r.base = 0;
    if (dispatch_ != dispatch_generation()) {  // first threadgroup of a dispatch
      dispatch_ = dispatch_generation();
      for (auto& r : regions_)
        if (!r.threadgroup) r.shadow.clear();
      dev_groups_.clear();
      dev_base_ = dev_epoch_ + 1;
    }
    new_device_epoch();
    const uint32_t n = g.nthreads;
    std::fill(phase_, phase_ + n, 0u);
    std::fill(tile_site_, tile_site_ + n, nullptr);
    std::fill(returned_, returned_ + n, nullptr);
  }
  void region(int id, const char* name, bool threadgroup, const void* base, uint64_t bytes, uint32_t elem,
              bool tracked = false) {
    Region& r = regions_[id];
    r.name = name;
    r.threadgroup = threadgroup;
    r.tracked = !threadgroup && tracked && (checks_ & kRace) && bytes;
    r.base = reinterpret_cast<uintptr_t>(base);
    r.bytes = bytes;
    r.elem = elem;
    // Stale cells carry older epochs: no clearing needed.
    if ((threadgroup || r.tracked) && r.shadow.size() < bytes) r.shadow.resize(bytes);
  }
  // threadgroup_barrier at `s`; `device`: its mem_flags include mem_device.
  void barrier(const Site& s, bool device) {
    check_simd_phases();
    if (checks_ & kDivergence) {
      // Some threads returned and others reach it (all returned: nobody waits).
      uint32_t gone = geo_->nthreads, left = 0;
      for (uint32_t wi = 0; wi < geo_->nthreads; ++wi) {
        if (returned_[wi] && gone == geo_->nthreads) gone = wi;
        left += !returned_[wi];
      }
      if (gone < geo_->nthreads && left)
        report({"divergence",
                "threadgroup_barrier not reached by every thread of the threadgroup: thread " + thread(gone) +
                    " returned at line " + std::to_string(returned_[gone]->line) + ", " + std::to_string(left) +
                    " threads wait here",
                "thread " + thread(gone) + " returned here", &s, returned_[gone]});
    }
    flush_init();
    ++epoch_, ++seq_;
    if (device) new_device_epoch();
  }
  // The end of the threadgroup (Scope's destructor).
  void end() {
    check_simd_phases();
    flush_init();
  }
  // A SIMD-group function or simdgroup_barrier: orders the lanes of each SIMD group.
  void simd_sync() {
    check_simd_phases();
    ++seq_;
  }
  // A work-item returned at `s` (kernels that synchronise).
  void returned(const Site& s, uint32_t wi) {
    if (wi < kMaxThreads && !returned_[wi]) returned_[wi] = &s;
  }
  // Threads `a` and `b` disagree on the condition at `s` of a barrier or
  // SIMD-group function (`sync`, may be null).
  void divergent(const Site& s, const Site* sync, uint32_t a, bool va, uint32_t b) {
    if (!(checks_ & kDivergence)) return;
    report({"divergence",
            std::string("threads disagree on a condition that guards a barrier or SIMD-group function: thread ") +
                thread(a) + " evaluates it " + (va ? "true" : "false") + ", thread " + thread(b) + " " +
                (va ? "false" : "true") +
                (sync ? ", so not every thread reaches line " + std::to_string(sync->line) : ""),
            sync ? "the barrier or SIMD-group function" : "", &s, sync});
  }
  // simd_shuffle* / simd_broadcast at `s`: a lane that reads an inactive lane
  // gets an undefined value in Metal.
  void shuffle(const Site& s, Shuffle kind, const uint32_t* arg, const bool* act, uint32_t n) {
    if (!(checks_ & kDivergence) || !arg) return;
    for (uint32_t l = 0; l < n; ++l) {
      if (!act[l]) continue;
      const int64_t base = l - l % kSimdWidth, end = std::min<int64_t>(n, base + kSimdWidth), lane = l - base;
      int64_t src = lane;
      switch (kind) {
        case Shuffle::Index:
        case Shuffle::Broadcast: src = arg[l]; break;
        case Shuffle::Down: src = lane + arg[l]; break;
        case Shuffle::Up: src = lane - int64_t(arg[l]); break;
        case Shuffle::Xor: src = lane ^ arg[l]; break;
        case Shuffle::BroadcastFirst: break;
      }
      if (src >= 0 && base + src < end && !act[base + src]) {
        report({"divergence",
                "SIMD-group function reads an inactive lane: thread " + thread(l) + " reads lane " +
                    std::to_string(src) + " (thread " + thread(uint32_t(base + src)) + "), which does not take part",
                "", &s, nullptr});
        return;
      }
    }
  }

  template <class T>
  T& ref(const Site& s, Use use, int id, T* p, uint32_t wi) {
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    Region* r = id >= 0 ? &regions_[id] : find(a, id == kFindThreadgroup);
    if (!r || !r->base) return *p;
    const int64_t off = int64_t(a - r->base);
    // A device buffer of unknown size (0) is not bounded; threadgroup
    // memory always has its size, and 0 bytes is a size (every access out).
    if ((r->bytes || r->threadgroup) && (off < 0 || uint64_t(off) + sizeof(T) > r->bytes)) {
      if (checks_ & kBounds) out_of_bounds(s, use, *r, off, wi);
      return scratch<T>();
    }
    if (r->threadgroup && (checks_ & (kRace | kInit))) shadow(s, use, *r, uint64_t(off), sizeof(T), wi);
    else if (r->tracked) device_shadow(s, use, *r, uint64_t(off), sizeof(T), wi);
    return *p;
  }

  // simdgroup_load / simdgroup_store by the SIMD group of work-item `wi`:
  // the 64 element accesses are the SIMD group's as a whole (see agent()).
  template <class T, int N, class S>
  void tile_load(const Site& s, int id, simdgroup_matrix<T, N>& d, const S* src, uint64_t stride,
                 vec<uint64_t, 2> origin, bool transpose, uint32_t wi) {
    const uint32_t who = agent(wi);
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) {
        uint64_t r = origin.y + (transpose ? j : i), c = origin.x + (transpose ? i : j);
        d.at(i, j) = T(ref(s, Use::Read, id, const_cast<S*>(src) + (r * stride + c), who));
      }
    passed_tile(s, wi);
  }
  template <class T, int N, class S>
  void tile_store(const Site& s, int id, const simdgroup_matrix<T, N>& a, S* dst, uint64_t stride,
                  vec<uint64_t, 2> origin, bool transpose, uint32_t wi) {
    const uint32_t who = agent(wi);
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) {
        uint64_t r = origin.y + (transpose ? j : i), c = origin.x + (transpose ? i : j);
        ref(s, Use::Write, id, dst + (r * stride + c), who) = S(a.at(i, j));
      }
    passed_tile(s, wi);
  }
  // A simdgroup_matrix operation without memory (multiply, fill) by `wi`.
  void tile_op(const Site& s, uint32_t wi) { passed_tile(s, wi); }

 private:
  // simdgroup_load/store are cooperative: every lane of the SIMD group
  // executes them together, each moving part of the tile. Which lane moves
  // which element is not specified, so the tile's accesses are attributed to
  // the SIMD group as a whole. The operation orders them with the accesses
  // of the group's own lanes (every lane is there when it happens), like a
  // SIMD-group function; lanes of other SIMD groups are unordered with it.
  static uint32_t agent(uint32_t wi) { return wi == kTgLevel ? kTgLevel : kSimdAgent | (wi - wi % kSimdWidth); }
  void passed_tile(const Site& s, uint32_t wi) {
    if (wi >= kMaxThreads) return;
    ++phase_[wi];
    tile_site_[wi] = &s;
  }
  // Every lane of a SIMD group must take part in each simdgroup_matrix
  // operation: at each synchronisation point, the lanes of a group must
  // have passed as many.
  void check_simd_phases() {
    if (!(checks_ & kDivergence)) return;
    const uint32_t n = geo_->nthreads;
    for (uint32_t base = 0; base < n; base += kSimdWidth) {
      const uint32_t end = std::min(n, base + kSimdWidth);
      uint32_t hi = base, lo = base;
      for (uint32_t l = base; l < end; ++l) {
        if (phase_[l] > phase_[hi]) hi = l;
        if (phase_[l] < phase_[lo]) lo = l;
      }
      if (phase_[hi] == phase_[lo]) continue;
      const Site* at = tile_site_[hi];
      report({"divergence",
              "simdgroup_matrix operation not reached by every lane of SIMD group " +
                  std::to_string(base / kSimdWidth) + ": thread " + thread(hi) + " executed " +
                  std::to_string(phase_[hi]) + ", thread " + thread(lo) + " " + std::to_string(phase_[lo]) +
                  (returned_[lo] ? " (it returned at line " + std::to_string(returned_[lo]->line) + ")" : ""),
              returned_[lo] ? "thread " + thread(lo) + " returned here" : "", at, returned_[lo]});
      // Report each mismatch once per group: line the lanes up.
      for (uint32_t l = base; l < end; ++l) phase_[l] = phase_[hi];
    }
  }

  Region* find(uintptr_t a, bool threadgroup) {
    Region* best = nullptr;  // the allocation starting closest below a
    for (auto& r : regions_)
      if (r.base && r.threadgroup == threadgroup && r.base <= a && (!best || r.base > best->base)) best = &r;
    return best;
  }
  template <class T>
  static T& scratch() {
    alignas(64) static thread_local unsigned char mem[sizeof(T) < 64 ? 64 : sizeof(T)];
    std::memset(mem, 0, sizeof mem);
    return *reinterpret_cast<T*>(mem);
  }
  uint64_t group() const {
    return geo_->tg_pos.x + uint64_t(geo_->ngroups.x) * (geo_->tg_pos.y + uint64_t(geo_->ngroups.y) * geo_->tg_pos.z);
  }
  void report(Finding f) {
    f.group = group();
    san::report(std::move(f));
  }
  // A read of a byte not yet written is reported at the end of its barrier
  // interval, unless another thread wrote the byte later in the interval:
  // that is the race (already reported), not a missing initialisation.
  struct PendingInit {
    const Site* site;
    Region* r;
    uint64_t off, byte;
    uint32_t wi;
  };
  void flush_init() {
    for (auto& p : pending_)
      if (p.r->shadow[p.byte].w.epoch != epoch_ || p.r->shadow[p.byte].w.wi == p.wi)
        report({"init",
                "read of uninitialized threadgroup memory " + element(*p.r, int64_t(p.off)) + " by thread " +
                    thread(p.wi) + ": no thread of this threadgroup wrote it",
                "", p.site, nullptr});
    pending_.clear();
  }
  // "(tg x,y,z / tid t / simd s lane l)" for a work-item of threadgroup
  // `grp` (linear; default: the current one).
  std::string thread(uint32_t wi, uint64_t grp = ~uint64_t(0)) const {
    if (grp == ~uint64_t(0)) grp = group();
    const uint32_t gx = uint32_t(grp % geo_->ngroups.x), gy = uint32_t(grp / geo_->ngroups.x % geo_->ngroups.y),
                   gz = uint32_t(grp / geo_->ngroups.x / geo_->ngroups.y);
    char b[160];
    if (wi == kTgLevel) std::snprintf(b, sizeof b, "(tg %u,%u,%u / all threads)", gx, gy, gz);
    else if (is_agent(wi)) std::snprintf(b, sizeof b, "(tg %u,%u,%u / simd %u, all lanes)", gx, gy, gz, simd_of(wi));
    else
      std::snprintf(b, sizeof b, "(tg %u,%u,%u / tid %u / simd %u lane %u)", gx, gy, gz, wi, wi / kSimdWidth,
                    wi % kSimdWidth);
    return b;
  }
  static std::string element(const Region& r, int64_t off) {
    int64_t i = off >= 0 ? off / r.elem : -((-off + r.elem - 1) / r.elem);
    return std::string("'") + r.name + "[" + std::to_string(i) + "]'";
  }
  static const char* space(const Region& r) { return r.threadgroup ? "threadgroup memory" : "device buffer"; }
  static const char* verb(Use u) {
    if (is_atomic(u)) return u == Use::AtomicRead ? "atomic read" : "atomic write";
    return u == Use::Read ? "read" : "write";
  }
  static const char* verb(const Access& a, bool wrote) {
    return a.atomic ? (wrote ? "atomic write" : "atomic read") : (wrote ? "write" : "read");
  }
  static std::string line_of(const Site* s) { return s ? " at line " + std::to_string(s->line) : std::string(); }

  void out_of_bounds(const Site& s, Use use, const Region& r, int64_t off, uint32_t wi) {
    report({"bounds",
            std::string("out-of-bounds ") + verb(use) + " of " + space(r) + " " + element(r, off) + " (" +
                std::to_string(r.bytes / r.elem) + " elements) by thread " + thread(wi),
            "", &s, nullptr});
  }
  void race(const Site& s, Use use, const Region& r, uint64_t off, const Access& other, bool other_wrote, uint32_t wi,
            uint64_t other_group, const char* why) {
    const std::string them = thread(other.wi, other_group);
    report({"race",
            std::string("data race on ") + space(r) + " " + element(r, int64_t(off)) + ": " + verb(use) +
                " by thread " + thread(wi) + " and " + verb(other, other_wrote) + " by thread " + them +
                line_of(other.site) + " " + why,
            std::string("the conflicting ") + verb(other, other_wrote) + " by thread " + them, &s, other.site});
  }
  // Two accesses of one SIMD group in one interval: ordered when a
  // SIMD-group function or simdgroup_barrier (seq) or a simdgroup_matrix
  // operation (phase) lies between them, or one is the group's own tile access.
  bool simd_ordered(const Access& a, uint32_t wi) const {
    if (simd_of(a.wi) != simd_of(wi)) return false;
    if (is_agent(a.wi) || is_agent(wi)) return true;
    return a.seq < seq_ || a.phase != phase_[wi];
  }
  bool conflicts(const Access& a, uint32_t wi, bool atomic) const {
    if (a.epoch != epoch_ || a.wi == wi || a.wi == kTgLevel || (atomic && a.atomic)) return false;
    return !simd_ordered(a, wi);
  }
  Access access(const Site& s, uint32_t wi, uint32_t epoch, bool atomic) const {
    return {wi, epoch, seq_, wi < kMaxThreads ? phase_[wi] : 0u, &s, atomic};
  }

  void shadow(const Site& s, Use use, Region& r, uint64_t off, size_t n, uint32_t wi) {
    const bool atomic = is_atomic(use);
    const Access cur = access(s, wi, epoch_, atomic);
    const bool reads = san::reads(use), writes = san::writes(use);
    bool reported = false;
    for (uint64_t i = off; i < off + n; ++i) {
      Cell& c = r.shadow[i];
      if (reads && !reported && (checks_ & kInit) && c.w.epoch < start_) {
        if (pending_.size() < 64) pending_.push_back({&s, &r, off, i, wi});
        reported = true;
      }
      if (wi == kTgLevel) {  // once for all threads: only initialises
        if (writes) c.w = cur;
        continue;
      }
      if ((checks_ & kRace) && !reported) {
        if (conflicts(c.w, wi, atomic)) {
          race(s, use, r, off, c.w, true, wi, group(), "in one barrier interval");
          reported = true;
        } else if (writes) {
          for (const Access* rd : {&c.r1, &c.r2, &c.rx}) {
            if (!reported && conflicts(*rd, wi, atomic)) {
              race(s, atomic ? Use::AtomicWrite : Use::Write, r, off, *rd, false, wi, group(),
                   "in one barrier interval");
              reported = true;
            }
          }
        }
      }
      if (reads) {
        if (c.r1.epoch != epoch_ || c.r1.wi == wi) c.r1 = cur;
        else if (simd_of(c.r1.wi) == simd_of(wi)) c.r2 = cur;
        else c.rx = cur;
      }
      if (writes) c.w = cur;
    }
  }

  // ---- device buffers: one dispatch, every threadgroup (run one at a time).
  // Device epochs are numbered across the dispatch: a new one starts with
  // each threadgroup and at each threadgroup_barrier(mem_flags::mem_device).
  // Accesses of different threadgroups are never ordered; accesses of one
  // threadgroup are ordered by a device epoch change, or within one SIMD
  // group as for threadgroup memory. The cell keeps the last writer, the
  // first reader and the latest reader by another work-item.
  void new_device_epoch() {
    ++dev_epoch_;
    dev_groups_.push_back(group());
  }
  uint64_t group_of_device_epoch(uint32_t e) const { return dev_groups_[e - dev_base_]; }
  // Why `a` and an access by `wi` now conflict, or null.
  const char* device_conflict(const Access& a, uint32_t wi, bool atomic) const {
    if (a.epoch < dev_base_ || a.wi == kTgLevel || a.epoch == 0) return nullptr;  // not in this dispatch
    if (atomic && a.atomic) return nullptr;
    if (group_of_device_epoch(a.epoch) != group()) return "in different threadgroups of one dispatch";
    if (a.epoch != dev_epoch_ || a.wi == wi || simd_ordered(a, wi)) return nullptr;
    return "with no threadgroup_barrier(mem_flags::mem_device) between them";
  }
  void device_shadow(const Site& s, Use use, Region& r, uint64_t off, size_t n, uint32_t wi) {
    if (wi == kTgLevel) return;
    const bool atomic = is_atomic(use);
    const Access cur = access(s, wi, dev_epoch_, atomic);
    const bool reads = san::reads(use), writes = san::writes(use);
    bool reported = false;
    for (uint64_t i = off; i < off + n; ++i) {
      Cell& c = r.shadow[i];
      if (!reported) {
        if (const char* why = device_conflict(c.w, wi, atomic)) {
          race(s, use, r, off, c.w, true, wi, group_of_device_epoch(c.w.epoch), why);
          reported = true;
        } else if (writes) {
          for (const Access* rd : {&c.r1, &c.rx}) {
            const char* w = device_conflict(*rd, wi, atomic);
            if (!reported && w) {
              race(s, atomic ? Use::AtomicWrite : Use::Write, r, off, *rd, false, wi, group_of_device_epoch(rd->epoch),
                   w);
              reported = true;
            }
          }
        }
      }
      if (reads) {
        const bool same_as_first =
            c.r1.epoch >= dev_base_ && c.r1.epoch != 0 && c.r1.wi == wi && group_of_device_epoch(c.r1.epoch) == group();
        if (c.r1.epoch < dev_base_ || c.r1.epoch == 0 || same_as_first) c.r1 = cur;
        else c.rx = cur;
      }
      if (writes) c.w = cur;
    }
  }

  const Geometry* geo_ = nullptr;
  unsigned checks_ = 0;
  uint32_t epoch_ = 0, start_ = 0, seq_ = 0;
  uint64_t dispatch_ = ~uint64_t(0);
  uint32_t dev_epoch_ = 0, dev_base_ = 1;
  std::vector<uint64_t> dev_groups_;  // threadgroup of each device epoch since dev_base_
  std::vector<Region> regions_;
  std::vector<PendingInit> pending_;
  uint32_t phase_[kMaxThreads] = {};         // simdgroup_matrix operations each work-item passed
  const Site* tile_site_[kMaxThreads] = {};  // the last one
  const Site* returned_[kMaxThreads] = {};   // where it returned (null: still running)
};

// Ends the checker's threadgroup however the threadgroup function returns.
struct Scope {
  Checker& c;
  ~Scope() { c.end(); }
};

// The calling OpenMP thread's checker, started for one threadgroup.
inline Checker& begin(const Geometry& g, unsigned checks, int nregions) {
  static thread_local Checker c;
  c.begin(g, checks, nregions);
  return c;
}

}  // namespace san
}  // namespace mslport

#endif
