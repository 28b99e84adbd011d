// Bench cases: per kernel, sizes that do not fit in a last-level cache and
// how to fill every buffer, plus the minimum traffic the kernel must move
// (for effective bandwidth). Keyed by kernel name; the buffer layouts and
// dispatches follow each kernel's header in the corpus (the same as its
// golden cases, only bigger).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/runner.h"

namespace mslport::bench {

enum class Fill {
  Zero,         // outputs (write-only): zeros, so the pages are mapped before timing
  Uniform,      // float32 uniform in [lo, hi)
  Bf16Uniform,  // bfloat16 (uint16 bit patterns) of a float uniform in [lo, hi)
  RandomBits,   // random bytes (packed 4/8-bit weights)
  Bytes,        // `contents`, the same in every set (constant structs, scalars)
};

struct BenchBuffer {
  int index = -1;
  std::string name;
  runtime::Access access = runtime::Access::Read;
  size_t bytes = 0;
  Fill fill = Fill::Zero;
  float lo = 0, hi = 0;
  std::vector<uint8_t> contents;  // Fill::Bytes
  // The minimum traffic through this buffer in one launch: each byte the
  // kernel's result depends on read once, each output byte written once.
  uint64_t bytes_read = 0, bytes_written = 0;
};

struct BenchCase {
  std::string kernel;
  std::string case_name;    // the golden case it comes from (bench/golden_cases.h); empty for a compiled-in case
  std::string description;  // sizes, in words
  runtime::DispatchSpec dispatch;
  std::vector<runtime::ThreadgroupMemorySpec> threadgroup_memory;
  std::vector<BenchBuffer> buffers;

  // Sum of bytes_read + bytes_written over the buffers.
  uint64_t min_bytes() const;
  // Bytes allocated for one input set.
  uint64_t set_bytes() const;
  const BenchBuffer* buffer(int index) const;
};

// The kernels that have a bench case, sorted.
std::vector<std::string> bench_kernels();
// The bench case of `kernel`, or nullopt when it has none.
std::optional<BenchCase> bench_case(const std::string& kernel);

// One input set's memory: each buffer page-aligned, filled per its Fill from
// a seed derived from (kernel, set), so sets differ and runs repeat.
class InputSet {
 public:
  InputSet(const BenchCase& c, size_t set_index);
  ~InputSet();
  InputSet(const InputSet&) = delete;
  InputSet& operator=(const InputSet&) = delete;
  size_t size() const { return ptrs_.size(); }
  uint8_t* data(size_t i) const { return ptrs_[i]; }  // i: position in BenchCase::buffers

 private:
  std::vector<uint8_t*> ptrs_;
};

// Fills dst with `b`'s contents (exposed for tests).
void fill_buffer(const BenchBuffer& b, uint64_t seed, uint8_t* dst);

// How many input sets to rotate so that together they exceed `cache_bytes`
// at least four times over: ceil(4 * cache / set_bytes), between 2 and 256
// (twice over, the EPYC VM's L3, not strictly LRU, still served a 4 MiB
// in-place state rotated through 64 MiB 20 % faster than through 128 MiB;
// with at most 32 sets, the H100 host's larger cache kept part of it: 109 %
// of the roof).
size_t input_sets_for(uint64_t set_bytes, uint64_t cache_bytes);

}  // namespace mslport::bench
