// The OpenMP target: compiles an emitted .cpp into a shared object (cached by
// content hash), dlopens it and runs kernels through the C ABI of
// mslport/kernel_abi.h.
//
// Each case runs in a forked child process on buffers in shared memory, so a
// kernel that crashes (segfault, abort) or runs past the case time limit
// (killed) becomes an "error" for that case and the run goes on. (The parent
// never enters an OpenMP parallel region, so the child's OpenMP runtime
// starts clean.) Set MSLPORT_RUNNER_INPROCESS=1 to run in-process instead,
// e.g. under a debugger (no time limit then).
//
// The compiler and flags are runtime/emitted_cxx.h's (MSLPORT_CXX overrides
// the compiler, MSLPORT_INCLUDE_DIR the directory holding mslport/kernel_abi.h).
#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>

#include "mslport/kernel_abi.h"
#include "runtime/case_buffers.h"
#include "runtime/emitted_cxx.h"
#include "runtime/runner.h"
#include "support/atomic_file.h"
#include "support/subprocess.h"
#include "support/work_dir.h"

namespace mslport::runtime {

namespace fs = std::filesystem;

namespace {

// Regular files only: a module source that is a FIFO must not hang the run.
bool slurp(const fs::path& p, std::string* out) { return read_file(p.string(), out); }

struct Fnv1a {
  uint64_t h = 1469598103934665603ull;
  void add(const std::string& s) {
    for (unsigned char c : s) {
      h ^= c;
      h *= 1099511628211ull;
    }
    // Separator so that ("ab","c") and ("a","bc") differ.
    h ^= 0xFF;
    h *= 1099511628211ull;
  }
  std::string hex() const {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
  }
};

// The file named by an `#include "x"` or `#include <x>` line, else "".
std::string include_target(const std::string& line) {
  size_t i = line.find_first_not_of(" \t");
  if (i == std::string::npos || line[i] != '#') return "";
  i = line.find_first_not_of(" \t", i + 1);
  if (i == std::string::npos || line.compare(i, 7, "include") != 0) return "";
  i = line.find_first_not_of(" \t", i + 7);
  if (i == std::string::npos || (line[i] != '"' && line[i] != '<')) return "";
  char close = line[i] == '"' ? '"' : '>';
  size_t j = line.find(close, i + 1);
  return j == std::string::npos ? "" : line.substr(i + 1, j - i - 1);
}

// The bytes a module is built from: the .cpp and, transitively, every
// #include it has that resolves beside it (copied into the private build
// directory, under the same relative name) or in the include directories
// (hashed, used in place). System headers are not followed.
struct ModuleSources {
  std::vector<std::pair<std::string, std::string>> beside;  // relative name, content
  std::set<std::string> seen;
};

// `rel`: the name under which the file is copied (relative to the .cpp's
// folder); empty for a file of the include directories, used in place and
// keyed by `name` as included.
bool collect_sources(const fs::path& file, const std::string& rel, const std::string& name_key,
                     const std::vector<fs::path>& include_dirs, Fnv1a* h, ModuleSources* out, std::string* error) {
  std::error_code ec;
  std::string key = fs::weakly_canonical(file, ec).string();
  if (!out->seen.insert(key).second) return true;
  std::string text;
  if (!slurp(file, &text)) {
    *error = "cannot read " + file.string();
    return false;
  }
  // The key is the name the file is included by and its content, never
  // where it lies: the same module built from another directory (each
  // check run has its own) hits the same cache entry.
  h->add(rel.empty() ? "include:" + name_key : rel);
  h->add(text);
  if (!rel.empty()) out->beside.emplace_back(rel, text);
  std::istringstream ss(text);
  std::string line;
  while (std::getline(ss, line)) {
    std::string name = include_target(line);
    if (name.empty()) continue;
    fs::path here = file.parent_path() / name;
    std::string here_rel = (fs::path(rel).parent_path() / name).lexically_normal().string();
    bool inside = !here_rel.empty() && here_rel.rfind("..", 0) != 0 && fs::path(name).is_relative();
    if (inside && fs::is_regular_file(here, ec)) {
      if (!collect_sources(here, here_rel, name, include_dirs, h, out, error)) return false;
      continue;
    }
    for (const auto& d : include_dirs) {
      fs::path cand = d / name;
      if (fs::is_regular_file(cand, ec)) {
        if (!collect_sources(cand, "", name, include_dirs, h, out, error)) return false;
        break;
      }
    }
  }
  return true;
}
// -march=native code is only valid on a CPU like this one: a cached module
// carried to another machine must not be reused there.
std::string cpu_identity() {
  std::ifstream f("/proc/cpuinfo");
  std::string line, model, flags;
  while (std::getline(f, line) && (model.empty() || flags.empty())) {
    if (model.empty() && line.rfind("model name", 0) == 0) model = line;
    if (flags.empty() && (line.rfind("flags", 0) == 0 || line.rfind("Features", 0) == 0)) flags = line;
  }
  return model + "\n" + flags;
}

// Anonymous shared memory: visible to a forked child's writes.
class SharedMem {
 public:
  explicit SharedMem(size_t bytes) : size_(std::max<size_t>(bytes, 1)) {
    p_ = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p_ == MAP_FAILED) {
      p_ = nullptr;
      throw std::runtime_error("cannot map " + std::to_string(size_) +
                               " bytes of shared memory: " + std::strerror(errno));
    }
  }
  ~SharedMem() {
    if (p_) munmap(p_, size_);
  }
  SharedMem(const SharedMem&) = delete;
  SharedMem& operator=(const SharedMem&) = delete;
  uint8_t* data() const { return static_cast<uint8_t*>(p_); }

 private:
  size_t size_;
  void* p_ = nullptr;
};

struct ChildStatus {
  int done;
  int rc;
  char message[4096];
};

std::string signal_text(int sig) {
  const char* d = strsignal(sig);
  return "signal " + std::to_string(sig) + (d ? std::string(" (") + d + ")" : "");
}

// A sanitized module's mslport_san_report (mslport/sanitizer_rt.h).
using SanReportFn = size_t (*)(char* buf, size_t len);
constexpr size_t kFindingsBytes = 1 << 18;

// Parses serialize_findings' lines into findings.
std::vector<Finding> parse_findings(const char* text) {
  std::vector<Finding> out;
  std::istringstream ss(text);
  std::string line;
  while (std::getline(ss, line)) {
    std::vector<std::string> f;
    size_t start = 0;
    for (size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1)
      f.push_back(line.substr(start, tab - start));
    f.push_back(line.substr(start));
    if (f.size() != 9) continue;
    Finding x;
    x.kind = f[0];
    x.file = f[1];
    x.line = std::atoi(f[2].c_str());
    x.col = std::atoi(f[3].c_str());
    x.message = f[4];
    x.note_file = f[5];
    x.note_line = std::atoi(f[6].c_str());
    x.note_col = std::atoi(f[7].c_str());
    x.note = f[8];
    out.push_back(std::move(x));
  }
  return out;
}

// Waits until every write end of `fd`'s pipe is closed; false when
// `timeout_seconds` (> 0) passed first.
bool wait_for_close(int fd, double timeout_seconds) {
  using Clock = std::chrono::steady_clock;
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_seconds));
  char buf[64];
  while (true) {
    int wait_ms = -1;
    if (timeout_seconds > 0) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) return false;
      wait_ms = static_cast<int>(std::min<long long>(left, 60'000));
    }
    pollfd p{fd, POLLIN, 0};
    int n = ::poll(&p, 1, wait_ms);
    if (n < 0 && errno != EINTR) return true;
    if (n <= 0) continue;
    ssize_t got = ::read(fd, buf, sizeof buf);
    if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN)) return true;
  }
}

class OpenMpExecutor : public Executor {
 public:
  OpenMpExecutor(void* handle, std::string so_path, std::map<std::string, mslport_entry_fn> kernels,
                 std::map<std::string, std::vector<HostSetConstant>> host_set, SanReportFn san_report,
                 std::string device)
      : handle_(handle),
        so_path_(std::move(so_path)),
        kernels_(std::move(kernels)),
        host_set_(std::move(host_set)),
        san_report_(san_report),
        device_(std::move(device)) {}
  ~OpenMpExecutor() override {
    // Never dlclose: libgomp came in with the module and its worker threads outlive it.
    (void)handle_;
  }

  std::string target() const override { return "openmp"; }
  std::string device() const override { return device_; }
  bool has_kernel(const std::string& name) const override { return kernels_.count(name) > 0; }
  std::vector<std::string> kernel_names() const override {
    std::vector<std::string> out;
    for (const auto& k : kernels_) out.push_back(k.first);
    return out;
  }
  std::vector<HostSetConstant> host_set_constants(const std::string& kernel) const override {
    auto it = host_set_.find(kernel);
    return it == host_set_.end() ? std::vector<HostSetConstant>{} : it->second;
  }

  CaseResult run(const GoldenCase& c) override {
    try {
      return run_impl(c);
    } catch (const std::exception& e) {
      return error_result(c, target(), e.what());
    } catch (...) {
      return error_result(c, target(), "unknown exception");
    }
  }

 private:
  CaseResult run_impl(const GoldenCase& c) {
    auto it = kernels_.find(c.kernel);
    if (it == kernels_.end()) return error_result(c, target(), "kernel '" + c.kernel + "' is not in " + so_path_);
    mslport_entry_fn entry = it->second;

    std::vector<HostBuffer> buffers = load_case_buffers(c);
    std::vector<std::unique_ptr<SharedMem>> mem;
    mslport_args args;
    std::memset(&args, 0, sizeof args);
    for (const HostBuffer& b : buffers) {
      mem.push_back(std::make_unique<SharedMem>(b.bytes + kGuardBytes));
      fill_buffer(b, mem.back()->data());
      if (b.spec->argument_buffer_offset >= 0) continue;
      args.buffers[b.spec->index] = mem.back()->data();
      args.buffer_bytes[b.spec->index] = b.bytes;
    }
    // The addresses of the buffers argument buffers point to, stored in
    // them as Metal 3's host stores gpuAddress; what the case gave in those
    // 8 bytes goes back before the check.
    std::string slot_error;
    std::vector<ArgumentBufferSlot> slots = store_argument_buffer_pointers(
        buffers, [&](size_t i) { return mem[i]->data(); }, &slot_error);
    if (!slot_error.empty()) return error_result(c, target(), slot_error);
    for (const auto& t : c.threadgroup_memory) args.threadgroup_bytes[t.index] = t.bytes;
    // The function constants the host sets, from the case's values.
    const std::vector<HostSetConstant> host_set = host_set_constants(c.kernel);
    std::vector<std::vector<uint8_t>> fc_bytes;
    std::vector<mslport_function_constant_value> fc_values;
    for (const HostSetConstant& k : host_set) fc_bytes.push_back(dispatch_bytes(c, k, /*opencl=*/false));
    for (size_t i = 0; i < host_set.size(); ++i) fc_values.push_back({host_set[i].index, fc_bytes[i].data()});
    args.function_constants = fc_values.data();
    args.function_constant_count = uint32_t(fc_values.size());
    mslport_dispatch d;
    for (int i = 0; i < 3; ++i) {
      d.threadgroups[i] = c.dispatch.threadgroups[i];
      d.threads_per_tg[i] = c.dispatch.threads_per_threadgroup[i];
      d.grid_threads[i] = c.dispatch.grid_threads[i];
    }

    SharedMem status_mem(sizeof(ChildStatus));
    auto* st = reinterpret_cast<ChildStatus*>(status_mem.data());
    std::memset(st, 0, sizeof *st);
    std::unique_ptr<SharedMem> findings_mem;
    if (san_report_) findings_mem = std::make_unique<SharedMem>(kFindingsBytes);
    auto take_findings = [&] {
      if (san_report_) san_report_(reinterpret_cast<char*>(findings_mem->data()), kFindingsBytes);
    };

    const char* inproc = std::getenv("MSLPORT_RUNNER_INPROCESS");
    if (inproc && *inproc && std::string(inproc) != "0") {
      st->rc = entry(&args, &d, st->message, sizeof st->message);
      take_findings();
      st->done = 1;
    } else {
      // The child holds the write end of `done` and never writes: its exit
      // (or crash) closes it, which wakes the parent's poll; the time
      // limit is that poll's.
      int done[2];
      if (::pipe2(done, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe failed: ") + std::strerror(errno));
      std::fflush(stdout);
      std::fflush(stderr);
      pid_t pid = fork();
      if (pid < 0) {
        ::close(done[0]);
        ::close(done[1]);
        throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
      }
      if (pid == 0) {
        ::close(done[0]);
        // Die of the signal itself (no handler of the host, e.g. a
        // sanitizer's, turns a crash into an ordinary exit).
        for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) signal(sig, SIG_DFL);
        int rc;
        try {
          rc = entry(&args, &d, st->message, sizeof st->message);
        } catch (const std::exception& e) {
          rc = -1;
          std::snprintf(st->message, sizeof st->message, "exception: %s", e.what());
        } catch (...) {
          rc = -1;
          std::snprintf(st->message, sizeof st->message, "unknown exception");
        }
        st->rc = rc;
        take_findings();
        st->done = 1;
        std::fflush(stdout);
        std::fflush(stderr);
        _exit(0);
      }
      ::close(done[1]);
      const bool finished = wait_for_close(done[0], case_timeout());
      ::close(done[0]);
      if (!finished) ::kill(pid, SIGKILL);
      int wstatus = 0;
      while (waitpid(pid, &wstatus, 0) < 0) {
        if (errno != EINTR) throw std::runtime_error(std::string("waitpid failed: ") + std::strerror(errno));
      }
      if (!finished) {
        char secs[32];
        std::snprintf(secs, sizeof secs, "%g", case_timeout());
        return error_result(c, target(), std::string("timed out after ") + secs + " s (--case-timeout)");
      }
      if (WIFSIGNALED(wstatus)) return error_result(c, target(), "kernel crashed: " + signal_text(WTERMSIG(wstatus)));
      if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0 || !st->done)
        return error_result(
            c, target(),
            "kernel process exited with status " + std::to_string(WEXITSTATUS(wstatus)) + " before finishing");
    }
    st->message[sizeof st->message - 1] = 0;
    std::vector<Finding> findings;
    if (findings_mem) findings = parse_findings(reinterpret_cast<const char*>(findings_mem->data()));
    if (st->rc != 0) {
      std::string m = st->message;
      CaseResult r =
          error_result(c, target(), "kernel returned status " + std::to_string(st->rc) + (m.empty() ? "" : ": " + m));
      r.findings = std::move(findings);
      return r;
    }
    CaseResult r = make_result(c, target());
    r.findings = std::move(findings);
    restore_argument_buffer_slots(slots);
    std::vector<const uint8_t*> contents;
    for (const auto& m : mem) contents.push_back(m->data());
    check_buffers(buffers, contents, &r, c.capture_dir.empty() ? "" : c.capture_dir + "/" + target());
    return r;
  }

  void* handle_;
  std::string so_path_;
  std::map<std::string, mslport_entry_fn> kernels_;
  std::map<std::string, std::vector<HostSetConstant>> host_set_;
  SanReportFn san_report_;
  std::string device_;
};

}  // namespace

// The compile command for the report (check --format json): the flags
// `mslport --cflags` prints and what makes a runner module (emitted_cxx.h).
OpenMpCompileCommand openmp_compile_command() {
  OpenMpCompileCommand cmd;
  EmittedCxx cxx;
  std::string error;
  emitted_cxx(&cxx, &error);  // without the headers the report still names the compiler
  cmd.compiler = cxx.compiler;
  cmd.include_dir = cxx.include_dir;
  cmd.flags = cxx.flags;
  for (const auto& f : runner_module_flags()) cmd.flags.push_back(f);
  return cmd;
}

std::unique_ptr<Executor> load_openmp_module(const std::string& cpp_path, const std::string& build_dir,
                                             std::string* error) {
  std::string dummy;
  if (!error) error = &dummy;
  std::error_code ec;
  if (!fs::is_regular_file(cpp_path, ec)) {
    *error = "no such file: " + cpp_path;
    return nullptr;
  }
  // The flags `mslport --cflags` prints, and what makes a runner module.
  EmittedCxx cxx;
  if (!emitted_cxx(&cxx, error)) return nullptr;
  const std::string& compiler = cxx.compiler;
  const std::string& include_dir = cxx.include_dir;
  std::vector<std::string> flags = cxx.flags;
  for (const auto& f : runner_module_flags()) flags.push_back(f);
  Fnv1a h;
  h.add(compiler);
  for (const auto& f : flags) h.add(f);
  h.add(cpu_identity());
  ModuleSources sources;
  const std::string main_name = fs::path(cpp_path).filename().string();
  if (!collect_sources(fs::path(cpp_path), main_name, main_name, {fs::path(include_dir)}, &h, &sources, error))
    return nullptr;

  fs::create_directories(build_dir, ec);
  if (ec) {
    *error = "cannot create " + build_dir + ": " + ec.message();
    return nullptr;
  }
  fs::path so = fs::absolute(fs::path(build_dir) / (fs::path(cpp_path).stem().string() + "-" + h.hex() + ".so"));
  if (!fs::is_regular_file(so, ec)) {
    // Compiled from a private copy of exactly the bytes hashed above, so a
    // file changed meanwhile (another run, a regen) can never be cached
    // under this key; into a unique name, renamed into place when whole.
    RunDir snapshot;
    if (!snapshot.create(build_dir, ".compile", error)) return nullptr;
    for (const auto& [rel, content] : sources.beside) {
      fs::path dst = fs::path(snapshot.path()) / rel;
      fs::create_directories(dst.parent_path(), ec);
      std::ofstream f(dst, std::ios::binary);
      f << content;
      if (!f.flush()) {
        *error = "cannot write " + dst.string();
        return nullptr;
      }
    }
    const std::string tmp = (fs::path(snapshot.path()) / "module.so").string();
    std::vector<std::string> argv{compiler};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.push_back((fs::path(snapshot.path()) / main_name).string());
    argv.push_back("-o");
    argv.push_back(tmp);
    ProcessResult pr = run_process(argv);
    if (!pr.ok()) {
      std::string out = pr.output;
      if (out.size() > 20000) out = out.substr(0, 20000) + "\n... (output truncated)";
      *error = "compiling " + cpp_path + " failed (" + pr.describe() + "):\n$ " + display_command(argv) + "\n" + out;
      return nullptr;
    }
    fs::rename(tmp, so, ec);
    if (ec) {
      *error = "cannot rename " + tmp + " to " + so.string() + ": " + ec.message();
      return nullptr;
    }
  }

  // RTLD_NODELETE: the module (and the OpenMP runtime it pulls in) stays
  // mapped after dlclose; unloading an OpenMP runtime that has started
  // threads (in-process mode) is not safe.
  void* handle = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!handle) {
    const char* e = dlerror();
    *error = "dlopen " + so.string() + " failed: " + (e ? e : "unknown error");
    return nullptr;
  }
  auto table_fn = reinterpret_cast<mslport_module_kernels_fn>(dlsym(handle, MSLPORT_MODULE_KERNELS_SYMBOL));
  if (!table_fn) {
    *error = so.string() + " (from " + cpp_path +
             ") has no " MSLPORT_MODULE_KERNELS_SYMBOL
             " (is the module emitted with its runner table under MSLPORT_RUNNER_MODULE?)";
    dlclose(handle);
    return nullptr;
  }
  int count = 0;
  const mslport_kernel_info* table = table_fn(&count);
  std::map<std::string, mslport_entry_fn> kernels;
  std::map<std::string, std::vector<HostSetConstant>> host_set;
  for (int i = 0; table && i < count; ++i) {
    if (!table[i].name || !table[i].entry) continue;
    kernels.emplace(table[i].name, table[i].entry);
    for (int f = 0; table[i].function_constants && f < table[i].function_constant_count; ++f) {
      const mslport_function_constant_info& fc = table[i].function_constants[f];
      host_set[table[i].name].push_back({fc.name ? fc.name : "", fc.index, fc.type ? fc.type : ""});
    }
  }
  auto san_report = reinterpret_cast<SanReportFn>(dlsym(handle, "mslport_san_report"));
  std::string cpu = cpu_identity();
  cpu = cpu.substr(0, cpu.find('\n'));
  if (auto colon = cpu.find(':'); colon != std::string::npos) cpu = cpu.substr(colon + 1);
  while (!cpu.empty() && cpu.front() == ' ') cpu.erase(0, 1);
  return std::make_unique<OpenMpExecutor>(handle, so.string(), std::move(kernels), std::move(host_set), san_report,
                                          (cpu.empty() ? std::string("this CPU") : cpu) + " (" + compiler + ")");
}

}  // namespace mslport::runtime
