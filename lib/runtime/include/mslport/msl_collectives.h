// The SIMD-group and quad-group functions openmp_rt.h's simd_* do not
// cover, over groups of `width` consecutive lanes (32: a SIMD group, 4: a
// quad-group; the last group of a threadgroup may be partial). As there,
// the arrays are indexed by the thread's linear index in its threadgroup
// and only lanes with act[] set take part.
#ifndef MSLPORT_MSL_COLLECTIVES_H
#define MSLPORT_MSL_COLLECTIVES_H

#include <algorithm>
#include <cstdint>

namespace mslport {

template <class T>
void group_reduce(uint32_t width, Reduce op, const T* in, const bool* act, uint32_t n, T* out) {
  for (uint32_t base = 0; base < n; base += width) {
    const uint32_t end = std::min(n, base + width);
    T acc = reduce_identity<T>(op);
    bool any = false;
    for (uint32_t l = base; l < end; ++l)
      if (act[l]) {
        acc = any ? reduce_combine(op, acc, in[l]) : in[l];
        any = true;
      }
    for (uint32_t l = base; l < end; ++l) out[l] = acc;
  }
}
// Inclusive / exclusive prefix sum or product over the active lanes, in
// lane order (an exclusive product starts at 1).
template <class T>
void group_prefix(uint32_t width, bool inclusive, bool product, const T* in, const bool* act, uint32_t n, T* out) {
  for (uint32_t base = 0; base < n; base += width) {
    const uint32_t end = std::min(n, base + width);
    T acc = product ? T(1) : T(0);
    for (uint32_t l = base; l < end; ++l) {
      if (!act[l]) continue;
      const T next = product ? T(acc * in[l]) : T(acc + in[l]);
      out[l] = inclusive ? next : acc;
      acc = next;
    }
  }
}
// Reads the lane `arg` names within the group (Index, Broadcast), or the
// lane `arg` below or above, or at lane ^ arg, or the lowest active lane
// (BroadcastFirst); a source outside the group leaves the lane's own value.
template <class T>
void group_shuffle(uint32_t width, Shuffle kind, const T* in, const uint32_t* arg, const bool* act, uint32_t n,
                   T* out) {
  for (uint32_t base = 0; base < n; base += width) {
    const uint32_t end = std::min(n, base + width);
    int64_t first = 0;  // the lowest active lane (BroadcastFirst)
    while (base + first < end && !act[base + first]) ++first;
    for (uint32_t l = base; l < end; ++l) {
      if (!act[l]) continue;
      const int64_t lane = l - base;
      int64_t src = lane;
      switch (kind) {
        case Shuffle::Index:
        case Shuffle::Broadcast: src = arg[l]; break;
        case Shuffle::Down: src = lane + arg[l]; break;
        case Shuffle::Up: src = lane - int64_t(arg[l]); break;
        case Shuffle::Xor: src = lane ^ arg[l]; break;
        case Shuffle::BroadcastFirst: src = first; break;
      }
      out[l] = (src >= 0 && src < int64_t(width) && base + src < end) ? in[base + src] : in[l];
    }
  }
}
// simd_ / quad_shuffle_rotate_down / _up: the lane `arg` above (below),
// modulo the group's lanes; a source past the end of a partial group leaves
// the own value.
template <class T>
void group_rotate(uint32_t width, bool down, const T* in, const uint32_t* arg, const bool* act, uint32_t n, T* out) {
  for (uint32_t base = 0; base < n; base += width) {
    const uint32_t end = std::min(n, base + width);
    for (uint32_t l = base; l < end; ++l) {
      if (!act[l]) continue;
      const uint32_t d = arg[l] % width, lane = l - base;
      const uint32_t src = down ? (lane + d) % width : (lane + width - d) % width;
      out[l] = base + src < end ? in[base + src] : in[l];
    }
  }
}
// simd_ / quad_all and _any: over the active lanes of each group.
inline void group_vote(uint32_t width, bool all, const bool* in, const bool* act, uint32_t n, bool* out) {
  for (uint32_t base = 0; base < n; base += width) {
    const uint32_t end = std::min(n, base + width);
    bool acc = all;
    for (uint32_t l = base; l < end; ++l)
      if (act[l]) acc = all ? (acc && in[l]) : (acc || in[l]);
    for (uint32_t l = base; l < end; ++l) out[l] = acc;
  }
}
// simd_ / quad_ballot and _active_threads_mask (a ballot of true): bit j
// for lane j of the group where it is active and its value is true.
template <class B>
void group_ballot(uint32_t width, const bool* in, const bool* act, uint32_t n, B* out) {
  for (uint32_t base = 0; base < n; base += width) {
    const uint32_t end = std::min(n, base + width);
    B bits = 0;
    for (uint32_t l = base; l < end; ++l)
      if (act[l] && in[l]) bits |= B(1) << (l - base);
    for (uint32_t l = base; l < end; ++l) out[l] = bits;
  }
}
// simd_ / quad_shuffle_and_fill_down / _up (MSL 6.9.2, 6.9.3): the group
// splits into runs of mod[] lanes (its width without a modulo); lane i of a
// run reads data from lane i + delta (i - delta) of its run, and where that
// is past the run's end (before its start), filling from lane i + delta -
// mod (i - delta + mod). A source outside the run (delta beyond the modulo,
// which Metal leaves undefined) or past the end of a partial group leaves
// the lane's own data.
template <class T>
void group_fill(uint32_t width, bool down, const T* in, const T* fill, const uint32_t* delta, const uint32_t* mod,
                const bool* act, uint32_t n, T* out) {
  for (uint32_t base = 0; base < n; base += width) {
    const uint32_t end = std::min(n, base + width);
    for (uint32_t l = base; l < end; ++l) {
      if (!act[l]) continue;
      const uint32_t m = mod[l] == 0 || mod[l] > width ? width : mod[l];
      const uint32_t lane = l - base, run = base + lane - lane % m;
      const int64_t i = lane % m, d = delta[l];
      int64_t j = down ? i + d : i - d;
      const bool filled = down ? j >= int64_t(m) : j < 0;
      if (filled) j += down ? -int64_t(m) : int64_t(m);
      const bool ok = j >= 0 && j < int64_t(m) && run + j < end;
      out[l] = !ok ? in[l] : filled ? fill[run + j] : in[run + j];
    }
  }
}
// simd_ / quad_is_first: true in the lowest active lane of each group.
inline void group_is_first(uint32_t width, const bool* act, uint32_t n, bool* out) {
  for (uint32_t base = 0; base < n; base += width) {
    const uint32_t end = std::min(n, base + width);
    bool seen = false;
    for (uint32_t l = base; l < end; ++l) {
      out[l] = act[l] && !seen;
      seen = seen || act[l];
    }
  }
}

}  // namespace mslport

#endif
