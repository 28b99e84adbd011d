#include "runtime/case_buffers.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "runtime/compare.h"
#include "runtime/golden_case.h"

namespace mslport::runtime {

std::vector<HostBuffer> load_case_buffers(const GoldenCase& c) {
  std::vector<HostBuffer> out;
  out.reserve(c.buffers.size());
  for (const BufferSpec& s : c.buffers) {
    HostBuffer b;
    b.spec = &s;
    std::string err;
    if (s.access != Access::Write) {
      if (!read_npy(s.data_path, &b.initial, &err)) throw std::runtime_error("buffer '" + s.name + "': " + err);
      b.bytes = b.initial.nbytes();
    }
    if (s.access == Access::Write && s.expected_path.empty()) {
      // A case of inputs only: the output's layout as declared, no values.
      b.expected.descr = s.dtype;
      if (!parse_scalar_descr(s.dtype, &b.expected.kind, &b.expected.itemsize, &err))
        throw std::runtime_error("buffer '" + s.name + "': " + err);
      b.expected.shape = s.shape;
      b.bytes = b.expected.count() * b.expected.itemsize;
    } else if (s.access != Access::Read && s.expected_path.empty()) {
      // read_write in a case of inputs only: it starts from data.
    } else if (s.access != Access::Read) {
      if (!read_npy(s.expected_path, &b.expected, &err)) throw std::runtime_error("buffer '" + s.name + "': " + err);
      if (s.access == Access::ReadWrite && b.expected.nbytes() != b.bytes)
        throw std::runtime_error("buffer '" + s.name + "': data has " + std::to_string(b.bytes) +
                                 " bytes, expected has " + std::to_string(b.expected.nbytes()));
      b.bytes = b.expected.nbytes();
    }
    out.push_back(std::move(b));
  }
  return out;
}

void fill_buffer(const HostBuffer& b, uint8_t* dst) {
  if (b.spec->access == Access::Write) {
    std::memset(dst, kPoisonByte, b.bytes);
  } else if (b.bytes) {
    std::memcpy(dst, b.initial.data.data(), b.bytes);
  }
  std::memset(dst + b.bytes, kGuardByte, kGuardBytes);
}

const HostBuffer* find_buffer(const std::vector<HostBuffer>& buffers, int index, int64_t argument_buffer_offset) {
  for (const auto& b : buffers)
    if (b.spec->index == index && b.spec->argument_buffer_offset == argument_buffer_offset) return &b;
  return nullptr;
}

namespace {

// The array a buffer holds after the run, laid out as its expected (or
// initial, or declared) array.
NpyArray output_array(const HostBuffer& b, const uint8_t* got) {
  const NpyArray& layout =
      b.spec->expected_path.empty() && b.spec->access == Access::ReadWrite ? b.initial : b.expected;
  NpyArray a;
  a.descr = layout.descr;
  a.kind = layout.kind;
  a.itemsize = layout.itemsize;
  a.shape = layout.shape;
  a.data.assign(got, got + b.bytes);
  return a;
}

}  // namespace

void check_buffers(const std::vector<HostBuffer>& buffers, const std::vector<const uint8_t*>& contents, CaseResult* r,
                   const std::string& capture_dir) {
  bool pass = true;
  std::string msg;
  auto add = [&](const std::string& m) {
    if (!msg.empty()) msg += "\n";
    msg += m;
  };
  size_t outputs = 0;
  for (size_t i = 0; i < buffers.size(); ++i) {
    const HostBuffer& b = buffers[i];
    const uint8_t* got = contents[i];
    std::string label = "buffer(" + buffer_key(*b.spec) + ") '" + b.spec->name + "'";
    BufferFailure f;
    f.index = b.spec->index;
    f.buffer = b.spec->name;
    size_t bad = 0;
    for (size_t k = 0; k < kGuardBytes; ++k) bad += got[b.bytes + k] != kGuardByte;
    if (bad) {
      pass = false;
      add(label + ": the kernel wrote past the end of the buffer (" + std::to_string(bad) + " of the " +
          std::to_string(kGuardBytes) + " bytes after it changed)");
      BufferFailure g = f;
      g.kind = "out_of_bounds";
      g.count = bad;
      g.elements = kGuardBytes;
      g.compare = "bytes";
      r->failures.push_back(std::move(g));
    }
    if (b.spec->access == Access::Read) {
      if (b.bytes && std::memcmp(got, b.initial.data.data(), b.bytes) != 0) {
        pass = false;
        add(label + ": the kernel modified a buffer the case declares read-only");
        BufferFailure g = f;
        g.kind = "read_only_modified";
        g.compare = "bytes";
        size_t changed = 0;
        for (size_t k = 0; k < b.bytes; ++k) changed += got[k] != b.initial.data[k];
        g.count = changed;
        g.elements = b.bytes;
        r->failures.push_back(std::move(g));
      }
      continue;
    }
    if (!capture_dir.empty()) {
      std::string err;
      std::error_code ec;
      std::filesystem::create_directories(capture_dir, ec);
      if (!write_npy(capture_dir + "/" + buffer_key(*b.spec) + ".npy", output_array(b, got), &err))
        throw std::runtime_error("cannot keep the output of " + label + ": " + err);
    }
    // A case of inputs only: nothing to compare here (check --differential
    // compares the targets' captured outputs).
    if (b.spec->expected_path.empty()) continue;
    ++outputs;
    CompareResult cr =
        compare_output(b.expected, got, b.bytes, b.spec->atol, b.spec->rtol, b.spec->compare_as, b.spec->name);
    r->max_abs_err = std::max(r->max_abs_err, cr.max_abs_err);
    r->max_rel_err = std::max(r->max_rel_err, cr.max_rel_err);
    if (!cr.pass) {
      pass = false;
      add(cr.message);
      r->failures.push_back(buffer_failure(*b.spec, cr));
    }
  }
  if (outputs == 0 && pass && capture_dir.empty()) add("note: the case has no output buffer to compare");
  r->status = pass ? "pass" : "fail";
  r->message = msg;
}

BufferFailure buffer_failure(const BufferSpec& spec, const CompareResult& cr) {
  BufferFailure f;
  f.index = spec.index;
  f.buffer = spec.name;
  f.kind = cr.compare.empty() ? "size" : "mismatch";
  f.count = cr.mismatches;
  f.elements = cr.count;
  f.compare = cr.compare;
  f.atol = spec.atol;
  f.rtol = spec.rtol;
  f.first_index = cr.first_index;
  f.first_got = cr.first_got;
  f.first_expected = cr.first_expected;
  return f;
}

std::vector<ArgumentBufferSlot> store_argument_buffer_pointers(const std::vector<HostBuffer>& buffers,
                                                               const std::function<uint8_t*(size_t)>& memory,
                                                               std::string* error) {
  std::vector<ArgumentBufferSlot> slots;
  for (size_t i = 0; i < buffers.size(); ++i) {
    const BufferSpec& s = *buffers[i].spec;
    if (s.argument_buffer_offset < 0) continue;
    size_t holder = buffers.size();
    for (size_t j = 0; j < buffers.size(); ++j)
      if (buffers[j].spec->index == s.index && buffers[j].spec->argument_buffer_offset < 0) holder = j;
    const uint64_t end = uint64_t(s.argument_buffer_offset) + sizeof(void*);
    if (holder == buffers.size() || buffers[holder].bytes < end) {
      *error = "buffer(" + buffer_key(s) + ") '" + s.name + "': its address goes " +
               std::to_string(s.argument_buffer_offset) + " bytes into argument buffer(" + std::to_string(s.index) +
               "), which " +
               (holder == buffers.size() ? std::string("the case does not give")
                                         : "holds " + std::to_string(buffers[holder].bytes) + " bytes");
      restore_argument_buffer_slots(slots);
      return {};
    }
    ArgumentBufferSlot slot;
    slot.at = memory(holder) + s.argument_buffer_offset;
    std::memcpy(slot.saved, slot.at, sizeof slot.saved);
    void* address = memory(i);
    std::memcpy(slot.at, &address, sizeof address);
    slots.push_back(slot);
  }
  return slots;
}

void restore_argument_buffer_slots(const std::vector<ArgumentBufferSlot>& slots) {
  for (const ArgumentBufferSlot& s : slots) std::memcpy(s.at, s.saved, sizeof s.saved);
}

CaseResult make_result(const GoldenCase& c, const std::string& target) {
  CaseResult r;
  r.kernel = c.kernel;
  r.case_name = c.name;
  r.target = target;
  return r;
}

CaseResult error_result(const GoldenCase& c, const std::string& target, const std::string& message) {
  CaseResult r = make_result(c, target);
  r.status = "error";
  r.message = message;
  return r;
}

}  // namespace mslport::runtime
