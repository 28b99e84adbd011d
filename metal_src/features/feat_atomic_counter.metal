// Many threadgroups contending on one device counter, and the other atomic
// forms, with results that do not depend on the order of the atomics:
//   every thread takes a slot with atomic_fetch_add(counter, 1) and marks it
//   (atomic_fetch_add(taken[slot], 1)): afterwards counter == n and every
//   taken[s] == 1 (no slot handed out twice);
//   exactly one thread of the grid wins atomic_compare_exchange_weak on
//   `claim` (0 -> 1; the others find 1 in expected) and one finds the
//   atomic_bool `seen` false in atomic_exchange(seen, true): wins == {1, 1},
//   claim == 1;
//   every thread adds 0.5 to an atomic_float with a CAS loop of its own
//   (atomic_load, atomic_compare_exchange_weak): half == 0.5 * n, exact;
//   every thread increments `hammered` `reps` times: hammered == n * reps
//   (lost updates if the increments were not atomic).
// Dispatch: threadgroups of 64 threads, n = 64 * threadgroups.
#include <metal_stdlib>
using namespace metal;

kernel void feat_atomic_counter(
    device atomic_uint*  counter [[buffer(0)]],
    device atomic_uint*  taken   [[buffer(1)]],
    device atomic_uint*  claim   [[buffer(2)]],
    device atomic_uint*  wins    [[buffer(3)]],
    device atomic_bool*  seen    [[buffer(4)]],
    device atomic_float* half_n  [[buffer(5)]],
    device atomic_uint*  hammered [[buffer(6)]],
    constant uint&       reps    [[buffer(7)]])
{
    const uint slot = atomic_fetch_add_explicit(counter, 1u, memory_order_relaxed);
    atomic_fetch_add_explicit(&taken[slot], 1u, memory_order_relaxed);

    uint expected = 0u;
    while (!atomic_compare_exchange_weak_explicit(claim, &expected, 1u, memory_order_relaxed,
                                                  memory_order_relaxed) && expected == 0u) {
    }
    if (expected == 0u) {
        atomic_fetch_add_explicit(&wins[0], 1u, memory_order_relaxed);
    }
    if (!atomic_exchange_explicit(seen, true, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&wins[1], 1u, memory_order_relaxed);
    }

    for (uint i = 0; i < reps; ++i) {
        atomic_fetch_add_explicit(hammered, 1u, memory_order_relaxed);
    }

    float old = atomic_load_explicit(half_n, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(half_n, &old, old + 0.5f, memory_order_relaxed,
                                                  memory_order_relaxed)) {
    }
}
