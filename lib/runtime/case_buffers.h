// What every executor does around a launch: load a case's arrays, fill the
// device buffers (inputs copied, write-only outputs poisoned with 0xFF),
// and afterwards check them (outputs compared, inputs unchanged, nothing
// written past the end of any buffer).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "runtime/npy.h"
#include "runtime/runner.h"

namespace mslport::runtime {

constexpr uint8_t kPoisonByte = 0xFF;
// Every buffer handed to a kernel is followed by this many guard bytes.
constexpr size_t kGuardBytes = 256;
constexpr uint8_t kGuardByte = 0xA5;

struct HostBuffer {
  const BufferSpec* spec = nullptr;
  NpyArray initial;   // read / read_write
  NpyArray expected;  // write / read_write
  size_t bytes = 0;   // the buffer's size as the kernel sees it
};

// Loads every buffer's arrays; throws std::runtime_error naming the file.
std::vector<HostBuffer> load_case_buffers(const GoldenCase& c);

// Fills dst[0, bytes + kGuardBytes): initial contents or poison, then guard.
void fill_buffer(const HostBuffer& b, uint8_t* dst);

// Checks the buffers after a launch (`contents[i]` is buffers[i]'s memory,
// bytes + kGuardBytes long) and sets status pass/fail, errors, message and
// the structured failures. With `capture_dir` (GoldenCase::capture_dir),
// also writes every output there as INDEX.npy (throws when it cannot).
void check_buffers(const std::vector<HostBuffer>& buffers, const std::vector<const uint8_t*>& contents,
                   CaseResult* result, const std::string& capture_dir = "");

// A failed comparison of one output as a report's structured failure.
struct CompareResult;
BufferFailure buffer_failure(const BufferSpec& spec, const CompareResult& compared);

// The buffer bound at `index`, or the one whose address argument buffer
// `index` holds at `argument_buffer_offset`.
const HostBuffer* find_buffer(const std::vector<HostBuffer>& buffers, int index, int64_t argument_buffer_offset = -1);

// A pointer stored in an argument buffer's memory for a run, and the bytes
// it replaced.
struct ArgumentBufferSlot {
  uint8_t* at = nullptr;
  uint8_t saved[8] = {};
};
// For each buffer an argument buffer points to (BufferSpec::argument_buffer_offset),
// stores its address (`memory(i)` is buffers[i]'s memory) in the argument
// buffer's memory. On a case that cannot run that way (its argument buffer
// too small) sets *error and stores nothing.
std::vector<ArgumentBufferSlot> store_argument_buffer_pointers(const std::vector<HostBuffer>& buffers,
                                                               const std::function<uint8_t*(size_t)>& memory,
                                                               std::string* error);
// Puts back the bytes the pointers replaced.
void restore_argument_buffer_slots(const std::vector<ArgumentBufferSlot>& slots);

CaseResult make_result(const GoldenCase& c, const std::string& target);
CaseResult error_result(const GoldenCase& c, const std::string& target, const std::string& message);

}  // namespace mslport::runtime
