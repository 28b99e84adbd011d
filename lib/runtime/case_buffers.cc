#include "runtime/case_buffers.h"

#include <algorithm>
#include <cstring>
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
    if (s.access != Access::Read) {
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

const HostBuffer* find_buffer(const std::vector<HostBuffer>& buffers, int index) {
  for (const auto& b : buffers)
    if (b.spec->index == index) return &b;
  return nullptr;
}

void check_buffers(const std::vector<HostBuffer>& buffers, const std::vector<const uint8_t*>& contents,
                   CaseResult* r) {
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
    std::string label = "buffer(" + std::to_string(b.spec->index) + ") '" + b.spec->name + "'";
    size_t bad = 0;
    for (size_t k = 0; k < kGuardBytes; ++k) bad += got[b.bytes + k] != kGuardByte;
    if (bad) {
      pass = false;
      add(label + ": the kernel wrote past the end of the buffer (" + std::to_string(bad) + " of the " +
          std::to_string(kGuardBytes) + " bytes after it changed)");
    }
    if (b.spec->access == Access::Read) {
      if (b.bytes && std::memcmp(got, b.initial.data.data(), b.bytes) != 0) {
        pass = false;
        add(label + ": the kernel modified a buffer the case declares read-only");
      }
      continue;
    }
    ++outputs;
    CompareResult cr =
        compare_output(b.expected, got, b.bytes, b.spec->atol, b.spec->rtol, b.spec->compare_as, b.spec->name);
    r->max_abs_err = std::max(r->max_abs_err, cr.max_abs_err);
    r->max_rel_err = std::max(r->max_rel_err, cr.max_rel_err);
    if (!cr.pass) {
      pass = false;
      add(cr.message);
    }
  }
  if (outputs == 0 && pass) add("note: the case has no output buffer to compare");
  r->status = pass ? "pass" : "fail";
  r->message = msg;
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
