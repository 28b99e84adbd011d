#include "bench/golden_cases.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "runtime/case_buffers.h"
#include "runtime/golden_case.h"
#include "runtime/npy.h"

namespace mslport::bench {

uint64_t golden_case_bytes(const runtime::GoldenCase& c) {
  uint64_t total = 0;
  for (const auto& b : c.buffers) {
    const std::string& path = b.access == runtime::Access::Write ? b.expected_path : b.data_path;
    runtime::NpyHeader h;
    std::string err;
    if (path.empty() || !runtime::read_npy_header(path, &h, &err)) return 0;
    total += uint64_t(h.count()) * h.itemsize;
  }
  return total;
}

GoldenSelection select_golden_cases(const std::string& dir, const std::vector<std::string>& source_kernels,
                                    const std::vector<std::string>& asked, const std::string& case_name,
                                    const std::function<bool(const runtime::GoldenCase&)>& runnable) {
  GoldenSelection sel;
  std::vector<runtime::LoadError> load_errors;
  std::vector<runtime::GoldenCase> all = runtime::load_golden_dir(dir, &load_errors);
  for (const auto& e : load_errors)
    sel.errors.push_back((e.file == dir ? "--golden '" + dir + "'" : "golden case " + e.file) + ": " + e.message);
  std::map<std::string, std::vector<const runtime::GoldenCase*>> by_kernel;
  for (const auto& c : all) by_kernel[c.kernel].push_back(&c);

  const std::set<std::string> in_sources(source_kernels.begin(), source_kernels.end());
  std::vector<std::string> todo;
  if (asked.empty()) {
    todo.assign(in_sources.begin(), in_sources.end());
  } else {
    for (const auto& k : asked) {
      if (in_sources.count(k)) todo.push_back(k);
      else sel.errors.push_back(k + ": not a kernel of the sources");
    }
  }
  const bool by_name = !asked.empty();
  for (const auto& k : todo) {
    auto fail = [&](const std::string& why) { (by_name ? sel.errors : sel.skipped).push_back(k + ": " + why); };
    auto it = by_kernel.find(k);
    if (it == by_kernel.end()) {
      fail("no golden case in " + dir);
      continue;
    }
    std::vector<const runtime::GoldenCase*> named;
    for (const auto* c : it->second)
      if (case_name.empty() || c->name == case_name) named.push_back(c);
    if (named.empty()) {
      std::string names;
      for (const auto* c : it->second) names += (names.empty() ? "" : ", ") + c->name;
      fail("no golden case named '" + case_name + "' (its cases: " + names + ")");
      continue;
    }
    const runtime::GoldenCase* best = nullptr;
    uint64_t best_bytes = 0;
    std::string not_runnable;
    for (const auto* c : named) {
      if (runnable && !runnable(*c)) {
        not_runnable += (not_runnable.empty() ? "" : ", ") + c->name;
        continue;
      }
      uint64_t bytes = golden_case_bytes(*c);
      if (!best || bytes > best_bytes || (bytes == best_bytes && c->name < best->name)) {
        best = c;
        best_bytes = bytes;
      }
    }
    if (!best) {
      fail("its golden cases (" + not_runnable +
           ") give function constants that these emitted files were not translated with");
      continue;
    }
    sel.cases.emplace(k, *best);
  }
  if (sel.cases.empty() && sel.errors.empty())
    sel.errors.push_back("nothing to time: no kernel of the sources has a golden case in " + dir +
                         (case_name.empty() ? std::string() : " named '" + case_name + "'"));
  return sel;
}

BenchCase bench_case_from_golden(const runtime::GoldenCase& c) {
  for (const runtime::BufferSpec& s : c.buffers)
    if (s.argument_buffer_offset >= 0)
      throw std::runtime_error("golden case " + c.dir + "/case.json: buffer(" + runtime::buffer_key(s) + ") '" +
                               s.name + "' is one an argument buffer points to; kernels with argument buffers are " +
                               "not benchmarked yet");
  std::vector<runtime::HostBuffer> host;
  try {
    host = runtime::load_case_buffers(c);
  } catch (const std::exception& e) {
    throw std::runtime_error("golden case " + c.dir + "/case.json: " + e.what());
  }
  BenchCase bc;
  bc.kernel = c.kernel;
  bc.case_name = c.name;
  bc.description = "golden case " + c.name + (c.description.empty() ? std::string() : ": " + c.description);
  bc.dispatch = c.dispatch;
  bc.threadgroup_memory = c.threadgroup_memory;
  for (const auto& h : host) {
    BenchBuffer b;
    b.index = h.spec->index;
    b.name = h.spec->name;
    b.access = h.spec->access;
    b.bytes = h.bytes;
    if (h.spec->access == runtime::Access::Write) {
      b.fill = Fill::Zero;
      b.bytes_written = h.bytes;
    } else {
      b.fill = Fill::Bytes;
      b.contents = h.initial.data;
      b.bytes_read = h.bytes;
      if (h.spec->access == runtime::Access::ReadWrite) b.bytes_written = h.bytes;
    }
    bc.buffers.push_back(std::move(b));
  }
  std::sort(bc.buffers.begin(), bc.buffers.end(),
            [](const BenchBuffer& a, const BenchBuffer& b) { return a.index < b.index; });
  return bc;
}

}  // namespace mslport::bench
