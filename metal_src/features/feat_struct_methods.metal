// A struct with behaviour, as library code writes it: default member
// initializers, a constructor with a member-initializer list, const and
// non-const member functions, a member calling another through `this`, an
// operator, and a static member function.
//
// Dispatch: one thread per row of 4 values (x holds rows * 4 floats).
//   stats over the row: count = 4, total = sum, peak = max (starting at -1000)
//   merged = stats(row) + stats(first half of the row again)   (operator+)
//   out[r] = merged.mean() * scale(2) + merged.peak + merged.count
//          = (total + total_first_half) / 6 * 2 + peak + 6
#include <metal_stdlib>
using namespace metal;

struct RunningStats {
    float total = 0.0f;
    float peak = -1000.0f;
    int count;

    RunningStats(int start) : count(start) {}

    void push(float v) {
        total += v;
        this->peak = max(peak, v);
        count++;
    }
    void push_all(device const float* v, int n) {
        for (int j = 0; j < n; ++j) push(v[j]);
    }
    float mean() const { return total / float(count); }
    RunningStats operator+(const thread RunningStats& other) const {
        RunningStats r(count + other.count);
        r.total = total + other.total;
        r.peak = max(peak, other.peak);
        return r;
    }
    static float scale() { return 2.0f; }
};

kernel void feat_struct_methods(
    device const float* x   [[buffer(0)]],
    device float*       out [[buffer(1)]],
    uint r [[thread_position_in_grid]])
{
    RunningStats row(0);
    row.push_all(x + r * 4, 4);
    RunningStats head = RunningStats(0);
    head.push(x[r * 4]);
    head.push(x[r * 4 + 1]);
    RunningStats merged = row + head;
    out[r] = merged.mean() * RunningStats::scale() + merged.peak + float(merged.count);
}
