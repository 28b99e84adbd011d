// Shadow memory for `mslport check --sanitize`: C++ emitted with
// EmitOptions::sanitize routes every access to threadgroup memory and device
// buffers through Checker::ref, which checks it and returns the element.
//
// The model (one Checker per OpenMP thread, i.e. per threadgroup being run):
//  * epoch: the barrier interval. begin() and every threadgroup_barrier
//    start a new one. Accesses in different epochs are ordered.
//  * seq: bumped by barriers, simdgroup_barrier and every SIMD-group
//    collective. Within one epoch, two accesses of lanes of the SIMD group
//    (wi / 32) are ordered when a collective or simdgroup_barrier lies between
//    them; lanes of different SIMD groups are never ordered within an epoch.
//    The lock-step barriers the backend inserts are not Metal ordering points
//    and do not bump anything.
//  * race: two different work-items touch the same threadgroup byte in one
//    epoch, unordered, at least one writing. Per byte: the last writer, the
//    first reader, the latest other reader of its SIMD group and the latest
//    reader of another SIMD group.
//  * bounds: the access lies outside its allocation (static array, dynamic
//    threadgroup memory of the case's size, device buffer of the case's
//    size). The access then goes to a scratch element instead.
//  * init: a threadgroup byte read that no work-item of this threadgroup wrote.
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

enum : unsigned { kRace = 1, kBounds = 2, kInit = 4 };
constexpr uint32_t kTgLevel = 0xffffffffu;
// Region ids below zero: find the allocation a pointer points into.
constexpr int kFindDevice = -1, kFindThreadgroup = -2;
enum class Use { Read, Write, ReadWrite };

struct Site {
  const char* file;
  int line, col;
};

// ------------------------------------------------------------- findings --
struct Finding {
  std::string kind, message, note;
  const Site* at;
  const Site* other;  // may be null
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
    else
      out += "\t0\t0";
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
struct Access {
  uint32_t wi = 0, epoch = 0, seq = 0;
  const Site* site = nullptr;
};
struct Cell {
  Access w, r1, r2, rx;  // last writer; first reader, same-SIMD-group and other-group readers
};

struct Region {
  const char* name = nullptr;
  bool threadgroup = false;
  uintptr_t base = 0;
  uint64_t bytes = 0;  // 0 = unknown (no bounds check)
  uint32_t elem = 1;   // element size, for 'name[i]' in messages
  std::vector<Cell> shadow;
};

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
  }
  void region(int id, const char* name, bool threadgroup, const void* base, uint64_t bytes, uint32_t elem) {
    Region& r = regions_[id];
    r.name = name;
    r.threadgroup = threadgroup;
    r.base = reinterpret_cast<uintptr_t>(base);
    r.bytes = bytes;
    r.elem = elem;
    // Stale cells carry older epochs: no clearing needed.
    if (threadgroup && r.shadow.size() < bytes) r.shadow.resize(bytes);
  }
  void barrier() {
    flush_init();
    ++epoch_, ++seq_;
  }
  // The end of the threadgroup (Scope's destructor).
  void end() { flush_init(); }
  void simd_sync() { ++seq_; }

  template <class T>
  T& ref(const Site& s, Use use, int id, T* p, uint32_t wi) {
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    Region* r = id >= 0 ? &regions_[id] : find(a, id == kFindThreadgroup);
    if (!r || !r->base) return *p;
    const int64_t off = int64_t(a - r->base);
    if (r->bytes && (off < 0 || uint64_t(off) + sizeof(T) > r->bytes)) {
      if (checks_ & kBounds) out_of_bounds(s, use, *r, off, wi);
      return scratch<T>();
    }
    if (r->threadgroup && (checks_ & (kRace | kInit))) shadow(s, use, *r, uint64_t(off), sizeof(T), wi);
    return *p;
  }

 private:
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
  std::string thread(uint32_t wi) const {
    char b[128];
    if (wi == kTgLevel)
      std::snprintf(b, sizeof b, "(tg %u,%u,%u / all threads)", geo_->tg_pos.x, geo_->tg_pos.y, geo_->tg_pos.z);
    else
      std::snprintf(b, sizeof b, "(tg %u,%u,%u / tid %u / simd %u lane %u)", geo_->tg_pos.x, geo_->tg_pos.y,
                    geo_->tg_pos.z, wi, wi / kSimdWidth, wi % kSimdWidth);
    return b;
  }
  static std::string element(const Region& r, int64_t off) {
    int64_t i = off >= 0 ? off / r.elem : -((-off + r.elem - 1) / r.elem);
    return std::string("'") + r.name + "[" + std::to_string(i) + "]'";
  }
  static const char* space(const Region& r) { return r.threadgroup ? "threadgroup memory" : "device buffer"; }
  static const char* verb(Use u) { return u == Use::Read ? "read" : "write"; }

  void out_of_bounds(const Site& s, Use use, const Region& r, int64_t off, uint32_t wi) {
    report({"bounds",
            std::string("out-of-bounds ") + verb(use) + " of " + space(r) + " " + element(r, off) + " (" +
                std::to_string(r.bytes / r.elem) + " elements) by thread " + thread(wi),
            "", &s, nullptr});
  }
  void race(const Site& s, Use use, const Region& r, uint64_t off, const Access& other, bool other_wrote,
            uint32_t wi) {
    report({"race",
            std::string("data race on ") + space(r) + " " + element(r, int64_t(off)) + ": " + verb(use) +
                " by thread " + thread(wi) + " and " + (other_wrote ? "write" : "read") + " by thread " +
                thread(other.wi) + " in one barrier interval",
            std::string("the conflicting ") + (other_wrote ? "write" : "read") + " by thread " + thread(other.wi),
            &s, other.site});
  }
  bool conflicts(const Access& a, uint32_t wi) const {
    if (a.epoch != epoch_ || a.wi == wi || a.wi == kTgLevel) return false;
    bool ordered = a.wi / kSimdWidth == wi / kSimdWidth && a.seq < seq_;
    return !ordered;
  }

  void shadow(const Site& s, Use use, Region& r, uint64_t off, size_t n, uint32_t wi) {
    const Access cur{wi, epoch_, seq_, &s};
    const bool reads = use != Use::Write, writes = use != Use::Read;
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
        if (conflicts(c.w, wi)) {
          race(s, use, r, off, c.w, true, wi);
          reported = true;
        } else if (writes) {
          for (const Access* rd : {&c.r1, &c.r2, &c.rx}) {
            if (!reported && conflicts(*rd, wi)) {
              race(s, Use::Write, r, off, *rd, false, wi);
              reported = true;
            }
          }
        }
      }
      if (reads) {
        if (c.r1.epoch != epoch_ || c.r1.wi == wi) c.r1 = cur;
        else if (c.r1.wi / kSimdWidth == wi / kSimdWidth) c.r2 = cur;
        else c.rx = cur;
      }
      if (writes) c.w = cur;
    }
  }

  const Geometry* geo_ = nullptr;
  unsigned checks_ = 0;
  uint32_t epoch_ = 0, start_ = 0, seq_ = 0;
  std::vector<Region> regions_;
  std::vector<PendingInit> pending_;
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
